#!/usr/bin/env bash
# Back up Ludolog's PostgreSQL database: one custom-format dump a run, the last KEEP kept.
#   ludolog/deploy/backup.sh [DATABASE_URL] [DIRECTORY]
# Defaults: $DATABASE_URL and /var/backups/ludolog. Run it daily from cron or a systemd timer as
# a role that may read every table (the application role does). The dump holds the events with
# their hash chain: `manage.py verify_events` after a restore proves the copy whole.
set -euo pipefail
url="${1:-${DATABASE_URL:?set DATABASE_URL or pass it}}"
dir="${2:-/var/backups/ludolog}"
keep="${KEEP:-14}"
mkdir -p "$dir"
file="$dir/ludolog-$(date -u +%Y%m%dT%H%M%SZ).dump"
pg_dump --format=custom --no-owner --no-privileges --file="$file.partial" "$url"
mv "$file.partial" "$file"   # a half-written dump never looks like a backup
ls -1t "$dir"/ludolog-*.dump | tail -n +"$((keep + 1))" | xargs -r rm --
echo "$file"
