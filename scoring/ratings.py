"""Ratings per game, overall and within each club: OpenSkill (Plackett–Luce), or Elo for a club
that chose it (:mod:`scoring.elo`; the ratings over every club stay OpenSkill's).

Games are applied in the order they were played (date, then record id). A game entered late
with an older date makes :func:`recompute` drop the history from that date and replay it, so the
ratings are always those of the games taken in playing order.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from django.db import transaction
from django.db.models import Count, Min, QuerySet
from openskill.models import PlackettLuce

from records.models import GameRecord

from . import elo, locks, standings
from .models import Club, League, Rating, RatingChange, SeatResult


@lru_cache(maxsize=1)
def model() -> PlackettLuce:
    return PlackettLuce()


def system_of(club_id: int) -> str:
    """The rating system a club's own ratings use (Elo for the clubs that chose it)."""
    return Club.objects.filter(pk=club_id).values_list("rating_system", flat=True).first() or Club.RatingSystem.OPENSKILL


def set_rating_system(club: Club, system: str) -> int:
    """Switch the club's ratings to ``system`` and work every one of its scopes out again from its
    first game (a rating of one system says nothing in the other); returns the scopes redone."""
    with transaction.atomic():
        Club.objects.filter(pk=club.pk).update(rating_system=system)
        club.rating_system = system
        slugs = sorted(set(RatingChange.objects.filter(club=club).values_list("game_slug", flat=True)) | {
            slug for league in League.objects.filter(club=club)
            for slug in standings.league_records(league).values_list("game_slug", flat=True).distinct()})
        for slug in slugs:
            recompute(slug, club.pk)
    return len(slugs)


@dataclass
class Skill:
    mu: float
    sigma: float
    games: int = 0
    last_played: date | None = None

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def scopes_of(record: GameRecord) -> list[int | None]:
    """Which ratings a finished record moves: the game's overall one (None) and each club's."""
    if record.is_cooperative or len(record.seats.all()) < 2:
        return []
    clubs = {league.club_id for league in standings.leagues_of(record)}
    return [None, *sorted(clubs)]


def scope_records(game_slug: str, club_id: int | None) -> QuerySet[GameRecord]:
    # A cooperative game rates nobody: the players were on the same side.
    records = GameRecord.objects.filter(status=GameRecord.Status.FINISHED, game_slug=game_slug, is_cooperative=False)
    if club_id is not None:
        ids: set[int] = set()
        for league in League.objects.filter(club_id=club_id):
            if not league.game_slugs or game_slug in league.game_slugs:
                ids.update(standings.league_records(league).filter(game_slug=game_slug).values_list("pk", flat=True))
        records = records.filter(pk__in=ids)
    return records.annotate(seated=Count("seats")).filter(seated__gte=2)


def _changes(game_slug: str, club_id: int | None) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(game_slug=game_slug, club_id=club_id) if club_id else \
        RatingChange.objects.filter(game_slug=game_slug, club__isnull=True)


def _ratings(game_slug: str, club_id: int | None) -> QuerySet[Rating]:
    return Rating.objects.filter(game_slug=game_slug, club_id=club_id) if club_id else \
        Rating.objects.filter(game_slug=game_slug, club__isnull=True)


def seat_ranks(record_ids: list[int]) -> dict[int, list[tuple[int, int]]]:
    """Each record's (player, rank) pairs in seat order."""
    results: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for record_id, player_id, rank in (
        SeatResult.objects.filter(record__in=record_ids)
        .order_by("record_id", "seat__seat_order").values_list("record_id", "player_id", "rank")
    ):
        results[record_id].append((player_id, rank))
    return results


