"""Plays brought in from a log as result-only records, and the club's plays taken out.

An import is planned first (:func:`plan_import`: which games and players the plays find, which
plays would make records, which are already here and which are skipped, and why), and the plan
is what a dry run prints and what the staff page shows for review. :func:`store` then makes the
records of the plan, all in one transaction: each play a result-only record finished by its one
``result`` event, as the "log a result" page makes one (``records.services.log_results``: what
``start_game`` then ``append_event`` do, for every record at once), named with its source and the
source's play id (a re-import finds it and stores nothing twice).

What an imported play becomes:

- its game: the catalogue record with its BoardGameGeek id, else the one with its title whatever
  the case and accents (which then keeps the id); a game the catalogue lacks is added, marked
  "added with a result" for a librarian to complete or merge, as the result page does;
- its players: the members whose name it is, whatever the case and accents; a seat the log left
  unnamed is "Anonymous player 1", "… 2" in the play (one player for all the history's unnamed
  first seats: the others' results and ranks are kept, which skipping the play would lose);
- played n times (BGG's quantity): n records, ids ``id#1`` … ``id#n``;
- skipped, with the reason printed: a play marked incomplete (BGG) or ignored (BG Stats), a play
  with no players, some seats scored and others not, no score and nobody marked as the winner, a
  score that is not a whole number, one player in two seats, more seats than a result holds;
- ranks: the seats marked as winners share first place, the others follow by score (highest
  first, lowest when BG Stats says the lowest wins), equal scores sharing a rank; a play with no
  score at all is told by who won: the winners first, the others second.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_noop

from accounts.models import Organisation
from games.models import CatalogueRecord
from games.selectors import records_titled
from games.spelling import name_key, shows, tidy_name
from records import services as record_services
from records.models import GameRecord, Player, Seat
from records.players import NAME_LENGTH, known_players
from scoring.services import final_scores_each, ranks_as_told

from . import formats
from .formats import MalformedFile, PlayerScore, Play, shown, whole_score

UNNAMED_KEYS = {"", "anonymous", "anonymous player"}
MAX_SEATS = record_services.RESULT_SCHEMA["properties"]["scores"]["maxItems"]
COLOUR_LENGTH = Seat._meta.get_field("colour").max_length
LOCATION_LENGTH = GameRecord._meta.get_field("location").max_length
TITLE_LENGTH = CatalogueRecord._meta.get_field("title").max_length
PLAY_ID_LENGTH = GameRecord._meta.get_field("source_id").max_length - len(f"#{formats.MAX_QUANTITY}")
"""A play's id with room for the ``#n`` of a play logged n times."""


def refuse_what_does_not_fit(plays: Iterable[Play]) -> None:
    """Refuse the file, naming the line or field, where a value is longer than Ludolog keeps it:
    a name too long is refused, never cut (as the API and the result page refuse it). A seat's
    colour alone is cut (:func:`store`): a detail, not a name."""
    for play in plays:
        checks = [(play.play_id, PLAY_ID_LENGTH, play.where_of("play_id"),
                   gettext_noop("the play id %(value)s is longer than %(most)s characters")),
                  (tidy_name(play.game), TITLE_LENGTH, play.where_of("game"),
                   gettext_noop("the game's name %(value)s is longer than %(most)s characters")),
                  (play.location, LOCATION_LENGTH, play.where_of("location"),
                   gettext_noop("the location %(value)s is longer than %(most)s characters"))]
        for seat in play.players:
            checks.append((tidy_name(seat.name or seat.username), NAME_LENGTH, seat.where or play.where,
                           gettext_noop("the player's name %(value)s is longer than %(most)s characters")))
        for value, most, where, message in checks:
            if len(value) > most:
                raise MalformedFile(where, message, value=shown(value), most=most)


NEW = "new"
"""A game's landing chosen as a new catalogue record (:func:`plan_import`'s ``landings``)."""


