"""League standings: a projection of the league's games' results, recomputed per league.

A finished record counts for a league when its game is allowed, it was played within the
league's dates, every seated player is a member, and either an organiser's latest ruling on it
says it counts, or there is no ruling and the league trusts who recorded it (:func:`trusted`):
anything else is a friendly game until approved (:func:`awaiting_approval`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from accounts.roles import Action, can, holders
from records.models import GameRecord, Seat

from . import locks
from .models import League, LeagueRuling, SeatResult, Standing

DEFAULT_TIE_BREAKERS = [League.TieBreaker.WINS, League.TieBreaker.AVERAGE_SCORE]


def league_records(league: League) -> QuerySet[GameRecord]:
    """The finished records that count for ``league``."""
    candidates = league_candidates(league)
    ruling = _latest_ruling(league)
    return candidates.annotate(ruling=ruling).filter(Q(ruling=True) | Q(ruling__isnull=True) & _trusted_q(league))


def awaiting_approval(league: League) -> QuerySet[GameRecord]:
    """The league's friendly games an organiser may approve: everything else about them fits,
    the league does not trust who recorded them, and nobody has ruled on them yet."""
    candidates = league_candidates(league).annotate(ruling=_latest_ruling(league))
    return candidates.filter(ruling__isnull=True).exclude(_trusted_q(league))


def ruled_out(league: League) -> QuerySet[GameRecord]:
    """The league's games whose latest ruling says they do not count, with its ``ruling_reason``."""
    reason = Subquery(LeagueRuling.objects.filter(league=league, record=OuterRef("pk")).order_by("-id").values("reason")[:1])
    return league_candidates(league).annotate(ruling=_latest_ruling(league), ruling_reason=reason).filter(ruling=False)


def _latest_ruling(league: League) -> Subquery:
    return Subquery(LeagueRuling.objects.filter(league=league, record=OuterRef("pk")).order_by("-id").values("counts")[:1])


def trusted_accounts(league: League) -> set[int]:
    """The accounts whose records the league counts whoever sits at them: its own organisers and
    trusted scorekeepers, and those whose role in the league's organisation says so
    (``accounts.roles``: organisers, trusted scorekeepers, administrators, the operator)."""
    return (set(league.organisers.values_list("pk", flat=True))
            | set(league.trusted_scorekeepers.values_list("pk", flat=True))
            | holders(Action.COUNT_WITHOUT_APPROVAL, _organisation_of(league)))


def _organisation_of(league: League) -> int | None:
    return league.club.organisation_id


def _trusted_q(league: League) -> Q:
    seated_author = Seat.objects.filter(record=OuterRef("pk"), player__user_id=OuterRef("created_by_id"))
    return Q(created_by__isnull=True) | Q(created_by__in=trusted_accounts(league)) | Exists(seated_author)


def trusted(league: League, record: GameRecord, seated_accounts: set[int | None]) -> bool:
    """Whether ``league`` counts ``record`` without a ruling, by who recorded it: the operator's
    command line (no account), an account :func:`trusted_accounts` names, or the account of a
    player seated (``seated_accounts``, the seated players' user ids). The Python form of
    :func:`_trusted_q` for one record; a test holds the two equal."""
    author = record.created_by
    return author is None or author.pk in trusted_accounts(league) or author.pk in seated_accounts


def may_rule(user: AbstractBaseUser | AnonymousUser, league: League) -> bool:
    """The league's own organisers approve games or rule them out, and those who run the leagues
    of its organisation (``accounts.roles``)."""
    if not user.is_authenticated:
        return False
    return can(user, Action.RUN_LEAGUES, league.club.organisation) or league.organisers.filter(pk=user.pk).exists()


def league_candidates(league: League) -> QuerySet[GameRecord]:
    """The finished records that fit the league whoever recorded them: its games, its dates,
    only its members seated; never a game its players called friendly (``is_friendly``), nor a
    cooperative one."""
    member_ids = list(league.memberships.values_list("player_id", flat=True))
    records = GameRecord.objects.filter(
        # A cooperative game has nobody beating anybody: nothing to stand in a league for.
        status=GameRecord.Status.FINISHED, is_friendly=False, is_cooperative=False, played_on__gte=league.starts_on,
        played_on__lte=league.ends_on,
    )
    if league.game_slugs:
        records = records.filter(game_slug__in=league.game_slugs)
    if league.record_kinds == League.RecordKinds.ENGINE:
        records = records.filter(result_only=False)
    # A member seated and nobody seated who is not a member: the candidates are the members'
    # own games (the seats' player index), then an anti-join, instead of counting the seats of
    # every record of the season (every club's games in those dates). The candidates are read
    # first, as a list: as a subquery, a page of the newest league games walked the season's
    # records newest first until it met 20 of them (12,000 records at 10 million events).
    members_games = sorted(set(Seat.objects.filter(player__in=member_ids).order_by().values_list("record_id", flat=True)))
    others = Seat.objects.filter(record=OuterRef("pk")).exclude(player__in=member_ids)
    return records.filter(pk__in=members_games).filter(~Exists(others))


