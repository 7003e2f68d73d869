#!/usr/bin/env bash
# Restore a dump made by backup.sh into an EMPTY database (create it first), then check it.
#   ludolog/deploy/restore.sh DUMP TARGET_DATABASE_URL
# The restored database has the same tables, triggers and events; the script then runs
# `manage.py verify_events` against it, which recomputes every record's hash chain and fails if
# any event differs from what was recorded.
set -euo pipefail
dump="${1:?the dump file}"
target="${2:?the database URL to restore into (an empty database)}"
here="$(cd "$(dirname "$0")/../.." && pwd)"
pg_restore --no-owner --no-privileges --exit-on-error --dbname="$target" "$dump"
DATABASE_URL="$target" "${PYTHON:-$here/.venv/bin/python}" "$here/manage.py" verify_events
