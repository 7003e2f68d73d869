"""Reads of the scoring projections, for the API, the pages and the admin.

Who may read a record is defined once, in ``records.selectors`` (:func:`visible_records`: public
records, and private ones the user keeps, sits at or, as staff, reads them all). Every read
model here follows the records:

- A row that comes from one record (a seat's result, a rating change, a line of a player's
  results) is shown only with a visible record.
- A figure built from several records (player and game statistics, league standings, ratings) is
  shown as stored when every record behind it is visible to the reader; otherwise it is worked
  out for that reader from the visible records alone, as if the others had never been played.
  The stored projections keep every game; a reader who may not see one cannot tell from what
  they are shown that it exists. Since visibility is read at each request, making a game private
  or public again needs no recomputation.

Lists whose order does not depend on the figures (statistics, rating history) are filtered and
paged in the database, then each page goes through the matching ``…_seen_by`` function; lists
ordered by the figures (ratings, standings) come back whole, already as the reader sees them.

The statistics are an organisation's (``organisation``: its games only, as its club's and
library's pages show them) or the installation's (``None``); the games hidden from a reader are
then those of the organisation only.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models import Count, Exists, F, Max, OuterRef, Q, QuerySet
from django.db.models.functions import TruncMonth

from accounts.models import Organisation
from games.models import CatalogueRecord, Copy
from records.models import GameRecord, Player
from records.selectors import (  # noqa: F401  (visible_players: the pages read it from here too)
    PUBLIC, hidden_records, only_visible, public_sql, sees_everything, visible_players, visible_records,
)

from . import figures
from . import ratings as rating_scopes
from . import standings as league_tables
from . import statistics
from .models import (
    Club, CopyUsage, GameStatistics, League, LeagueRuling, PlayerStatistics, Rating, RatingChange, RecomputeRun, ResultImpact,
    RulesetMoveImpact, ScoredRecord, SeatResult, Standing,
)

User = AbstractBaseUser | AnonymousUser


# --- Records, results, players ------------------------------------------------------------------------


def visible_game_slugs(user: User) -> list[str]:
    """The games the user may see records of, sorted: each found by one step down the index on
    ``game_slug`` (a recursive query) rather than by a DISTINCT over every record, which grows
    with the store (25 ms at 10 million events); the private records the user may see add theirs."""
    from django.db import connection

    table, slug = (connection.ops.quote_name(name) for name in (
        GameRecord._meta.db_table, GameRecord._meta.get_field("game_slug").column))
    # The public records' condition, compiled from records.selectors' (the one definition).
    public, params = ("", ()) if sees_everything(user) else public_sql()
    public_only = f" AND {public}" if public else ""
    sql = (f"WITH RECURSIVE slugs(slug) AS (SELECT min({slug}) FROM {table} WHERE 1 = 1{public_only}"
           f" UNION ALL SELECT (SELECT min({slug}) FROM {table} WHERE {slug} > slugs.slug{public_only})"
           f" FROM slugs WHERE slugs.slug IS NOT NULL) SELECT slug FROM slugs WHERE slug IS NOT NULL")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *params])
        slugs = {row[0] for row in cursor.fetchall()}
    if user.is_authenticated and not sees_everything(user):
        slugs.update(visible_records(user).exclude(PUBLIC).order_by().values_list("game_slug", flat=True))
    return sorted(slugs)


def visible_results(user: User) -> QuerySet[SeatResult]:
    """Final results of the seats at records the user may see."""
    results = SeatResult.objects.all()
    if sees_everything(user):
        return results
    return results.filter(record__in=visible_records(user).values("pk"))


def played_games(user: User, player: Player) -> list[figures.Played]:
    """Every scored game of ``player`` that ``user`` may see, with each seat's order and rank, for
    the figures of :mod:`scoring.figures` (a game the reader may not see is never counted)."""
    seen = visible_results(user)
    rows = (seen.filter(record_id__in=seen.filter(player=player).values("record_id"))
            .values_list("record_id", "record__game_slug", "record__played_on", "player_id", "seat__seat_order", "rank"))
    return figures.games_of(list(rows))


def record_results(record: GameRecord) -> QuerySet[SeatResult]:
    """One record's results; the caller has checked that the record is visible."""
    return SeatResult.objects.filter(record=record).select_related("player", "seat").order_by("seat__seat_order")


