"""How scoring hears about finished games without records importing scoring."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from records import after_response
from records.signals import players_merging, record_finished, records_finished, ruleset_moved

from .models import League, LeagueMembership, LeagueRuling

logger = logging.getLogger(__name__)


def queue_scoring(sender, record_id: int, **kwargs) -> None:
    """Sent once the finishing transaction commits. With a broker the task is queued now; in
    eager mode (no broker) the task would run right here, inside the append: it runs after the
    response instead (records.after_response), still in this process."""
    from .tasks import score_record, scoring_queue

    def queue() -> None:
        try:
            score_record.apply_async((record_id,), queue=scoring_queue())
        except Exception:  # the broker may be down; the periodic sweep scores the record later
            logger.exception("could not queue scoring of record %s; the sweep will pick it up", record_id)

    if score_record.app.conf.task_always_eager:
        after_response.defer(queue)
    else:
        queue()


SCORED_TOGETHER = 50
"""Records a task scores one after the other when many finished together (a bulk import)."""


def queue_scoring_many(sender, record_ids: list[int], **kwargs) -> None:
    """Many records finished together: their scoring queued in batches (one task each), not a
    task a record; in eager mode, after the response, as for one record."""
    from .tasks import score_records, scoring_queue

    def queue() -> None:
        for start in range(0, len(record_ids), SCORED_TOGETHER):
            chunk = list(record_ids[start:start + SCORED_TOGETHER])
            try:
                score_records.apply_async((chunk,), queue=scoring_queue())
            except Exception:  # the broker may be down; the periodic sweep scores them later
                logger.exception("could not queue scoring of records %s…; the sweep will pick them up", chunk[:3])

    if score_records.app.conf.task_always_eager:
        after_response.defer(queue)
    else:
        queue()


class _LeagueRefresh:
    """The on-commit callback that queues a league's refresh; equal for the same league, so that
    one transaction touching many memberships queues it once."""

    def __init__(self, league_id: int, club_id: int) -> None:
        self.key = (league_id, club_id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _LeagueRefresh) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __call__(self) -> None:
        from .tasks import refresh_league, scoring_queue

        try:
            refresh_league.apply_async(self.key, queue=scoring_queue())
        except Exception:  # the broker may be down: the league's recompute action catches up
            logger.exception("could not queue the refresh of league %s", self.key[0])


def queue_league_refresh(league_id: int, club_id: int) -> None:
    """Once the change is committed: the league's standings and its club's ratings."""
    refresh = _LeagueRefresh(league_id, club_id)
    connection = transaction.get_connection()
    # Django drops the callbacks of a transaction or savepoint that rolls back, so a refresh
    # found pending here is one that will run (run_on_commit holds (savepoints, func, robust)).
    if any(pending[1] == refresh for pending in connection.run_on_commit):
        return
    transaction.on_commit(refresh)


def league_changed(sender, instance: League, **kwargs) -> None:
    # After a delete the id is still set (Django clears it once the signals are sent); the task
    # finds no league then, and replays the club's ratings alone.
    queue_league_refresh(instance.pk, instance.club_id)


def membership_changed(sender, instance: LeagueMembership, **kwargs) -> None:
    league = League.objects.filter(pk=instance.league_id).values_list("pk", "club_id").first()
    if league is not None:
        queue_league_refresh(*league)


def ruling_made(sender, instance: LeagueRuling, created: bool, **kwargs) -> None:
    league = League.objects.filter(pk=instance.league_id).values_list("pk", "club_id").first()
    if league is not None:
        queue_league_refresh(*league)


def trust_changed(sender, instance: League, action: str, reverse: bool, pk_set: set | None, **kwargs) -> None:
    """Organisers or trusted scorekeepers added or removed: the games they recorded count, or no
    longer do, for the leagues concerned."""
    if not action.startswith("post_"):
        return
    if not reverse:
        queue_league_refresh(instance.pk, instance.club_id)
        return
    # From the user's side (user.organised_leagues.add(league)): pk_set holds the leagues.
    leagues = League.objects.filter(pk__in=pk_set) if pk_set else League.objects.none()
    for league_id, club_id in leagues.values_list("pk", "club_id"):
        queue_league_refresh(league_id, club_id)


def players_merged(sender, keep_id: int, duplicate_id: int, record_ids: list[int], **kwargs) -> None:
    """Inside the merge: what scoring holds of the duplicate becomes the kept player's; once
    committed, the kept player's statistics, standings and ratings are worked out again."""
    from .models import RecomputeChange, SeatResult

    SeatResult.objects.filter(player_id=duplicate_id).update(player_id=keep_id)
    RecomputeChange.objects.filter(player_id=duplicate_id).update(player_id=keep_id)
    kept_leagues = set(LeagueMembership.objects.filter(player_id=keep_id).values_list("league_id", flat=True))
    LeagueMembership.objects.filter(player_id=duplicate_id).exclude(league_id__in=kept_leagues).update(
        player_id=keep_id)

    def queue() -> None:
        from .tasks import refresh_after_merge, scoring_queue

        try:
            refresh_after_merge.apply_async((keep_id, record_ids), queue=scoring_queue())
        except Exception:  # the broker may be down: rebuild_projections catches up
            logger.exception("could not queue the projections of merged player %s", keep_id)

    transaction.on_commit(queue)


def connect() -> None:
    players_merging.connect(players_merged, dispatch_uid="scoring.players_merged")
    record_finished.connect(queue_scoring, dispatch_uid="scoring.queue_scoring")
    records_finished.connect(queue_scoring_many, dispatch_uid="scoring.queue_scoring_many")
    # A record judged by other rules scores again: its results, standings and ratings follow.
    ruleset_moved.connect(queue_scoring, dispatch_uid="scoring.queue_scoring_after_ruleset_move")
    post_save.connect(ruling_made, sender=LeagueRuling, dispatch_uid="scoring.ruling_made")
    for through in (League.organisers.through, League.trusted_scorekeepers.through):
        m2m_changed.connect(trust_changed, sender=through, dispatch_uid=f"scoring.trust_changed.{through.__name__}")
    for signal in (post_save, post_delete):
        signal.connect(league_changed, sender=League, dispatch_uid=f"scoring.league_changed.{signal is post_save}")
        signal.connect(
            membership_changed, sender=LeagueMembership, dispatch_uid=f"scoring.membership_changed.{signal is post_save}"
        )
