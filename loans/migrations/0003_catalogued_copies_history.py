"""The event types gain ``noted``. Each copy's status and free-text note on missing pieces, as the catalogue held them before the
desk kept a history, become the copy's first events (``loans.rules.catalogued_events``): the note
is kept as history, the status is then computed from the events like any other."""

from django.db import migrations, models

from loans import rules


def adopt_catalogued_copies(apps, schema_editor):
    Copy = apps.get_model("games", "Copy")
    CopyEvent = apps.get_model("loans", "CopyEvent")
    CopyState = apps.get_model("loans", "CopyState")
    with_history = set(CopyEvent.objects.values_list("copy_id", flat=True).distinct())
    for copy in Copy.objects.exclude(status="available", missing_pieces="").iterator():
        if copy.pk in with_history:
            continue
        events = [CopyEvent(copy_id=copy.pk, seq=seq, type=kind.value, payload=payload)
                  for seq, (kind, payload) in enumerate(rules.catalogued_events(copy.status, copy.missing_pieces), 1)]
        if not events:
            continue
        CopyEvent.objects.bulk_create(events)
        state = rules.fold(rules.CopyEvent(e.seq, e.type, None, e.payload) for e in events)
        CopyState.objects.update_or_create(copy_id=copy.pk, defaults={
            "status": state.status.value, "household_id": None, "lent_on": state.lent_on, "due_on": state.due_on,
            "renewals": state.renewals, "missing": [], "last_seq": state.last_seq, "note": state.note})
        Copy.objects.filter(pk=copy.pk).update(status=rules.CATALOGUE_STATUS[state.status],
                                               missing_pieces=rules.catalogue_words(state))


class Migration(migrations.Migration):
    dependencies = [("loans", "0002_copy_events_append_only"), ("games", "0009_plays_import")]

    operations = [
        # The choices now store the rules' own values (they were the labels, "hold fulfilled").
        migrations.AlterField(
            model_name='copyevent',
            name='type',
            field=models.CharField(choices=[('lent', 'lent'), ('returned', 'returned'), ('renewed', 'renewed'), ('held', 'held'), ('hold_fulfilled', 'hold fulfilled'), ('hold_cancelled', 'hold cancelled'), ('checked', 'checked'), ('piece_missing', 'piece missing'), ('piece_found', 'piece found'), ('sent_to_repair', 'sent to repair'), ('back_from_repair', 'back from repair'), ('withdrawn', 'withdrawn'), ('noted', 'noted')], max_length=32, verbose_name='type'),
        ),
        migrations.AlterField(
            model_name='copystate',
            name='status',
            field=models.CharField(choices=[('available', 'available'), ('on_loan', 'on loan'), ('on_hold_shelf', 'on hold shelf'), ('in_repair', 'in repair'), ('withdrawn', 'withdrawn'), ('needs_check', 'needs check')], default='available', max_length=16, verbose_name='status'),
        ),
        migrations.AddField(
            model_name="copystate", name="note",
            field=models.TextField(blank=True, default="", verbose_name="latest note"),
        ),
        migrations.RunPython(adopt_catalogued_copies, migrations.RunPython.noop),
    ]