def record_impacts(record: GameRecord, user: User) -> list[tuple[ResultImpact, list[dict]]]:
    """The record's corrections' impacts, oldest first, each with the lines of players ``user``
    may see (a player known only from hidden games is left out)."""
    impacts = list(ResultImpact.objects.filter(record=record).order_by("seq"))
    ids = {line.get("player_id") for impact in impacts for line in impact.changes}
    seen = set(visible_players(user).filter(pk__in=ids).values_list("pk", flat=True))
    return [(impact, [line for line in impact.changes if line.get("player_id") in seen]) for impact in impacts]


def ruleset_move_impacts(record: GameRecord, user: User) -> list[tuple[RulesetMoveImpact, list[dict]]]:
    """What each move of the record to other rules moved, oldest first, with the lines of players
    ``user`` may see; the caller has checked that the record is visible."""
    found = list(RulesetMoveImpact.objects.filter(move__record=record).select_related("move").order_by("move_id"))
    seen = _players_seen(user, [entry.changes for entry in found])
    return [(entry, [line for line in entry.changes if line.get("player_id") in seen]) for entry in found]


def ruling_impacts(user: User, league: League, limit: int) -> list[tuple[LeagueRuling, list[dict]]]:
    """The league's latest rulings on games ``user`` may see, newest first, each with the lines
    of what it moved that name players ``user`` may see."""
    found = list(league_rulings(user, league).filter(impact__isnull=False).select_related("impact")
                 .order_by("-id")[:limit])
    seen = _players_seen(user, [ruling.impact.changes for ruling in found])
    return [(ruling, [line for line in ruling.impact.changes if line.get("player_id") in seen]) for ruling in found]


def impact_lines_seen(user: User, changes: list[dict]) -> list[dict]:
    """The lines of an impact that name players ``user`` may see."""
    seen = _players_seen(user, [changes])
    return [line for line in changes if line.get("player_id") in seen]


def _players_seen(user: User, impacts: list[list[dict]]) -> set[int]:
    ids = {line.get("player_id") for changes in impacts for line in changes}
    return set(visible_players(user).filter(pk__in=ids).values_list("pk", flat=True))


def clubs() -> QuerySet[Club]:
    return Club.objects.all()


def leagues() -> QuerySet[League]:
    return League.objects.select_related("club")


def recompute_runs() -> QuerySet[RecomputeRun]:
    return RecomputeRun.objects.all()


# --- Player statistics --------------------------------------------------------------------------------


def _of(queryset: QuerySet, organisation: Organisation | int | None, path: str = "organisation") -> QuerySet:
    """The rows of ``queryset`` of ``organisation``'s games (all of them for ``None``)."""
    return queryset if organisation is None else queryset.filter(**{path: organisation})


def player_statistics(user: User, organisation: Organisation | int | None = None) -> QuerySet[PlayerStatistics]:
    """Stored rows with at least one game the user may see behind them, to filter and page; read
    each page through :func:`player_statistics_seen_by`."""
    rows = PlayerStatistics.objects.of(organisation).select_related("player")
    if sees_everything(user):
        return rows
    seen = _of(visible_results(user), organisation, "record__organisation").filter(player=OuterRef("player_id"))
    return rows.filter(
        (Q(game_slug=PlayerStatistics.ALL_GAMES) & Exists(seen))
        | Exists(seen.filter(record__game_slug=OuterRef("game_slug")))
    )