@dataclass
class GameMatch:
    """What a play's game is in the catalogue: a record found by BGG id or by title (in any of
    the record's languages), one the importer chose, or new."""

    title: str
    bgg_id: int | None
    record: CatalogueRecord | None
    how: str
    """``bgg_id``, ``title``, ``chosen`` (on the review) or ``new`` (added on import)."""
    plays: int = 0
    key: str = ""
    """The game in the file: ``bgg:822``, or ``title:`` and its title's key when it has no BGG id."""
    candidates: list[CatalogueRecord] = field(default_factory=list)
    """The records it could land on that the file names: by BGG id, then by title, no record twice."""


@dataclass
class PlayerMatch:
    name: str
    player: Player | None
    seats: int = 0


@dataclass
class PlannedPlay:
    play: Play
    outcome: str
    """``create``, ``matched`` (every record of it already imported) or ``skip``."""
    reason: str = ""
    names: list[str] = field(default_factory=list)
    payload: dict[str, Any] | None = None
    to_create: list[str] = field(default_factory=list)
    """The source ids of the records to make (``id``, or ``id#1`` … when played n times)."""
    found: int = 0
    """Records of this play already imported."""
    game: GameMatch | None = None


@dataclass
class Plan:
    source: str
    plays: list[PlannedPlay]
    games: list[GameMatch]
    players: list[PlayerMatch]

    @property
    def created(self) -> int:
        return sum(len(p.to_create) for p in self.plays)

    @property
    def matched(self) -> int:
        return sum(p.found for p in self.plays)

    @property
    def skipped(self) -> int:
        return sum(1 for p in self.plays if p.outcome == "skip")

    def summary(self) -> str:
        return f"created {self.created}, matched {self.matched}, skipped {self.skipped}"

    def lines(self) -> list[str]:
        """What a dry run prints (and a real run, before its counts): games and players matched
        or new, then each play skipped with its reason."""
        out = []
        for game in self.games:
            bgg = f" (BGG {game.bgg_id})" if game.bgg_id else ""
            if game.record is None:
                out.append(f"new game: {game.title}{bgg}, added to the catalogue ({game.plays} play(s))")
            else:
                out.append(f"game: {game.title}{bgg} = catalogue record {game.record.pk} “{game.record.title}” "
                           f"(by {'BGG id' if game.how == 'bgg_id' else 'title'}, {game.plays} play(s))")
        for player in self.players:
            if player.player is None:
                out.append(f"new player: {player.name} ({player.seats} seat(s))")
            else:
                out.append(f"player: {player.name} = {player.player.display_name} ({player.seats} seat(s))")
        for planned in self.plays:
            if planned.outcome == "skip":
                out.append(f"skipped play {planned.play.play_id} ({planned.play.where}): {planned.reason}")
        return out


def _seat_names(players: Sequence[PlayerScore]) -> list[str]:
    names, unnamed = [], 0
    for seat in players:
        name = tidy_name(seat.name or seat.username)
        if name_key(name) in UNNAMED_KEYS or not shows(name):
            unnamed += 1
            name = gettext("Anonymous player %(number)s") % {"number": unnamed}
        names.append(name)
    return names


def _why_skipped(play: Play, names: list[str]) -> str:
    if play.incomplete:
        return gettext("marked incomplete")
    if play.ignored:
        return gettext("marked ignored in BG Stats")
    if not play.players:
        return gettext("no players")
    if len(play.players) > MAX_SEATS:
        return gettext("%(count)s players: a result holds at most %(most)s") % {
            "count": len(play.players), "most": MAX_SEATS}
    if not any(seat.score for seat in play.players):
        # Told by who won alone (a game without scores): the winners first, the others second.
        return "" if any(seat.win for seat in play.players) else gettext("no scores and nobody marked as the winner")
    for seat, name in zip(play.players, names):
        if not seat.score:
            return gettext("no score for %(name)s (give every seat's score, or none and who won)") % {"name": name}
        score = whole_score(seat.score)
        if score is None:
            return gettext("the score of %(name)s, “%(score)s”, is not a whole number") % {
                "name": name, "score": seat.score}
        if abs(score) > record_services.MAX_SCORE:
            return gettext("the score of %(name)s, %(score)s, is beyond ±%(most)s") % {
                "name": name, "score": score, "most": record_services.MAX_SCORE}
    keys = [name_key(name) for name in names]
    for name, key in zip(names, keys):
        if keys.count(key) > 1:
            return gettext("%(name)s is in two seats") % {"name": name}
    return ""


