"""What the catalogue search needs to answer quickly on PostgreSQL (see games/search.py).

``games_catalogueversion``: one row whose ``version`` changes, by statement-level triggers, with
every write to what the facet counts read (records, their categories and languages, category and
language labels). The search caches the facet counts of a search without words under it.
The new value comes from a sequence and the row is written inside the writing transaction, so:
a reader sees the new version only once the change is committed (never counts cached under a
version newer than their data), and a rolled-back write (a test's) never hands out the same
version twice. Writers of the catalogue wait on each other for that row, which a catalogue edited
by its librarians never notices; the game records do not touch these tables.

``games_cataloguerecord_title``: browsing sorts by title and stops at a page of twenty.

Both are PostgreSQL only, like migration 0002: on SQLite a later table rebuild by Django would
drop such triggers silently, so the search does not cache there (a first-run catalogue is small).
"""

from django.db import migrations

WATCHED = (
    "games_cataloguerecord",
    "games_cataloguerecord_categories",
    "games_cataloguerecord_languages",
    "games_category",
    "games_language",
)

FORWARD = (
    """
CREATE SEQUENCE games_catalogueversion_seq;
CREATE TABLE games_catalogueversion (
  id smallint PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO games_catalogueversion VALUES (1, nextval('games_catalogueversion_seq'));
CREATE FUNCTION games_catalogueversion_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE games_catalogueversion SET version = nextval('games_catalogueversion_seq') WHERE id = 1;
  RETURN NULL;
END $$;
"""
    + "".join(
        f"CREATE TRIGGER {table}_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON {table}\n"
        "  FOR EACH STATEMENT EXECUTE FUNCTION games_catalogueversion_bump();\n"
        for table in WATCHED
    )
    + "CREATE INDEX games_cataloguerecord_title ON games_cataloguerecord (title, id);\n"
)

BACKWARD = (
    "DROP INDEX IF EXISTS games_cataloguerecord_title;\n"
    + "".join(f"DROP TRIGGER IF EXISTS {table}_version ON {table};\n" for table in WATCHED)
    + "DROP FUNCTION IF EXISTS games_catalogueversion_bump();\n"
    "DROP TABLE IF EXISTS games_catalogueversion;\n"
    "DROP SEQUENCE IF EXISTS games_catalogueversion_seq;\n"
)


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("games", "0002_catalogue_search")]

    operations = [migrations.RunPython(forward, backward)]