def player_statistics_seen_by(user: User, rows: Iterable[PlayerStatistics],
                              organisation: Organisation | int | None = None) -> list[PlayerStatistics]:
    """The rows' figures over the games the user may see (unsaved rows where that differs)."""
    rows = list(rows)
    if sees_everything(user) or not rows:
        return rows
    concerned = set(
        SeatResult.objects.filter(
            player__in={row.player_id for row in rows},
            record__in=_of(hidden_records(user), organisation).values("pk"),
        ).values_list("player_id", flat=True)
    )
    if not concerned:
        return rows
    seen_results = _of(visible_results(user), organisation, "record__organisation").filter(player__in=concerned)
    if all(row.game_slug != PlayerStatistics.ALL_GAMES for row in rows):
        # Rows of some games only (a game's page): those games' results, not each player's all.
        seen_results = seen_results.filter(record__game_slug__in={row.game_slug for row in rows})
    results: dict[int, list[dict]] = defaultdict(list)
    for line in (
        seen_results.values("player_id", "score", "rank", "breakdown", "record__game_slug").order_by("pk")
    ):
        results[line["player_id"]].append(line)
    scope = getattr(organisation, "pk", organisation)
    refigured = {
        (row.player_id, row.game_slug): row
        for player_id in concerned for row in statistics._player_rows(player_id, results[player_id], scope)
    }
    seen = []
    for row in rows:
        if row.player_id in concerned:
            row, player = refigured.get((row.player_id, row.game_slug)), row.player
            if row is None:
                continue
            row.player = player
        seen.append(row)
    return seen


# --- Game statistics ----------------------------------------------------------------------------------


def game_statistics(user: User, organisation: Organisation | int | None = None) -> QuerySet[GameStatistics]:
    """Stored rows of the games the user may see at least one scored record of, to filter and
    page; read each page through :func:`game_statistics_seen_by`."""
    rows = GameStatistics.objects.of(organisation)
    if sees_everything(user):
        return rows
    return rows.filter(Exists(_of(ScoredRecord.objects, organisation).filter(
        game_slug=OuterRef("game_slug"), record__in=visible_records(user).values("pk")
    )))


def game_statistics_seen_by(user: User, rows: Iterable[GameStatistics],
                            organisation: Organisation | int | None = None) -> list[GameStatistics]:
    rows = list(rows)
    if sees_everything(user) or not rows:
        return rows
    return statistics.game_rows_without(rows, _of(hidden_records(user), organisation))


SEEN_FIGURES_KEPT = 24 * 3600
"""Seconds a reader's figures stay in the cache (their key changes with what they depend on)."""


# --- The club's figures -------------------------------------------------------------------------------
# Each is the stored projection less the games hidden from the reader (private ones, few): a pass
# over those games, never over every record, so that a club of 50,000 results answers at once.


def games_played(user: User, organisation: Organisation | int | None = None) -> list[GameStatistics]:
    """Every game's figures over the games the user may see, most played first.

    A reader who may not see every game gets the stored figures less those games, kept in the
    cache under what they depend on: the hidden games, and the stored rows' last id and number
    (a game's figures are written anew, under a new id, whenever one of its games is scored,
    corrected or moved; every anonymous visitor shares the one entry)."""
    stored = GameStatistics.objects.of(organisation)
    if sees_everything(user):
        rows = list(stored)
    else:
        hidden = _hidden_ids(user, organisation)
        marker = stored.aggregate(last=Max("pk"), count=Count("pk"))
        scope = getattr(organisation, "pk", organisation)
        rows = _kept(["games-played", scope, marker["last"], marker["count"], hidden], lambda: (
            statistics.game_rows_without(stored, _of(hidden_records(user), organisation)) if hidden
            else list(stored)))
    return sorted(rows, key=lambda row: (-row.games, row.game_slug))