def _source_ids(play: Play) -> list[str]:
    if play.quantity == 1:
        return [play.play_id]
    return [f"{play.play_id}#{number}" for number in range(1, play.quantity + 1)]


def game_key(play: Play) -> str:
    """The game a play names: by its BoardGameGeek id, else by its title's key."""
    return f"bgg:{play.bgg_id}" if play.bgg_id else f"title:{name_key(_title(play))}"


class _Catalogue:
    """The catalogue's records by BGG id and by title key (every language), read once for a whole
    import, and the records the importer chose for some games (``landings``: a record's id or
    :data:`NEW`, by :func:`game_key`)."""

    def __init__(self, plays: list[Play], landings: dict[str, int | str]) -> None:
        bgg_ids = {play.bgg_id for play in plays if play.bgg_id}
        self.by_bgg: dict[int, list[CatalogueRecord]] = {}
        for record in (CatalogueRecord.objects.filter(bgg_id__in=bgg_ids).select_related("publisher")
                       .order_by("pk")):
            self.by_bgg.setdefault(record.bgg_id, []).append(record)
        self.by_title = records_titled(_title(play) for play in plays)
        self.landings = landings
        self.chosen = {record.pk: record for record in CatalogueRecord.objects.select_related("publisher")
                       .filter(pk__in=[pk for pk in landings.values() if isinstance(pk, int)])}
        self.matches: dict[str, GameMatch] = {}

    def match(self, play: Play) -> GameMatch:
        title = _title(play)
        key = game_key(play)
        found = self.matches.get(key)
        if found is None:
            candidates = list(dict.fromkeys(self.by_bgg.get(play.bgg_id, []) + self.by_title.get(name_key(title), [])))
            landing = self.landings.get(key)
            if landing == NEW:
                found = GameMatch(title, play.bgg_id, None, "new")
            elif landing in self.chosen:
                found = GameMatch(title, play.bgg_id, self.chosen[landing], "chosen")
            elif play.bgg_id and play.bgg_id in self.by_bgg:
                found = GameMatch(title, play.bgg_id, self.by_bgg[play.bgg_id][0], "bgg_id")
            elif candidates:
                found = GameMatch(title, play.bgg_id, candidates[0], "title")
            else:
                found = GameMatch(title, play.bgg_id, None, "new")
            found.key, found.candidates = key, candidates
            self.matches[key] = found
        return found


def _title(play: Play) -> str:
    return tidy_name(play.game)