def leagues_of(record: GameRecord) -> list[League]:
    """The leagues a finished record counts for."""
    seated_accounts = set(record.seats.exclude(player__user=None).values_list("player__user_id", flat=True))
    rulings: dict[int, bool] = {}
    for league_id, counts in LeagueRuling.objects.filter(record=record).order_by("id").values_list("league_id", "counts"):
        rulings[league_id] = counts  # the latest wins
    return [
        league for league in leagues_fitting(record)
        if rulings.get(league.pk, None) is True
        or (league.pk not in rulings and trusted(league, record, seated_accounts))
    ]


def leagues_fitting(record: GameRecord) -> list[League]:
    """The leagues whose games, dates and members ``record`` fits, counted or not: the Python
    form of :func:`league_candidates` for one record, check for check (a test holds the two
    equal over a table of cases)."""
    if record.status != GameRecord.Status.FINISHED or record.is_friendly or record.is_cooperative:
        return []
    seated = set(record.seats.values_list("player_id", flat=True))
    if not seated:
        return []
    leagues = League.objects.filter(starts_on__lte=record.played_on, ends_on__gte=record.played_on)
    return [
        league for league in leagues.prefetch_related("memberships")
        if not (league.game_slugs and record.game_slug not in league.game_slugs)
        and not (league.record_kinds == League.RecordKinds.ENGINE and record.result_only)
        and seated <= {m.player_id for m in league.memberships.all()}
    ]


def league_points(league: League, players: int, rank: int) -> float:
    table = (league.points_table or {}).get(str(players)) or []
    return float(table[rank - 1]) if 0 < rank <= len(table) else 0.0


@dataclass
class Line:
    player_id: int
    games: int = 0
    wins: int = 0
    points: float = 0.0
    ranks: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)

    @property
    def average_rank(self) -> float | None:
        return round(sum(self.ranks) / len(self.ranks), 6) if self.ranks else None

    @property
    def average_score(self) -> float | None:
        return round(sum(self.scores) / len(self.scores), 6) if self.scores else None


def _sort_key(league: League, line: Line) -> tuple:
    """Smaller sorts first: the main criterion, then each tie-breaker in the league's order."""
    if league.scoring_system == League.ScoringSystem.AVERAGE_RANK:
        key: list[float] = [line.average_rank]
    else:
        key = [-line.points]
    for breaker in league.tie_breakers or DEFAULT_TIE_BREAKERS:
        key.append(-line.wins if breaker == League.TieBreaker.WINS else -(line.average_score or 0))
    return tuple(key)


def table(league: League, records: QuerySet[GameRecord] | None = None) -> list[Standing]:
    """The league's standings as unsaved rows, in order: members who have played, ranked or not;
    over the games that count for the league, or over ``records`` only (a reader's visible ones)."""
    lines = {player_id: Line(player_id) for player_id in league.memberships.values_list("player_id", flat=True)}
    counted = league_records(league) if records is None else records
    results = SeatResult.objects.filter(record__in=counted.values("pk")).values(
        "record_id", "player_id", "score", "rank"
    )
    by_record: dict[int, list[dict]] = defaultdict(list)
    for row in results:
        by_record[row["record_id"]].append(row)
    for rows in by_record.values():
        for row in rows:
            line = lines[row["player_id"]]
            line.games += 1
            line.wins += row["rank"] == 1
            line.points += league_points(league, len(rows), row["rank"])
            line.ranks.append(row["rank"])
            if row["score"] is not None:  # a result by places only
                line.scores.append(row["score"])
    played = [line for line in lines.values() if line.games]
    needed = max(1, league.min_games)
    ranked = sorted((line for line in played if line.games >= needed), key=lambda l: _sort_key(league, l))
    unranked = [line for line in played if line.games < needed]
    rows: list[Standing] = []
    for index, line in enumerate(ranked):
        previous = rows[-1] if rows else None
        same = previous is not None and _sort_key(league, ranked[index - 1]) == _sort_key(league, line)
        rows.append(_row(league, line, previous.position if same else index + 1))
    rows.extend(_row(league, line, None) for line in sorted(unranked, key=lambda l: (-l.games, l.player_id)))
    return rows


def _row(league: League, line: Line, position: int | None) -> Standing:
    return Standing(
        league=league, player_id=line.player_id, position=position, games=line.games, wins=line.wins,
        points=line.points, average_rank=line.average_rank, average_score=line.average_score,
    )


@transaction.atomic
def refresh(league: League) -> None:
    locks.hold(f"league:{league.pk}")
    Standing.objects.filter(league=league).delete()
    Standing.objects.bulk_create(table(league))


def rebuild() -> None:
    for league in League.objects.all():
        refresh(league)