@dataclass(frozen=True)
class PlayerTally:
    player: Player
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def most_active_players(user: User, limit: int,
                        organisation: Organisation | int | None = None) -> tuple[list[PlayerTally], int]:
    """The ``limit`` players with the most games the user may see (games and wins over every
    game), and how many players have played at least one such game."""
    taken = {row["player_id"]: row for row in visible_results_hidden_tally(user, organisation)}
    stored = PlayerStatistics.objects.of(organisation).filter(game_slug=PlayerStatistics.ALL_GAMES)
    # Only a player with a hidden game can fall: the top ``limit`` seen lie within the stored
    # top ``limit`` plus one per such player.
    rows = stored.select_related("player").order_by("-games", "player__display_name")[:limit + len(taken)]
    tallies = []
    for row in rows:
        less = taken.get(row.player_id, {"games": 0, "wins": 0})
        if row.games - less["games"] > 0:
            tallies.append(PlayerTally(row.player, row.games - less["games"], row.wins - less["wins"]))
    tallies.sort(key=lambda tally: (-tally.games, tally.player.display_name))
    gone = sum(1 for row in stored.filter(player__in=list(taken)).values("player_id", "games")
               if row["games"] <= taken[row["player_id"]]["games"])
    return tallies[:limit], stored.count() - gone


def visible_results_hidden_tally(user: User, organisation: Organisation | int | None = None) -> list[dict]:
    """Per player, the games and wins among the records hidden from the user."""
    if sees_everything(user):
        return []
    hidden = _of(hidden_records(user), organisation)
    return list(SeatResult.objects.filter(record__in=hidden.values("pk")).values("player_id")
                .annotate(games=Count("pk"), wins=Count("pk", filter=Q(rank=1))).order_by())


def plays_by_month(user: User, since: date, organisation: Organisation | int | None = None) -> dict[date, int]:
    """Scored games the user may see per month (its first day) from ``since`` on."""
    def per_month(scored: QuerySet[ScoredRecord]) -> Counter[date]:
        return Counter({row["month"]: row["plays"] for row in scored.filter(played_on__gte=since)
                        .annotate(month=TruncMonth("played_on")).values("month")
                        .annotate(plays=Count("pk")).order_by()})

    months = per_month(_of(ScoredRecord.objects.all(), organisation))
    if not sees_everything(user):
        months.subtract(per_month(_of(ScoredRecord.objects.all(), organisation).filter(
            record__in=hidden_records(user).values("pk"))))
    return {month: plays for month, plays in sorted(months.items()) if plays > 0}


def most_played_copies(user: User, limit: int, game_slug: str | None = None,
                       organisation: Organisation | int | None = None) -> list[tuple[Copy, int]]:
    """The copies the user's visible games were played with most, with how many times (of
    ``organisation``'s games: a few hundred, read directly)."""
    scored = ScoredRecord.objects.exclude(copy=None)
    if organisation is not None:
        scored = scored.filter(organisation=organisation)
        if game_slug is not None:
            scored = scored.filter(game_slug=game_slug)
        counts = Counter({row["copy"]: row["plays"] for row in only_scored_visible(scored, user)
                          .values("copy").annotate(plays=Count("pk")).order_by()})
    elif game_slug is not None:
        # One game's records: few, read directly.
        counts = Counter({row["copy"]: row["plays"] for row in only_scored_visible(scored.filter(game_slug=game_slug), user)
                          .values("copy").annotate(plays=Count("pk")).order_by()})
    else:
        counts = Counter({row.copy_id: row.times_played for row in CopyUsage.objects.filter(times_played__gt=0)})
        if not sees_everything(user):
            counts.subtract({row["copy"]: row["plays"] for row in scored.filter(
                record__in=hidden_records(user).values("pk")).values("copy").annotate(plays=Count("pk")).order_by()})
    top = sorted(((plays, pk) for pk, plays in counts.items() if plays > 0), key=lambda item: (-item[0], item[1]))[:limit]
    copies = Copy.objects.select_related("record").in_bulk([pk for _plays, pk in top])
    return [(copies[pk], plays) for plays, pk in top if pk in copies]


