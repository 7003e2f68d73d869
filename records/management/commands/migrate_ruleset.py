"""``migrate_ruleset GAME --to VERSION [--variant NAME …] [--dry-run] [--record N …] [--csv FILE]``:
replay every record of a game under another ruleset, report each as identical, changed or
illegal, and (without ``--dry-run``) move the identical and changed ones (see records.rulesets)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from records.errors import RecordError
from records.rulesets import CHANGED, ILLEGAL, migrate_ruleset


class Command(BaseCommand):
    help = ("Replay a game's records under another ruleset (a version or its key, e.g. 2) and report per record "
            "and in total identical / changed / illegal; without --dry-run move the identical and changed ones.")

    def add_arguments(self, parser):
        parser.add_argument("game", help="the game's engine slug, e.g. stone-age")
        parser.add_argument("--to", required=True, help="the target ruleset: its version or its key (2)")
        parser.add_argument("--variant", action="append", dest="variants", metavar="NAME",
                            help="play this variant under the target ruleset (repeat for several; "
                                 "without it each record keeps its own variants)")
        parser.add_argument("--no-variants", action="store_true", help="play no variant under the target ruleset")
        parser.add_argument("--dry-run", action="store_true", help="report only; change nothing")
        parser.add_argument("--record", action="append", type=int, dest="records", metavar="N",
                            help="only this record (repeat for several)")
        parser.add_argument("--csv", type=Path, help="also write the report to this CSV file")

    def handle(self, *args, game: str, to: str, variants, no_variants: bool, dry_run: bool, records, csv, **options):
        try:
            report = migrate_ruleset(game, to, variants=[] if no_variants else variants, dry_run=dry_run,
                                     record_ids=records)
        except RecordError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"{game} to {report.to_version}" + (" (dry run: nothing changed)" if dry_run else ""))
        for line in report.records:
            text = f"  #{line.record_id} {line.outcome}"
            if line.outcome == CHANGED:
                pairs = ", ".join(f"{name} {before} → {after}" for name, before, after
                                  in zip(line.players, line.scores_before, line.scores_after))
                text += f": {pairs}" + (f" (positions differ from event {line.seq})" if line.seq else "")
            elif line.outcome == ILLEGAL:
                text += f": event {line.seq} {line.reason} ({line.detail})" if line.seq else f": {line.reason} ({line.detail})"
            self.stdout.write(text)
        counts = report.counts
        self.stdout.write("total: " + ", ".join(f"{counts[name]} {name}" for name in counts))
        if not dry_run:
            self.stdout.write(f"moved: {report.moved} record(s); the illegal ones stay on their ruleset")
        if csv is not None:
            csv.write_text(report.as_csv(), encoding="utf-8")
            self.stdout.write(f"report written to {csv}")
