"""The impact of a corrected result or of a league ruling: whose rating, place and league standing
moved, before → after.

Pure functions over two snapshots of the projections a record touches (:func:`snapshot` before
and after scoring it again); :func:`changes` lists what differs, player by player."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from records.models import GameRecord

from . import ratings, standings
from .models import League, Rating, Standing

Snapshot = dict[tuple[str, ...], dict[str, Any]]


def snapshot(record: GameRecord) -> Snapshot:
    """The ratings of the record's game in every scope it moves (each player's rating and place
    there) and the standing lines of every league it counts in."""
    taken: Snapshot = {}
    for club_id in ratings.scopes_of(record):
        _take_ratings(taken, record.game_slug, club_id)
    for league in standings.leagues_of(record):
        _take_standings(taken, league)
    return taken


def league_snapshot(league: League, game_slugs: Iterable[str]) -> Snapshot:
    """The league's standing lines and its club's ratings in the given games: what a ruling on
    one of its games may move."""
    taken: Snapshot = {}
    for slug in sorted(set(game_slugs)):
        _take_ratings(taken, slug, league.club_id)
    _take_standings(taken, league)
    return taken


def _take_ratings(taken: Snapshot, game_slug: str, club_id: int | None) -> None:
    scope = Rating.objects.filter(game_slug=game_slug, club_id=club_id).select_related("player")
    for place, rating in enumerate(scope.order_by("-ordinal", "player__display_name"), start=1):
        taken[("rating", str(club_id or ""), str(rating.player_id))] = {
            "player": rating.player.display_name, "player_id": rating.player_id, "club_id": club_id,
            "rating": round(rating.ordinal, 2), "place": place}


def _take_standings(taken: Snapshot, league: League) -> None:
    for line in Standing.objects.filter(league=league).select_related("player"):
        taken[("standing", str(league.pk), str(line.player_id))] = {
            "player": line.player.display_name, "player_id": line.player_id, "league_id": league.pk,
            "league": league.name, "position": line.position, "points": line.points, "games": line.games}


def changes(before: Snapshot, after: Snapshot) -> list[dict[str, Any]]:
    """Every line that moved, before → after (a line new or gone has ``None`` on its other side).

    >>> old = {("rating", "", "1"): {"player": "Ada", "rating": 3.0, "place": 1}}
    >>> new = {("rating", "", "1"): {"player": "Ada", "rating": 2.5, "place": 2}}
    >>> changes(old, new)[0]["moved"]
    {'rating': [3.0, 2.5], 'place': [1, 2]}
    """
    found = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        fields = _compared(key[0])
        moved = {field: [(old or {}).get(field), (new or {}).get(field)] for field in fields
                 if (old or {}).get(field) != (new or {}).get(field)}
        if moved:
            said = {name: value for name, value in (new or old or {}).items() if name not in fields}
            found.append({"kind": key[0], **said, "moved": moved})
    return found


def _compared(kind: str) -> Iterable[str]:
    return ("rating", "place") if kind == "rating" else ("position", "points", "games")