def rate_games(scope: tuple[str, int | None], games: list[tuple[int, date]],
               results: dict[int, list[tuple[int, int]]], skills: dict[int, Skill]) -> list[RatingChange]:
    """Rate ``games`` (record id, day) in order, updating ``skills`` (player → Skill) in place;
    returns each game's rating changes (unsaved). Games with fewer than two results rate nobody."""
    game_slug, club_id = scope
    rows = []
    rate = model()
    by_elo = club_id is not None and system_of(club_id) == Club.RatingSystem.ELO
    for record_id, played_on in games:
        lines = results.get(record_id)
        if not lines or len(lines) < 2:
            continue
        ranks = [rank for _player, rank in lines]
        if by_elo:  # a rating and no uncertainty
            before = [skills.get(player_id) or Skill(elo.START, 0.0) for player_id, _rank in lines]
            after = [(mu, 0.0) for mu in elo.rate([skill.mu for skill in before], ranks)]
        else:
            before = [skills.get(player_id) or Skill(rate.mu, rate.sigma) for player_id, _rank in lines]
            teams = rate.rate([[rate.create_rating([skill.mu, skill.sigma])] for skill in before], ranks=ranks)
            after = [(new.mu, new.sigma) for [new] in teams]
        for (player_id, rank), old, (mu, sigma) in zip(lines, before, after):
            skill = Skill(mu, sigma, old.games + 1, played_on)
            skills[player_id] = skill
            rows.append(RatingChange(
                player_id=player_id, game_slug=game_slug, club_id=club_id, record_id=record_id,
                played_on=played_on, rank=rank, mu_before=old.mu, sigma_before=old.sigma,
                mu=skill.mu, sigma=skill.sigma, ordinal=skill.ordinal,
            ))
    return rows


@transaction.atomic
def recompute(game_slug: str, club_id: int | None, since: date | None = None) -> int:
    """Replay the scope's games from ``since`` (every game when None); returns how many."""
    locks.hold(f"ratings:{game_slug}:{club_id or 'all'}")
    records = scope_records(game_slug, club_id)
    if since is not None:
        records = records.filter(played_on__gte=since)
    records = list(records.order_by("played_on", "pk").values_list("pk", "played_on"))
    results = seat_ranks([pk for pk, _day in records])
    changes = _changes(game_slug, club_id)
    earlier = changes if since is None else changes.filter(played_on__lt=since)
    (changes if since is None else changes.filter(played_on__gte=since)).delete()
    touched = {player_id for lines in results.values() for player_id, _rank in lines}
    if since is None:
        touched |= set(_ratings(game_slug, club_id).values_list("player_id", flat=True))
    skills = _skills_before(earlier, touched, since is None)
    rows = rate_games((game_slug, club_id), records, results, skills)
    RatingChange.objects.bulk_create(rows, batch_size=2000)
    _ratings(game_slug, club_id).filter(player__in=touched).delete()
    Rating.objects.bulk_create([
        Rating(
            player_id=player_id, game_slug=game_slug, club_id=club_id, mu=skill.mu, sigma=skill.sigma,
            ordinal=skill.ordinal, games=skill.games, last_played=skill.last_played,
        )
        for player_id, skill in sorted(skills.items()) if player_id in touched and skill.games
    ], batch_size=2000)
    return len(records)


def _skills_before(earlier: QuerySet[RatingChange], players: set[int], from_scratch: bool) -> dict[int, Skill]:
    """Each player's rating after their last game before the replayed period."""
    skills: dict[int, Skill] = {}
    if from_scratch or not players:
        return skills
    counts = dict(earlier.filter(player__in=players).values_list("player_id").annotate(n=Count("pk")))
    for change in earlier.filter(player__in=players).order_by("played_on", "record_id").only(
        "player_id", "mu", "sigma", "played_on"
    ):
        skills[change.player_id] = Skill(change.mu, change.sigma, counts[change.player_id], change.played_on)
    return skills


def rebuild() -> None:
    """Drop every rating and replay every scope from its first game."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    slugs = set(SeatResult.objects.values_list("record__game_slug", flat=True).distinct())
    for slug in sorted(slugs):
        recompute(slug, None)
        for club_id in Club.objects.order_by("pk").values_list("pk", flat=True):
            if scope_records(slug, club_id).exists():
                recompute(slug, club_id)


def affected_scopes(record_ids: list[int]) -> dict[tuple[str, int | None], date]:
    """For a set of records, each rating scope they touch and the earliest date to replay from."""
    scopes: dict[tuple[str, int | None], date] = {}
    overall = GameRecord.objects.filter(pk__in=record_ids).values("game_slug").annotate(first=Min("played_on"))
    for row in overall.order_by("game_slug"):
        scopes[(row["game_slug"], None)] = row["first"]
    for league in League.objects.all():
        counted = standings.league_records(league).filter(pk__in=record_ids).annotate(
            seated=Count("seats")).filter(seated__gte=2).values("pk")
        for row in GameRecord.objects.filter(pk__in=counted).values("game_slug").annotate(first=Min("played_on")).order_by("game_slug"):
            key = (row["game_slug"], league.club_id)
            scopes[key] = min(scopes.get(key, row["first"]), row["first"])
    return scopes