def plan_import(plays: Iterable[Play], source: str, *, seen_by: AbstractBaseUser | None = None,
                landings: dict[str, int | str] | None = None) -> Plan:
    """What importing ``plays`` would do, reading the database and writing nothing; raises
    :class:`MalformedFile` where a value does not fit (:func:`refuse_what_does_not_fit`).
    ``landings``: the catalogue record chosen for some of the file's games (by :func:`game_key`:
    a record's id, or :data:`NEW` for a new record), instead of the one they would find."""
    plays = list(plays)
    refuse_what_does_not_fit(plays)
    all_ids = [source_id for play in plays for source_id in _source_ids(play)]
    imported: set[str] = set()
    for start in range(0, len(all_ids), 5000):
        imported.update(GameRecord.objects.filter(source=source, source_id__in=all_ids[start:start + 5000])
                        .values_list("source_id", flat=True))
    catalogue = _Catalogue(plays, landings or {})
    planned: list[PlannedPlay] = []
    seat_names: dict[str, int] = {}
    for play in plays:
        names = _seat_names(play.players)
        ids = _source_ids(play)
        found = sum(source_id in imported for source_id in ids)
        to_create = [source_id for source_id in ids if source_id not in imported]
        if not to_create:
            planned.append(PlannedPlay(play, "matched", names=names, found=found))
            continue
        reason = _why_skipped(play, names)
        if reason:
            planned.append(PlannedPlay(play, "skip", reason, names=names))
            continue
        game = catalogue.match(play)
        game.plays += len(to_create)
        scores = [whole_score(seat.score) for seat in play.players]
        if all(score is None for score in scores):
            payload = {"scores": [{"seat": order, "rank": 1 if seat.win else 2}
                                  for order, seat in enumerate(play.players)]}
        else:
            lines = [(score, seat.win) for score, seat in zip(scores, play.players) if score is not None]
            payload = {"scores": [{"seat": order, "score": score, "rank": rank}
                                  for order, ((score, _won), rank) in enumerate(
                                      zip(lines, ranks_as_told(lines, lowest_wins=play.lowest_wins)))]}
        planned.append(PlannedPlay(play, "create", names=names, payload=payload, to_create=to_create, found=found,
                                   game=game))
        for name in names:
            seat_names[name_key(name)] = seat_names.get(name_key(name), 0) + len(to_create)
    display = {}
    for planned_play in planned:
        for name in planned_play.names:
            display.setdefault(name_key(name), name)
    known = known_players(display.values(), seen_by=seen_by)
    players = [PlayerMatch(display[key], known.get(key), seats) for key, seats in sorted(seat_names.items())]
    games = sorted(catalogue.matches.values(), key=lambda g: (g.record is not None, name_key(g.title)))
    return Plan(source, planned, games, players)


def _game_slug(record: CatalogueRecord) -> str:
    return record.engine_slug or (slugify(record.title)[:64].strip("-") or f"title-{record.pk}")


