from __future__ import annotations

import time
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from scoring import recompute, tasks
from scoring.models import RecomputeRun


class Command(BaseCommand):
    help = (
        "Recompute final scores from the events on the workers (in chunks), then the statistics, standings "
        "and ratings; prints a progress bar and the records whose scores or ranks changed."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", help="only records of this game slug")
        parser.add_argument("--league", type=int, help="only the records that count for this league")
        parser.add_argument("--since", type=date.fromisoformat, help="only records played on or after YYYY-MM-DD")
        parser.add_argument("--chunk-size", type=int, default=None)
        parser.add_argument("--resume", type=int, metavar="RUN",
                            help="queue again what failed or stalled run RUN had not done")
        parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait for the workers")

    def handle(self, *args, game=None, league=None, since=None, chunk_size=None, timeout=3600, resume=None,
               **options):
        started = time.monotonic()
        try:
            if resume is not None:
                run = tasks.resume_recompute(resume, on_queued=lambda: self._bar(resume, started))
                self.stdout.write(f"recomputation #{run.pk} resumed: {run.total - run.done} records left")
            else:
                run = recompute.start(game=game, league_id=league, since=since, chunk_size=chunk_size,
                                      requested_by="manage.py recompute")
                self.stdout.write(f"recomputation #{run.pk}: {run.total} records in {run.chunks.count()} chunks")
                tasks.dispatch_recompute(run, on_queued=lambda: self._bar(run.pk, started))
        except recompute.RecomputeError as error:
            raise CommandError(error.message) from None
        deadline = started + timeout
        while True:
            recompute.mark_stalled()
            current = self._bar(run.pk, started)
            if current.status == RecomputeRun.Status.FINISHED:
                break
            if current.status in (RecomputeRun.Status.FAILED, RecomputeRun.Status.STALLED):
                self.stdout.write("")
                raise CommandError(
                    f"recomputation #{run.pk} {current.status}: {current.error} (fix the cause, then: "
                    f"manage.py recompute --resume {run.pk})"
                )
            if time.monotonic() > deadline:
                raise CommandError(f"recomputation #{run.pk} not finished after {timeout:.0f} s (are workers running?)")
            time.sleep(0.5)
        self.stdout.write("")
        self._report(current, time.monotonic() - started)

    def _bar(self, run_id: int, started: float) -> RecomputeRun:
        run = RecomputeRun.objects.get(pk=run_id)
        width = 30
        share = run.done / run.total if run.total else 1.0
        elapsed = time.monotonic() - started
        eta = f"{elapsed * (1 - share) / share:.0f}s" if share else "?"
        label = "rebuilding projections" if run.status == RecomputeRun.Status.FINALIZING else f"ETA {eta}"
        line = f"\r[{'#' * int(share * width):<{width}}] {run.done}/{run.total} {share:6.1%} {label:<24}"
        self.stdout.write(line, ending="")
        self.stdout.flush()
        return run

    def _report(self, run: RecomputeRun, seconds: float) -> None:
        changes = list(run.changes.select_related("player").order_by("record_id", "seat_order"))
        rate = run.total / seconds if seconds else 0
        self.stdout.write(f"{run.total} records recomputed in {seconds:.1f} s ({rate:.0f}/s)")
        unscorable = run.unscorable()
        if unscorable:
            self.stdout.write(
                f"{len(unscorable)} records could not be scored (marked unscorable; fix the cause, then recompute "
                f"them again):"
            )
            for record_id, reason in unscorable.items():
                self.stdout.write(f"  record {record_id}: {reason}")
        if not changes:
            self.stdout.write("no final score or rank changed")
            return
        records = len({c.record_id for c in changes})
        self.stdout.write(f"{records} records changed:")
        for c in changes:
            self.stdout.write(
                f"  record {c.record_id} seat {c.seat_order} {c.player.display_name}: "
                f"score {c.score_before} -> {c.score_after}, rank {c.rank_before} -> {c.rank_after}"
            )