def catalogue_record_of(game_slug: str) -> CatalogueRecord | None:
    """The catalogue record of a game: the one naming its engine, else the one its latest records
    name (a game logged only as results)."""
    found = CatalogueRecord.objects.filter(engine_slug=game_slug).order_by("pk").first()
    if found is not None:
        return found
    scored = (ScoredRecord.objects.filter(game_slug=game_slug).exclude(catalogue_record=None)
              .select_related("catalogue_record").order_by("-played_on", "-record_id").first())
    return scored.catalogue_record if scored else None


def _hidden_ids(user: User, organisation: Organisation | int | None = None) -> list[int]:
    """The ids of the records (of ``organisation``) hidden from ``user``, in order: part of the
    key of what is kept."""
    return sorted(_of(hidden_records(user), organisation).order_by().values_list("pk", flat=True))


def _kept(parts: list, compute):
    """``compute()``, kept in the cache under a key made of ``parts`` (all it depends on)."""
    key = "figures:" + hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, SEEN_FIGURES_KEPT)
    return found


def game_players(user: User, game_slug: str, limit: int,
                 organisation: Organisation | int | None = None) -> list[PlayerStatistics]:
    """The ``limit`` players with the most games of one game, with their figures over the games
    the user may see. Worked out again without the hidden games once, then kept under the game's
    statistics rows' last id and number (a player's rows are written anew whenever one of their
    games is scored) and the hidden games; the players themselves are read fresh (a new name
    shows at once)."""
    stored = PlayerStatistics.objects.of(organisation).filter(game_slug=game_slug)
    if sees_everything(user):
        return list(stored.select_related("player").order_by("-games", "player__display_name")[:limit])
    hidden = _hidden_ids(user, organisation)
    marker = stored.aggregate(last=Max("pk"), count=Count("pk"))
    scope = getattr(organisation, "pk", organisation)

    def compute() -> list[dict]:
        rows = player_statistics_seen_by(user, player_statistics(user, organisation).filter(game_slug=game_slug)
                                         .order_by("-games", "player__display_name")[:limit + len(hidden)],
                                         organisation)
        return [{name: getattr(row, name) for name in (
            "player_id", "game_slug", "games", "wins", "win_rate", "average_score", "best_score", "average_by_source")}
            for row in rows]

    lines = _kept(["game-players", scope, game_slug, limit, marker["last"], marker["count"], hidden], compute)
    # Each line comes from a game the user may see: its player is one they may know of.
    players = Player.objects.in_bulk([line["player_id"] for line in lines])
    rows = [PlayerStatistics(**line, player=players[line["player_id"]]) for line in lines if line["player_id"] in players]
    rows.sort(key=lambda row: (-row.games, row.player.display_name))
    return rows[:limit]


def game_ratings(user: User, game_slug: str, limit: int, club: Club | None = None) -> list[Rating]:
    """The game's ``limit`` best ratings over every club (or in ``club``), over the games the user
    may see; kept like :func:`game_players`, under the game's rating changes' last id and number."""
    in_scope = {"club": club} if club is not None else {"club__isnull": True}
    stored = Rating.objects.filter(game_slug=game_slug, **in_scope)
    if sees_everything(user):
        return list(stored.select_related("player").order_by("-ordinal", "player__display_name")[:limit])
    hidden = _hidden_ids(user)
    marker = RatingChange.objects.filter(game_slug=game_slug, **in_scope).aggregate(
        last=Max("pk"), count=Count("pk"))

    def compute() -> list[dict]:
        rows = sorted(ratings_seen_by(user, ratings(user).filter(game_slug=game_slug, **in_scope)),
                      key=lambda row: -row.ordinal)[:limit]
        return [{name: getattr(row, name) for name in (
            "player_id", "game_slug", "mu", "sigma", "ordinal", "games", "last_played")} for row in rows]

    lines = _kept(["game-ratings", club.pk if club else None, game_slug, limit, marker["last"], marker["count"],
                   hidden], compute)
    players = Player.objects.in_bulk([line["player_id"] for line in lines])  # rated in a game the user may see
    return [Rating(**line, player=players[line["player_id"]]) for line in lines if line["player_id"] in players]


