"""Full-text search documents for the catalogue, kept by PostgreSQL itself (see games/search.py).

One row per record in ``games_cataloguesearch``: ``document``, every searchable word, matched
against; ``heading``, its titles, people and publisher only, small enough to rank thousands of
matches quickly. Both are rebuilt by triggers whenever the record,
its other titles, contributors, categories, or the names of its people, publisher and categories
change: bulk writes and the admin keep it right as well as the services. The table is a cache
of the records (no foreign key, so that test flushes can truncate the catalogue alone; a TRUNCATE
trigger empties it with them). It is not a Django model because nothing but the search reads it.

On any other database this migration does nothing; the search folds accents in Python there.
"""

from django.contrib.postgres.operations import CreateExtension
from django.db import migrations

DOCUMENT = """
CREATE FUNCTION games_catalogue_search_heading(rid bigint) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT
    setweight(to_tsvector('simple', unaccent(r.title)), 'A')
    || setweight(to_tsvector('simple', unaccent(coalesce(
         (SELECT string_agg(t.title, ' ') FROM games_othertitle t WHERE t.record_id = r.id), ''))), 'A')
    || setweight(to_tsvector('simple', unaccent(coalesce(
         (SELECT string_agg(p.name, ' ') FROM games_contribution c JOIN games_person p ON p.id = c.person_id
          WHERE c.record_id = r.id), ''))), 'B')
    || setweight(to_tsvector('simple', unaccent(coalesce(pub.name, ''))), 'B')
  FROM games_cataloguerecord r LEFT JOIN games_publisher pub ON pub.id = r.publisher_id
  WHERE r.id = rid
$$;

CREATE FUNCTION games_catalogue_search_body(rid bigint) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT
    setweight(to_tsvector('simple', unaccent(coalesce(
         (SELECT string_agg(cat.code || ' ' || cat.label, ' ') FROM games_cataloguerecord_categories rc
          JOIN games_category cat ON cat.id = rc.category_id WHERE rc.cataloguerecord_id = r.id), ''))), 'C')
    || setweight(to_tsvector('simple', unaccent(r.summary || ' ' || r.contents)), 'D')
  FROM games_cataloguerecord r
  WHERE r.id = rid
$$;

CREATE FUNCTION games_catalogue_search_refresh(rid bigint) RETURNS void
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

# Each trigger function refreshes the records a changed row belongs to.
TRIGGERS = {
    "games_cataloguerecord": (
        "INSERT OR UPDATE OR DELETE",
        """
        IF TG_OP = 'DELETE' THEN
          DELETE FROM games_cataloguesearch WHERE record_id = OLD.id;
        ELSE
          PERFORM games_catalogue_search_refresh(NEW.id);
        END IF;
        """,
    ),
    "games_othertitle": (
        "INSERT OR UPDATE OR DELETE",
        """
        IF TG_OP <> 'INSERT' THEN PERFORM games_catalogue_search_refresh(OLD.record_id); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM games_catalogue_search_refresh(NEW.record_id); END IF;
        """,
    ),
    "games_contribution": (
        "INSERT OR UPDATE OR DELETE",
        """
        IF TG_OP <> 'INSERT' THEN PERFORM games_catalogue_search_refresh(OLD.record_id); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM games_catalogue_search_refresh(NEW.record_id); END IF;
        """,
    ),
    "games_cataloguerecord_categories": (
        "INSERT OR UPDATE OR DELETE",
        """
        IF TG_OP <> 'INSERT' THEN PERFORM games_catalogue_search_refresh(OLD.cataloguerecord_id); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM games_catalogue_search_refresh(NEW.cataloguerecord_id); END IF;
        """,
    ),
    "games_person": (
        "UPDATE OF name",
        """
        PERFORM games_catalogue_search_refresh(c.record_id)
          FROM (SELECT DISTINCT record_id FROM games_contribution WHERE person_id = NEW.id) c;
        """,
    ),
    "games_publisher": (
        "UPDATE OF name",
        "PERFORM games_catalogue_search_refresh(r.id) FROM games_cataloguerecord r WHERE r.publisher_id = NEW.id;",
    ),
    "games_category": (
        "UPDATE OF code, label",
        """
        PERFORM games_catalogue_search_refresh(rc.cataloguerecord_id)
          FROM games_cataloguerecord_categories rc WHERE rc.category_id = NEW.id;
        """,
    ),
}


def _trigger_sql(table: str, events: str, body: str) -> str:
    return f"""
CREATE FUNCTION {table}_search_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  {body}
  RETURN NULL;
END $$;
CREATE TRIGGER {table}_search AFTER {events} ON {table}
  FOR EACH ROW EXECUTE FUNCTION {table}_search_trigger();
"""


FORWARD = (
    """
CREATE TABLE games_cataloguesearch (
  record_id bigint PRIMARY KEY,
  heading tsvector NOT NULL,
  document tsvector NOT NULL
);
CREATE INDEX games_cataloguesearch_document ON games_cataloguesearch USING gin (document);
"""
    + DOCUMENT
    + "".join(_trigger_sql(table, events, body) for table, (events, body) in TRIGGERS.items())
    + """
CREATE FUNCTION games_cataloguesearch_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE games_cataloguesearch;
  RETURN NULL;
END $$;
CREATE TRIGGER games_cataloguerecord_search_truncate AFTER TRUNCATE ON games_cataloguerecord
  FOR EACH STATEMENT EXECUTE FUNCTION games_cataloguesearch_truncate();
SELECT games_catalogue_search_refresh(id) FROM games_cataloguerecord;
"""
)

BACKWARD = (
    "DROP TRIGGER IF EXISTS games_cataloguerecord_search_truncate ON games_cataloguerecord;\n"
    "DROP FUNCTION IF EXISTS games_cataloguesearch_truncate();\n"
    + "".join(
        f"DROP TRIGGER IF EXISTS {table}_search ON {table};\nDROP FUNCTION IF EXISTS {table}_search_trigger();\n"
        for table in TRIGGERS
    )
    + "DROP FUNCTION IF EXISTS games_catalogue_search_refresh(bigint);\n"
    "DROP FUNCTION IF EXISTS games_catalogue_search_heading(bigint);\n"
    "DROP FUNCTION IF EXISTS games_catalogue_search_body(bigint);\n"
    "DROP TABLE IF EXISTS games_cataloguesearch;\n"
)


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [
        # CreateExtension is itself a no-op on other databases.
        CreateExtension("unaccent"),
        migrations.RunPython(forward, backward),
    ]
