"""The catalogue's words, for a search's other forms of a word and its typos (see games/search.py).

``games_catalogueword``: every word of the search documents (migration 0002), as they hold it
(lower case, accents removed). The search looks up the words that begin like each of its own and
stems them in Python, so the words are kept in the "C" collation, where "begins with" is a range
of the primary key; and it finds the words a mistyped one is near to through pg_trgm's trigram
index. A GiST one: with a GIN one the planner chose to compute the similarity of every word instead
(11 ms for 10,000 words, where the GiST index answers in 0.5 ms). The refresh function of migrations 0002 and 0004 adds each word a new document brings,
so bulk writes and the admin keep it right as they keep the documents.

Words are never taken out when the last record holding one loses it: the search would then only
look for a word that finds nothing, and a correction to it finds nothing either (the page shows
what it found). ``TRUNCATE games_catalogueword`` and this migration's ``FILL`` rebuild it.
PostgreSQL only, like 0002.
"""

from django.db import migrations

COLUMNS = ("title", "min_players", "max_players", "min_age", "duration_minutes")

# Migration 0004's function, which also adds the words the document had not held before.
REFRESH = """
CREATE OR REPLACE FUNCTION games_catalogue_search_refresh(rid bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  heading tsvector := games_catalogue_search_heading(rid);
  document tsvector;
  previous tsvector;
BEGIN
  IF heading IS NULL THEN
    DELETE FROM games_cataloguesearch WHERE record_id = rid;
  ELSE
    document := heading || games_catalogue_search_body(rid);
    SELECT s.document INTO previous FROM games_cataloguesearch s WHERE s.record_id = rid;
    INSERT INTO games_cataloguesearch (record_id, heading, document, {columns})
    SELECT rid, heading, document, {record_columns}
      FROM games_cataloguerecord r WHERE r.id = rid
    ON CONFLICT (record_id) DO UPDATE SET heading = EXCLUDED.heading, document = EXCLUDED.document, {updates};
    -- Only the words new to this record's document: a record refreshed for a change of its
    -- categories or people probes none of its summary's words again.
    INSERT INTO games_catalogueword (word)
    SELECT unnest(tsvector_to_array(
      CASE WHEN previous IS NULL THEN document ELSE ts_delete(document, tsvector_to_array(previous)) END))
    ON CONFLICT DO NOTHING;
  END IF;
END $$;
""".format(
    columns=", ".join(COLUMNS),
    record_columns=", ".join(f"r.{column}" for column in COLUMNS),
    updates=", ".join(f"{column} = EXCLUDED.{column}" for column in COLUMNS),
)

OLD_REFRESH = """
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

# The catalogue emptied at once (a test's flush) empties its words with its documents.
TRUNCATE = """
CREATE OR REPLACE FUNCTION games_cataloguesearch_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE games_cataloguesearch;
  {words}
  RETURN NULL;
END $$;
"""

FILL = """
INSERT INTO games_catalogueword (word)
SELECT DISTINCT unnest(tsvector_to_array(document)) FROM games_cataloguesearch
ON CONFLICT DO NOTHING;
"""

FORWARD = (
    """
CREATE TABLE games_catalogueword (word text COLLATE "C" PRIMARY KEY);
CREATE INDEX games_catalogueword_trigrams ON games_catalogueword USING gist (word gist_trgm_ops);
"""
    + REFRESH
    + TRUNCATE.format(words="TRUNCATE games_catalogueword;")
    + FILL
)

BACKWARD = OLD_REFRESH + TRUNCATE.format(words="") + "DROP TABLE IF EXISTS games_catalogueword;\n"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        # Not Django's CreateExtension: going back, it asks pg_extension on every database, and a
        # SQLite file taken back past this migration would fail. Going back leaves the extension
        # (another app may use it).
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm;")
        schema_editor.execute(FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("games", "0014_languages_and_verbose_names")]

    operations = [
        migrations.RunPython(forward, backward),
    ]