def only_scored_visible(scored: QuerySet[ScoredRecord], user: User) -> QuerySet[ScoredRecord]:
    return scored if sees_everything(user) else scored.filter(record__in=visible_records(user).values("pk"))


# --- League standings ---------------------------------------------------------------------------------


def league_rulings(user: User, league: League) -> QuerySet[LeagueRuling]:
    """The league's rulings on the games ``user`` may see, oldest first."""
    return (LeagueRuling.objects.filter(league=league, record__in=visible_records(user).values("pk"))
            .select_related("ruled_by").order_by("id"))


def awaiting_approval(user: User, league: League) -> QuerySet[GameRecord]:
    """The league's friendly games awaiting an organiser, those ``user`` may see, newest first."""
    return only_visible(league_tables.awaiting_approval(league), user).order_by("-played_on", "-id")


def league_standings(user: User, league: League) -> Sequence[Standing]:
    """The league's table as the user may see it: the stored one, or, when a game the user may not
    see counts for the league, the table of the league's visible games (unsaved rows)."""
    rows = Standing.objects.filter(league=league).select_related("player", "league")
    if sees_everything(user):
        return rows
    counted = league_tables.league_records(league)
    if not counted.filter(pk__in=hidden_records(user).values("pk")).exists():
        return rows
    return _table(league, only_visible(counted, user))


def _table(league: League, records: QuerySet[GameRecord]) -> list[Standing]:
    """``standings.table`` over the given records only, each row with its player, ordered as the
    stored table is: by position, the unranked last, then by name."""
    table = league_tables.table(league, records)
    players = Player.objects.in_bulk([row.player_id for row in table])
    for row in table:
        row.player = players[row.player_id]
    return sorted(table, key=lambda row: (row.position is None, row.position or 0, row.player.display_name))


# --- Ratings ------------------------------------------------------------------------------------------

Scope = tuple[str, int | None]
"""A rating scope: the game, and the club (None: overall)."""


def ratings(user: User) -> QuerySet[Rating]:
    """Stored ratings with at least one game the user may see behind them, best first within each
    game and scope; read them through :func:`ratings_seen_by`."""
    rows = Rating.objects.select_related("player", "club").order_by(
        "game_slug", F("club_id").asc(nulls_first=True), "-ordinal", "player_id"
    )
    if sees_everything(user):
        return rows
    seen = RatingChange.objects.filter(
        player=OuterRef("player_id"), game_slug=OuterRef("game_slug"), record__in=visible_records(user).values("pk")
    )
    return rows.filter(
        (Q(club__isnull=True) & Exists(seen.filter(club__isnull=True))) | Exists(seen.filter(club=OuterRef("club_id")))
    )


def ratings_seen_by(user: User, rows: QuerySet[Rating]) -> Sequence[Rating]:
    """The (filtered) ratings as the user may see them: the queryset itself when no game hidden
    from the user is rated in their scopes; otherwise a list in the same order, whose scopes with
    such a game are replayed from the visible games (unsaved rows)."""
    if sees_everything(user):
        return rows
    concerned = _scopes_with_hidden_games(user, set(rows.order_by().values_list("game_slug", "club_id").distinct()))
    if not concerned:
        return rows
    seen: list[Rating] = []
    shown: dict[Scope, dict[int, Rating]] = defaultdict(dict)
    for row in rows:
        scope = (row.game_slug, row.club_id)
        if scope in concerned:
            shown[scope][row.player_id] = row
        else:
            seen.append(row)
    for scope, stored in shown.items():
        for player_id, skill in _seen_skills(user, scope).items():
            if player_id in stored:
                seen.append(Rating(
                    player=stored[player_id].player, game_slug=scope[0], club=stored[player_id].club,
                    mu=skill.mu, sigma=skill.sigma, ordinal=skill.ordinal, games=skill.games,
                    last_played=skill.last_played,
                ))
    seen.sort(key=lambda row: (row.game_slug, row.club_id is not None, row.club_id or 0, -row.ordinal, row.player_id))
    return seen