def store(plan: Plan, *, user: AbstractBaseUser | None = None, organisation: Organisation | None = None,
          chunk: int | None = None, progress: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Make the plan's records as games of ``organisation`` (the club whose history it is);
    returns them. All or none; or, given a ``chunk`` size, a chunk at a time, each committed with
    ``progress(records made so far)`` called in its transaction (a page follows it; a task run
    again plans again and goes on where it stopped: an imported play is found, not stored twice)."""
    with transaction.atomic() if chunk is None else nullcontext():
        with transaction.atomic():
            _give_the_games_their_records(plan)
        results = _results(plan, organisation)
        made: list[GameRecord] = []
        size = chunk or len(results) or 1
        for start in range(0, len(results), size):
            # Announced together once committed: their checkpoints and scoring go in batches.
            with transaction.atomic(), record_services.finishing_together():
                made += record_services.log_results(results[start:start + size], created_by=user)
                if progress is not None:
                    progress(len(made))
        return made


def _give_the_games_their_records(plan: Plan) -> None:
    """A new catalogue record for each game landing on none (one for a title the file names both
    with and without a BGG id); a record found or chosen keeps the file's BGG id where it had none."""
    added: dict[str, CatalogueRecord] = {}
    for game in plan.games:
        if game.record is None:
            same = added.get(name_key(game.title))
            if same is not None and None in (same.bgg_id, game.bgg_id):
                game.record = same
            else:
                game.record = added[name_key(game.title)] = CatalogueRecord.objects.create(
                    title=game.title, bgg_id=game.bgg_id, added_with_a_result=True)
        elif game.bgg_id and not game.record.bgg_id:
            CatalogueRecord.objects.filter(pk=game.record.pk).update(bgg_id=game.bgg_id)
            game.record.bgg_id = game.bgg_id


def _results(plan: Plan, organisation: Organisation | None) -> list[record_services.LoggedResult]:
    """Each record to make, as start_game then the append of its result would make it."""
    results: list[record_services.LoggedResult] = []
    for planned in plan.plays:
        if planned.outcome != "create":
            continue
        assert planned.game is not None and planned.game.record is not None and planned.payload is not None
        catalogue = planned.game.record
        play = planned.play
        # A colour is a detail of the seat, not a name: one typed long is cut to what a seat keeps.
        seats = [record_services.SeatSpec(name, colour=seat.colour[:COLOUR_LENGTH])
                 for name, seat in zip(planned.names, play.players)]
        results += [record_services.LoggedResult(
            game_slug=_game_slug(catalogue), seats=seats, payload=planned.payload, fields={
                "catalogue_record": catalogue, "played_on": play.played_on,
                "location": play.location, "duration_minutes": play.minutes,
                "source": plan.source, "source_id": source_id, "organisation": organisation,
            }) for source_id in planned.to_create]
    return results


# -- export --------------------------------------------------------------------------------------


def exported_records(player: str | None = None):
    """The records an export holds: every finished record a staff reader may see (all of them),
    or those ``player`` sat at (whatever the name's case and accents), oldest first."""
    records = GameRecord.objects.filter(status=GameRecord.Status.FINISHED)
    if player:
        records = records.filter(seats__player__name_key=name_key(player))
    return records.select_related("catalogue_record").order_by("played_on", "pk")


def exported_plays(player: str | None = None, *, batch: int = 500) -> tuple[list[Play], dict[str, list[int]], list[str]]:
    """The plays of :func:`exported_records` as log lines, their ranks by play id, and the
    records left out because they do not replay to a final score (each with why)."""
    plays: list[Play] = []
    ranks_by_play: dict[str, list[int]] = {}
    left_out: list[str] = []
    records = list(exported_records(player))
    for start in range(0, len(records), batch):
        found, ranks, failures = plays_of(records[start:start + batch])
        plays += found
        ranks_by_play.update(ranks)
        left_out += failures
    return plays, ranks_by_play, left_out


def plays_of(records: list[GameRecord]) -> tuple[list[Play], dict[str, list[int]], list[str]]:
    """Finished records as play-log lines (seats in their order of play), their ranks by play
    id, and those left out because they do not replay to a final score (each with why)."""
    plays: list[Play] = []
    ranks_by_play: dict[str, list[int]] = {}
    seats: dict[int, list[tuple[int, str, str]]] = {}
    for record_id, order, name, colour in (Seat.objects.filter(record__in=[r.pk for r in records])
                                           .order_by("record_id", "seat_order")
                                           .values_list("record_id", "seat_order", "player__display_name", "colour")):
        seats.setdefault(record_id, []).append((order, name, colour))
    finals, failures = final_scores_each(records)
    for record in records:
        if record.pk not in finals:
            continue
        by_seat = {final.seat: final for final in finals[record.pk]}
        lines = []
        for order, name, colour in seats.get(record.pk, []):
            final = by_seat.get(order)
            lines.append((PlayerScore(name=name, score="" if final is None or final.score is None else str(final.score),
                                      win=final is not None and final.rank == 1, colour=colour,
                                      start_position=str(order + 1)),
                          final.rank if final else 0))
        catalogue = record.catalogue_record
        play_id = str(record.pk)
        plays.append(Play(
            play_id=play_id, played_on=record.played_on,
            game=catalogue.title if catalogue else record.game_slug,
            bgg_id=catalogue.bgg_id if catalogue else None, players=tuple(line for line, _rank in lines),
            minutes=record.duration_minutes, location=record.location,
        ))
        ranks_by_play[play_id] = [rank for _line, rank in lines]
    return plays, ranks_by_play, [f"record {pk}: {why}" for pk, why in failures.items()]


def bg_stats_link(record: GameRecord) -> str | None:
    """The link that opens a finished record in BG Stats, ready to save (None: it does not replay
    to a final score)."""
    plays, ranks, _failures = plays_of([record])
    if not plays:
        return None
    return formats.bg_stats_link(plays[0], ranks[plays[0].play_id])
