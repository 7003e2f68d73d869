-- Partition the events table by record: 16 hash partitions of records_event (scaling.md, step 4).
--
-- Run it once, in one transaction, with the web nodes and workers stopped (it locks the table and
-- copies every event):
--
--     psql "$DATABASE_URL" -v ON_ERROR_STOP=1 --single-transaction -f ludolog/deploy/partition_events.sql
--     .venv/bin/python manage.py verify_events
--
-- The events stay where the application looks for them: the same table name, columns, constraint
-- names and append-only guards, so no code changes. The old table is kept, renamed
-- records_event_unpartitioned, until you drop it. tests/records/test_event_partitioning.py runs this file
-- on the test database and appends, replays, verifies and tries to change events on the result.
--
-- PostgreSQL asks that every unique constraint of a partitioned table include the partition key.
-- The two that order appends, (record, seq) and (record, idempotency key), already do. The primary
-- key becomes (id, record_id). No table points at an event's id, and id stays unique: it comes
-- from one sequence, carried on from the old table's last value.

LOCK TABLE records_event IN ACCESS EXCLUSIVE MODE;

ALTER TABLE records_event RENAME TO records_event_unpartitioned;
ALTER TABLE records_event_unpartitioned RENAME CONSTRAINT records_event_pkey TO records_event_unpartitioned_pkey;
ALTER TABLE records_event_unpartitioned RENAME CONSTRAINT event_seq_unique TO event_seq_unique_unpartitioned;
ALTER INDEX event_idempotency_key_unique RENAME TO event_idempotency_key_unique_unpartitioned;
ALTER INDEX records_event_recorded_by_id_5712ce5b RENAME TO records_event_unpartitioned_recorded_by_id;
-- The old table's guards stay on it: it is still append-only while it is kept.

CREATE TABLE records_event (
    LIKE records_event_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY
    INCLUDING STORAGE INCLUDING COMMENTS
) PARTITION BY HASH (record_id);

DO $$
BEGIN
    FOR remainder IN 0..15 LOOP
        EXECUTE format('CREATE TABLE records_event_p%s PARTITION OF records_event '
                       'FOR VALUES WITH (MODULUS 16, REMAINDER %s)', remainder, remainder);
        -- A statement-level trigger on the parent does not see a TRUNCATE of one partition.
        EXECUTE format('CREATE TRIGGER records_event_no_truncate BEFORE TRUNCATE ON records_event_p%s '
                       'FOR EACH STATEMENT EXECUTE FUNCTION records_event_refuse_change()', remainder);
    END LOOP;
END $$;

ALTER TABLE records_event ADD CONSTRAINT records_event_pkey PRIMARY KEY (id, record_id);
ALTER TABLE records_event ADD CONSTRAINT event_seq_unique UNIQUE (record_id, seq);
CREATE UNIQUE INDEX event_idempotency_key_unique ON records_event (record_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX records_event_recorded_by_id_5712ce5b ON records_event (recorded_by_id);
ALTER TABLE records_event ADD CONSTRAINT records_event_record_id_c1e99be5_fk_records_gamerecord_id
    FOREIGN KEY (record_id) REFERENCES records_gamerecord (id) DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE records_event ADD CONSTRAINT records_event_recorded_by_id_5712ce5b_fk_auth_user_id
    FOREIGN KEY (recorded_by_id) REFERENCES auth_user (id) DEFERRABLE INITIALLY DEFERRED;

-- Row triggers defined on the parent reach every partition (PostgreSQL 13 and later).
CREATE TRIGGER records_event_append_only BEFORE UPDATE OR DELETE ON records_event
    FOR EACH ROW EXECUTE FUNCTION records_event_refuse_change();
CREATE TRIGGER records_event_no_truncate BEFORE TRUNCATE ON records_event
    FOR EACH STATEMENT EXECUTE FUNCTION records_event_refuse_change();

-- Every event, ids and hashes as they were, in record order (each record's chain in one partition).
INSERT INTO records_event OVERRIDING SYSTEM VALUE
    SELECT * FROM records_event_unpartitioned ORDER BY record_id, seq;
SELECT setval(pg_get_serial_sequence('records_event', 'id'),
              (SELECT coalesce(max(id), 0) + 1 FROM records_event_unpartitioned), false);

ANALYZE records_event;