def rating_history(user: User) -> QuerySet[RatingChange]:
    """How each game the user may see moved each player's rating, in playing order, to filter and
    page; read each page through :func:`rating_history_seen_by`."""
    rows = RatingChange.objects.select_related("player").order_by("played_on", "record_id", "player_id")
    if sees_everything(user):
        return rows
    return rows.filter(record__in=visible_records(user).values("pk"))


def rating_history_seen_by(user: User, rows: Iterable[RatingChange]) -> list[RatingChange]:
    """The changes as the user may see them: in a scope where a game hidden from the user was
    rated, each change is replayed from the visible games, so that every game starts from the
    rating the previous visible one left (unsaved rows)."""
    rows = list(rows)
    if sees_everything(user) or not rows:
        return rows
    concerned = _scopes_with_hidden_games(user, {(row.game_slug, row.club_id) for row in rows})
    replays = {scope: _replayed(user, scope) for scope in concerned}
    seen = []
    for row in rows:
        replay = replays.get((row.game_slug, row.club_id))
        if replay is not None:
            row, player = replay.changes.get((row.record_id, row.player_id)), row.player
            if row is None:
                continue
            row.player = player
        seen.append(row)
    return seen


def _scopes_with_hidden_games(user: User, scopes: set[Scope]) -> set[Scope]:
    if not scopes:
        return set()
    rated = set(
        RatingChange.objects.filter(record__in=hidden_records(user).values("pk"))
        .values_list("game_slug", "club_id").distinct()
    )
    return scopes & rated




def _seen_skills(user: User, scope: Scope) -> dict[int, rating_scopes.Skill]:
    """The scope's ratings over the games the user may see, replayed once and kept in the cache:
    a popular game's thousands of games are not replayed at each reading. The key holds all the
    replay depends on: the scope's games hidden from the reader, and the last and the number of
    the scope's stored rating changes, which every new game, correction or merge rewrites."""
    game_slug, club_id = scope
    changes = RatingChange.objects.filter(game_slug=game_slug)
    changes = changes.filter(club_id=club_id) if club_id is not None else changes.filter(club__isnull=True)
    hidden = sorted(set(changes.filter(record__in=hidden_records(user).values("pk")).values_list("record_id", flat=True)))
    marker = changes.aggregate(last=Max("pk"), count=Count("pk"))
    return _kept(["seen-skills", game_slug, club_id, hidden, marker["last"], marker["count"]],
                 lambda: _replayed(user, scope).skills)


@dataclass
class Replay:
    skills: dict[int, rating_scopes.Skill] = field(default_factory=dict)
    changes: dict[tuple[int, int], RatingChange] = field(default_factory=dict)


def _replayed(user: User, scope: Scope) -> Replay:
    """``ratings.recompute`` of one scope from its first game, over the games the user may see,
    in memory: the ratings those games alone give, and how each game moved them."""
    game_slug, club_id = scope
    records = only_visible(rating_scopes.scope_records(game_slug, club_id), user)
    games = list(records.order_by("played_on", "pk").values_list("pk", "played_on"))
    replay = Replay()
    changes = rating_scopes.rate_games(scope, games, rating_scopes.seat_ranks([pk for pk, _day in games]),
                                       replay.skills)
    replay.changes = {(change.record_id, change.player_id): change for change in changes}
    return replay
