"""Tamper evidence over the whole record (records.integrity): ruleset moves get a hash chained per
record, seat moves (players merged, a seat corrected) are kept the same way, and each record gets
a checkpoint of what a verification last found intact.

The records already stored have their first event chained to 64 zeros, before headers were
chained: their checkpoint, written here, keeps their header (game, ruleset, seed, set-up, seats)
as it stands now, with their last event and their ruleset moves. Records started from now on
have their first event chained to their header.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.models import Max, Q

from records import integrity

RECORDS_AT_ONCE = 500


def chain_moves_and_checkpoint_records(apps, schema_editor) -> None:
    using = schema_editor.connection.alias
    GameRecord = apps.get_model("records", "GameRecord")
    Seat = apps.get_model("records", "Seat")
    Event = apps.get_model("records", "Event")
    RulesetMove = apps.get_model("records", "RulesetMove")
    RecordCheckpoint = apps.get_model("records", "RecordCheckpoint")

    moves: dict[int, tuple[int, str]] = {}
    chained = []
    for move in RulesetMove.objects.using(using).order_by("record_id", "id"):
        count, previous = moves.get(move.record_id, (0, integrity.GENESIS))
        move.hash = integrity.move_hash(integrity.ruleset_move_content(
            record_id=move.record_id, from_version=move.from_version, to_version=move.to_version,
            from_setup=move.from_setup, to_setup=move.to_setup, outcome=move.outcome,
            scores_before=move.scores_before, scores_after=move.scores_after, moved_by_id=move.moved_by_id,
            moved_at=move.moved_at), previous)
        moves[move.record_id] = (count + 1, move.hash)
        chained.append(move)
    RulesetMove.objects.using(using).bulk_update(chained, ["hash"], batch_size=RECORDS_AT_ONCE)

    now = django.utils.timezone.now()
    lasts = dict(Event.objects.using(using).values_list("record_id").annotate(last=Max("seq")).order_by())
    record_ids = sorted(set(lasts) | set(moves))
    for start in range(0, len(record_ids), RECORDS_AT_ONCE):
        batch = record_ids[start:start + RECORDS_AT_ONCE]
        seats: dict[int, list[tuple[int, int]]] = {}
        for record_id, order, player_id in (Seat.objects.using(using).filter(record_id__in=batch)
                                            .values_list("record_id", "seat_order", "player_id")):
            seats.setdefault(record_id, []).append((order, player_id))
        heads: dict[int, str] = {}
        with_events = [record_id for record_id in batch if record_id in lasts]
        if with_events:
            match = Q()
            for record_id in with_events:
                match |= Q(record_id=record_id, seq=lasts[record_id])
            heads = dict(Event.objects.using(using).filter(match).values_list("record_id", "hash"))
        checkpoints = []
        for record in GameRecord.objects.using(using).filter(pk__in=batch):
            count, last_move = moves.get(record.pk, (0, ""))
            header = integrity.RecordHeader.of(record, seats.get(record.pk, ())).digest() if record.pk in lasts else ""
            checkpoints.append(RecordCheckpoint(
                record_id=record.pk, header=header, last_seq=lasts.get(record.pk, 0), head=heads.get(record.pk, ""),
                ruleset_moves=count, ruleset_moves_head=last_move, checked_at=now))
        RecordCheckpoint.objects.using(using).bulk_create(checkpoints)


class Migration(migrations.Migration):

    dependencies = [
        ("records", "0016_record_file_import"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="rulesetmove",
            name="hash",
            field=models.CharField(
                default="", editable=False, max_length=64, verbose_name="hash",
                help_text="SHA-256 of the move and of the record's previous ruleset move's hash (records.integrity).",
            ),
            preserve_default=False,
        ),
        migrations.CreateModel(
            name="SeatMove",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seat_order", models.PositiveSmallIntegerField(verbose_name="seat order")),
                ("from_player", models.BigIntegerField(verbose_name="from player (id)")),
                ("to_player", models.BigIntegerField(verbose_name="to player (id)")),
                ("reason", models.CharField(choices=[("merge", "players merged"), ("correction", "seat corrected")],
                                            max_length=16, verbose_name="reason")),
                ("moved_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="moved at")),
                ("hash", models.CharField(
                    editable=False, max_length=64, verbose_name="hash",
                    help_text="SHA-256 of the move and of the record's previous seat move's hash (records.integrity).")),
                ("moved_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                               related_name="+", to=settings.AUTH_USER_MODEL)),
                ("record", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="seat_moves",
                                             to="records.gamerecord")),
            ],
            options={"verbose_name": "seat move", "ordering": ["record", "id"]},
        ),
        migrations.CreateModel(
            name="RecordCheckpoint",
            fields=[
                ("record", models.OneToOneField(db_constraint=False, on_delete=django.db.models.deletion.DO_NOTHING,
                                                primary_key=True, related_name="checkpoint", serialize=False,
                                                to="records.gamerecord")),
                ("header", models.CharField(blank=True, max_length=64, verbose_name="header digest")),
                ("last_seq", models.PositiveIntegerField(default=0, verbose_name="last seq")),
                ("head", models.CharField(blank=True, max_length=64, verbose_name="last event's hash")),
                ("ruleset_moves", models.PositiveIntegerField(default=0, verbose_name="ruleset moves")),
                ("ruleset_moves_head", models.CharField(blank=True, max_length=64,
                                                        verbose_name="last ruleset move's hash")),
                ("seat_moves", models.PositiveIntegerField(default=0, verbose_name="seat moves")),
                ("seat_moves_head", models.CharField(blank=True, max_length=64, verbose_name="last seat move's hash")),
                ("checked_at", models.DateTimeField(blank=True, null=True, verbose_name="found intact at")),
                ("failed_at", models.DateTimeField(blank=True, null=True, verbose_name="failed verification at")),
                ("problems", models.JSONField(blank=True, default=list,
                                              help_text="What its last verification found wrong, as sentences.",
                                              verbose_name="problems")),
            ],
            options={"verbose_name": "record checkpoint"},
        ),
        migrations.RunPython(chain_moves_and_checkpoint_records, migrations.RunPython.noop),
    ]
