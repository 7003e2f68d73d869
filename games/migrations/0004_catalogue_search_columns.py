"""The search rows carry the columns the facets test and the hit list sorts on (see games/search.py).

A search with words then counts and sorts its matches from ``games_cataloguesearch`` alone:
joining each match back to its record cost a third of the search for a common word. The
trigger function of migration 0002 copies them along with the documents, from the same record
triggers, so they change whenever the record does. PostgreSQL only, like 0002.
"""

from django.db import migrations

COLUMNS = ("title", "min_players", "max_players", "min_age", "duration_minutes")

REFRESH = """
CREATE OR REPLACE FUNCTION games_catalogue_search_refresh(rid bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  heading tsvector := games_catalogue_search_heading(rid);
BEGIN
  IF heading IS NULL THEN
    DELETE FROM games_cataloguesearch WHERE record_id = rid;
  ELSE
    INSERT INTO games_cataloguesearch (record_id, heading, document, {columns})
    SELECT rid, heading, heading || games_catalogue_search_body(rid), {record_columns}
      FROM games_cataloguerecord r WHERE r.id = rid
    ON CONFLICT (record_id) DO UPDATE SET heading = EXCLUDED.heading, document = EXCLUDED.document, {updates};
  END IF;
END $$;
""".format(
    columns=", ".join(COLUMNS),
    record_columns=", ".join(f"r.{column}" for column in COLUMNS),
    updates=", ".join(f"{column} = EXCLUDED.{column}" for column in COLUMNS),
)

# Migration 0002's version, for going back.
OLD_REFRESH = """
CREATE OR REPLACE FUNCTION games_catalogue_search_refresh(rid bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  heading tsvector := games_catalogue_search_heading(rid);
BEGIN
  IF heading IS NULL THEN
    DELETE FROM games_cataloguesearch WHERE record_id = rid;
  ELSE
    INSERT INTO games_cataloguesearch (record_id, heading, document)
    VALUES (rid, heading, heading || games_catalogue_search_body(rid))
    ON CONFLICT (record_id) DO UPDATE SET heading = EXCLUDED.heading, document = EXCLUDED.document;
  END IF;
END $$;
"""

FORWARD = (
    """
ALTER TABLE games_cataloguesearch
  ADD COLUMN title varchar(300), ADD COLUMN min_players smallint, ADD COLUMN max_players smallint,
  ADD COLUMN min_age smallint, ADD COLUMN duration_minutes smallint;
"""
    + REFRESH
    + "UPDATE games_cataloguesearch s SET "
    + ", ".join(f"{column} = r.{column}" for column in COLUMNS)
    + " FROM games_cataloguerecord r WHERE r.id = s.record_id;\n"
)

BACKWARD = OLD_REFRESH + "ALTER TABLE games_cataloguesearch " + ", ".join(f"DROP COLUMN {c}" for c in COLUMNS) + ";\n"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("games", "0003_catalogue_search_speed")]

    operations = [migrations.RunPython(forward, backward)]
