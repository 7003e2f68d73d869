"""The home page: the club at a glance (recent games, league leaders, the catalogue's newest
boxes), the way to record a game, and for a member their own latest results.

A handful of queries whatever the club's size: every list is a short slice, and the leagues shown
are at most :data:`LEAGUES` of those running today.
"""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.current import current_organisation
from accounts.models import Organisation
from accounts.scoping import in_organisation
from games.models import CatalogueRecord
from records.models import GameRecord, Player
from records.selectors import visible_records
from scoring import selectors

from .games import game_name
from .history import with_seats_and_results

RECENT_GAMES = 8
MY_GAMES = 5
LEAGUES = 4
LEADERS = 3
NEW_IN_CATALOGUE = 6


def recent_games(user, organisation: Organisation | None) -> list[dict]:
    """The organisation's last finished games the reader may see: each one's winners (ties share
    rank 1) and the others' scores in rank order."""
    records = with_seats_and_results(
        in_organisation(visible_records(user), organisation).filter(status=GameRecord.Status.FINISHED)
    ).order_by("-played_on", "-pk")[:RECENT_GAMES]
    games = []
    for record in records:
        results = sorted(record.results.all(), key=lambda result: (result.rank, result.seat_id))
        games.append({
            "record": record,
            "game": game_name(record.game_slug),
            "winners": [result for result in results if result.rank == 1],
            "others": [result for result in results if result.rank != 1],
        })
    return games


def league_leaders(user, organisation: Organisation | None) -> list[dict]:
    """The top of each of the organisation's leagues running today, as the reader may see its table."""
    today = timezone.localdate()
    running = (in_organisation(selectors.leagues(), organisation).filter(starts_on__lte=today, ends_on__gte=today)
               .order_by("-starts_on", "name"))
    leagues = []
    for league in running[:LEAGUES]:
        table = selectors.league_standings(user, league)[:LEADERS]
        leagues.append({"league": league, "leaders": [
            # The plural follows a whole number of points; a half point reads as several.
            {"standing": line, "points_count": int(line.points) if float(line.points).is_integer() else 2}
            for line in table if line.position is not None
        ]})
    return leagues


def member_results(user) -> tuple[Player | None, list[dict]]:
    """The reader's own player and their latest results (they may see every game they sat at)."""
    if not user.is_authenticated:
        return None, []
    player = Player.objects.filter(user=user).first()
    if player is None:
        return None, []
    results = (
        selectors.visible_results(user).filter(player=player).select_related("record")
        .annotate(players=Count("record__seats")).order_by("-record__played_on", "-record_id")[:MY_GAMES]
    )
    return player, [{"result": result, "game": game_name(result.record.game_slug)} for result in results]


def home(request: HttpRequest) -> HttpResponse:
    organisation = current_organisation(request)
    player, my_results = member_results(request.user)
    context = {
        "player": player,
        "my_results": my_results,
        "recent_games": recent_games(request.user, organisation),
        "leagues": league_leaders(request.user, organisation),
        "new_in_catalogue": CatalogueRecord.objects.select_related("publisher")
        .order_by("-created_at", "-pk")[:NEW_IN_CATALOGUE],
    }
    return render(request, "home.html", context)
