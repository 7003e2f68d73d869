"""The demo's (and the seeds') engine games get their BoardGameGeek ids, so that a club's
BoardGameGeek or BG Stats history lands on them instead of beside them (issue 36). Set only on
the demo's own record (its title and its rules engine), where it has no id yet and no other
record holds that id: a library's own cataloguing is never changed."""

from django.db import migrations

DEMO_ENGINE_GAMES = [
    # (title in the demo catalogue, rules engine, BoardGameGeek id)
    ("Carcassonne", "carcassonne", 822),
    ("Stenen Tijdperk", "stone-age", 34635),
    ("Carcassonne à la prèhistoire", "hunters-gatherers", 4390),
]


def give_the_ids(apps, schema_editor):
    CatalogueRecord = apps.get_model("games", "CatalogueRecord")
    for title, engine, bgg_id in DEMO_ENGINE_GAMES:
        if CatalogueRecord.objects.filter(bgg_id=bgg_id).exists():
            continue
        record = (CatalogueRecord.objects.filter(title=title, engine_slug=engine, bgg_id__isnull=True)
                  .order_by("pk").first())
        if record is not None:
            CatalogueRecord.objects.filter(pk=record.pk).update(bgg_id=bgg_id)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_copy_organisation"),
        ("plays_exchange", "0001_play_history_imports"),
    ]

    operations = [migrations.RunPython(give_the_ids, migrations.RunPython.noop)]
