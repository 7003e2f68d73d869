"""The two play logs clubs keep, read and written as plain values: no Django, no database.

**BoardGameGeek** hands a user's plays out as XML (the XML API2 ``plays`` endpoint, the same shape
as its export): ``<plays>`` holding ``<play id date quantity length incomplete nowinstats
location>``, each with one ``<item name objectid>`` (the game and its BGG id), ``<comments>`` and
``<players>`` of ``<player username userid name startposition color score new rating win>``.
A score is free text there ("42", "", "49ish").

**BG Stats** exports one JSON document shaped like a small database: ``players``, ``games`` (with
``bggId``, ``highestWins``), ``locations`` and ``plays``, a play naming its game, location and
players by their ``id`` (``gameRefId``, ``locationRefId``, ``playerScores[].playerRefId``).

:func:`read_bgg` and :func:`read_bgstats` turn a file's bytes into :class:`Play` values, or raise
:class:`MalformedFile` naming the line (XML, JSON syntax) or the field (``plays[3].gameRefId``)
at fault. :func:`write_bgg` and :func:`write_bgstats` write plays back in the same shapes, so
that an export reads back as the plays it holds; :func:`write_csv` writes one row a seat.

The XML is parsed with the standard library's expat, refusing any DTD: no entity can be declared,
so none expands (the "billion laughs") or reaches outside the file (what ``defusedxml`` guards
against; it is installed only for fpdf2 and not used here: forbidding the DTD is the whole of
what this format needs).
"""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from urllib.parse import quote
from xml.parsers import expat
from xml.sax.saxutils import quoteattr

BGG = "bgg"
BGSTATS = "bgstats"
FORMATS = (BGG, BGSTATS)

MAX_QUANTITY = 100
"""A play logged more times than this in one line is taken for a typing slip, not a history."""
MAX_MINUTES = 7 * 24 * 60
"""A play longer than a week (a campaign logged as one play) is not a length but a slip or an attack."""
MAX_BGG_ID = 2**31 - 1
"""BoardGameGeek's ids are well below this; the catalogue keeps one in a 32-bit integer."""
MAX_DEPTH = 32
"""Nesting a play log never needs (a BG Stats export nests five deep, a BGG file four): deeper is
refused before parsing, so that no parser recurses without end (Python's ``json`` would)."""
MAX_NUMBER_DIGITS = 100
"""A number in a file longer than this is refused where it stands (Python refuses to read one of
more than 4,300 digits, with no line to name)."""
MAX_SCORE_TEXT = 30
"""A score is a number or a few words ("49ish"); a longer one is not a score."""

UNREADABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
"""What no name or text may hold: control characters (tab and line breaks aside, kept in comments)
and lone surrogates, halves of a character that cannot be stored or written out as UTF-8 (JSON's
``"\\ud800"`` makes one). XML forbids them itself."""


class MalformedFile(ValueError):
    """The file is not a play log of its format; ``where`` names the line or the field.

    ``template`` and ``params`` are the message before it is filled in, so that a page can say
    it in its reader's language (the templates are in the project's message catalogue)."""

    def __init__(self, where: str, template: str, **params: Any) -> None:
        self.where = where
        self.template = template
        self.params = params
        self.message = template % params if params else template
        super().__init__(f"{where}: {self.message}")


def shown(value: str, most: int = 40) -> str:
    """A value quoted in a message, cut if long: a message never repeats a 10,000-character name.

    >>> shown("Azul"), shown("7" * 5000)
    ("'Azul'", "'7777777777777777777777777777777777777777…' (5000 characters)")
    """
    if len(value) <= most:
        return repr(value)
    return f"{value[:most]!r}"[:-1] + f"…' ({len(value)} characters)"


def _id(value: Any) -> str:
    return str(value) if isinstance(value, int) and len(str(value)) <= 40 else shown(str(value))


def _readable(text: str, where: str) -> str:
    found = UNREADABLE.search(text)
    if found:
        code = ord(found.group())
        if 0xD800 <= code <= 0xDFFF:
            raise MalformedFile(where, "holds a lone surrogate (U+%(code)04X), half of a character: not text",
                                code=code)
        raise MalformedFile(where, "holds the control character U+%(code)04X", code=code)
    return text


def _score(text: str, where: str) -> str:
    text = text.strip()
    if len(text) > MAX_SCORE_TEXT:
        raise MalformedFile(where, "the score %(value)s is longer than a score can be (%(most)s characters)",
                            value=shown(text), most=MAX_SCORE_TEXT)
    return text


@dataclass(frozen=True)
class PlayerScore:
    """One seat of a play, as the log wrote it (a missing score is ``""``)."""

    name: str
    score: str = ""
    win: bool = False
    new: bool = False
    start_position: str = ""
    colour: str = ""
    username: str = ""
    where: str = field(default="", compare=False)
    """Where the player's name is in its file (``line 14``, ``players[2].name``), for the messages."""


@dataclass(frozen=True)
class Play:
    """One line of a play log. ``quantity`` > 1: the same game played that many times alike."""

    play_id: str
    played_on: date
    game: str
    bgg_id: int | None
    players: tuple[PlayerScore, ...]
    quantity: int = 1
    minutes: int | None = None
    incomplete: bool = False
    ignored: bool = False
    location: str = ""
    lowest_wins: bool = False
    comments: str = ""
    where: str = field(default="", compare=False)
    """Where the play is in its file (``line 12``, ``plays[3]``), for the messages."""
    wheres: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    """Where its ``play_id``, ``game`` and ``location`` are, where not the play's own place."""

    def where_of(self, name: str) -> str:
        """Where the file gives this play's ``name`` (one of its fields), for a message."""
        return self.wheres.get(name, self.where)


def whole_score(text: str) -> int | None:
    """The score as a whole number, or ``None`` when the log has none or not a number.

    >>> whole_score("42"), whole_score(" -3 "), whole_score("17.0"), whole_score(""), whole_score("49ish")
    (42, -3, 17, None, None)
    """
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number.is_integer() else None


# -- BoardGameGeek XML --------------------------------------------------------------------------


def _flag(value: str, where: str, name: str) -> bool:
    if value in ("", "0"):
        return False
    if value == "1":
        return True
    raise MalformedFile(where, "%(name)s=%(value)s is neither 0 nor 1", name=name, value=shown(value))


def _integer(value: str, where: str, name: str, *, default: int | None = None, least: int = 0,
             most: int) -> int | None:
    if value.strip() == "":
        return default
    if len(value.strip()) > MAX_NUMBER_DIGITS:
        raise MalformedFile(where, "%(name)s=%(value)s is beyond %(most)s", name=name, value=shown(value), most=most)
    try:
        number = int(value)
    except ValueError:
        raise MalformedFile(where, "%(name)s=%(value)s is not a whole number", name=name, value=shown(value)) from None
    if number < least:
        raise MalformedFile(where, "%(name)s=%(value)s is below %(least)s", name=name, value=shown(value), least=least)
    if number > most:
        raise MalformedFile(where, "%(name)s=%(value)s is beyond %(most)s", name=name, value=shown(value), most=most)
    return number


def _date(value: str, where: str, name: str) -> date:
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        raise MalformedFile(where, "%(name)s=%(value)s is not a date (YYYY-MM-DD)", name=name,
                            value=shown(value)) from None


class _BggReader:
    """expat handlers building the plays, with the line each one starts on."""

    def __init__(self) -> None:
        self.plays: list[Play] = []
        self.stack: list[str] = []
        self.play: dict[str, Any] | None = None
        self.text: list[str] = []

    def start(self, name: str, attrs: dict[str, str]) -> None:
        where = f"line {self.parser.CurrentLineNumber}"
        parent = self.stack[-1] if self.stack else None
        self.stack.append(name)
        if len(self.stack) > MAX_DEPTH:
            raise MalformedFile(where, "elements nested more than %(most)s deep", most=MAX_DEPTH)
        if parent is None:
            if name != "plays":
                raise MalformedFile(where, "the file holds <%(element)s>, not BoardGameGeek's <plays>",
                                    element=shown(name)[1:-1])
        elif name == "play" and parent == "plays":
            self._start_play(attrs, where)
        elif name == "item" and parent == "play":
            assert self.play is not None
            if self.play["game"] is not None:
                raise MalformedFile(where, "a <play> names one <item>, not two")
            title = attrs.get("name", "").strip()
            if not title:
                raise MalformedFile(where, "<item> has no name")
            self.play["game"] = title
            self.play["bgg_id"] = _integer(attrs.get("objectid", ""), where, "objectid", least=1, most=MAX_BGG_ID)
            self.play["wheres"]["game"] = where
        elif name == "player" and parent == "players" and self.play is not None:
            self.play["players"].append(PlayerScore(
                name=attrs.get("name", "").strip(), score=_score(attrs.get("score", ""), where),
                win=_flag(attrs.get("win", ""), where, "win"), new=_flag(attrs.get("new", ""), where, "new"),
                start_position=attrs.get("startposition", "").strip(), colour=attrs.get("color", "").strip(),
                username=attrs.get("username", "").strip(), where=where,
            ))
        elif name == "comments":
            self.text = []

    def _start_play(self, attrs: dict[str, str], where: str) -> None:
        play_id = attrs.get("id", "").strip()
        if not play_id:
            raise MalformedFile(where, "<play> has no id")
        if "date" not in attrs:
            raise MalformedFile(where, "<play> has no date")
        quantity = _integer(attrs.get("quantity", ""), where, "quantity", default=1, least=1, most=MAX_QUANTITY)
        assert quantity is not None
        self.play = {
            "play_id": play_id, "played_on": _date(attrs["date"], where, "date"), "quantity": quantity,
            "minutes": _integer(attrs.get("length", ""), where, "length", most=MAX_MINUTES) or None,
            "incomplete": _flag(attrs.get("incomplete", ""), where, "incomplete"),
            "location": attrs.get("location", "").strip(), "game": None, "bgg_id": None, "players": [],
            "comments": "", "where": where, "wheres": {},
        }

    def end(self, name: str) -> None:
        self.stack.pop()
        if name == "comments" and self.play is not None:
            self.play["comments"] = "".join(self.text).strip()
        elif name == "play" and self.play is not None:
            play, self.play = self.play, None
            if play["game"] is None:
                raise MalformedFile(play["where"], "<play id=%(id)s> names no game (<item>)", id=shown(play["play_id"]))
            self.plays.append(Play(**{**play, "players": tuple(play["players"])}))

    def characters(self, data: str) -> None:
        self.text.append(data)

    def refuse_dtd(self, *args: Any) -> None:
        raise MalformedFile(f"line {self.parser.CurrentLineNumber}",
                            "a play log declares no DTD or entities (refused: they can expand without end)")

    def read(self, data: bytes) -> list[Play]:
        self.parser = expat.ParserCreate()
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.characters
        self.parser.StartDoctypeDeclHandler = self.refuse_dtd
        self.parser.EntityDeclHandler = self.refuse_dtd
        self.parser.ExternalEntityRefHandler = self.refuse_dtd
        try:
            self.parser.Parse(data, True)
        except expat.ExpatError as error:
            raise MalformedFile(f"line {error.lineno}", "not well-formed XML: %(error)s (column %(column)s)",
                                error=expat.ErrorString(error.code), column=error.offset + 1) from None
        except LookupError as error:
            # The declaration names an encoding Python has no codec for.
            raise MalformedFile("line 1", "the file's encoding is unknown (%(error)s)", error=str(error)) from None
        return self.plays


def read_bgg(data: bytes) -> list[Play]:
    """The plays of a BoardGameGeek plays file.

    >>> plays = read_bgg(b'''<plays username="zoe"><play id="7" date="2024-03-02" quantity="2" length="45"
    ...   incomplete="0" nowinstats="0" location="Caf\\xc3\\xa9"><item name="Azul" objectid="230802"/>
    ...   <players><player name="Zo\\xc3\\xa9" score="61" win="1"/><player name="Max" score="58" win="0"/></players>
    ... </play></plays>''')
    >>> plays[0].game, plays[0].bgg_id, plays[0].quantity, plays[0].location, plays[0].players[0].name
    ('Azul', 230802, 2, 'Café', 'Zoé')
    >>> read_bgg(b'<plays>\\n<play id="8" date="2024-13-01"><item name="Go" objectid="188"/></play></plays>')
    Traceback (most recent call last):
    ...
    plays_exchange.formats.MalformedFile: line 2: date='2024-13-01' is not a date (YYYY-MM-DD)
    """
    return _BggReader().read(data)


def write_bgg(plays: Iterable[Play]) -> str:
    """BoardGameGeek-shaped XML of the plays (what :func:`read_bgg` reads back)."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<plays>"]
    for play in plays:
        out.append(
            f"<play id={quoteattr(play.play_id)} date=\"{play.played_on.isoformat()}\" quantity=\"{play.quantity}\" "
            f"length=\"{play.minutes or 0}\" incomplete=\"{int(play.incomplete)}\" nowinstats=\"0\" "
            f"location={quoteattr(play.location)}>")
        objectid = f" objectid=\"{play.bgg_id}\"" if play.bgg_id else ""
        out.append(f"  <item name={quoteattr(play.game)} objecttype=\"thing\"{objectid}/>")
        if play.comments:
            out.append(f"  <comments>{_escape(play.comments)}</comments>")
        out.append("  <players>")
        for seat in play.players:
            out.append(
                f"    <player username={quoteattr(seat.username)} userid=\"0\" name={quoteattr(seat.name)} "
                f"startposition={quoteattr(seat.start_position)} color={quoteattr(seat.colour)} "
                f"score={quoteattr(seat.score)} new=\"{int(seat.new)}\" rating=\"0\" win=\"{int(seat.win)}\"/>")
        out.append("  </players>")
        out.append("</play>")
    out.append("</plays>")
    return "\n".join(out) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- BG Stats JSON ------------------------------------------------------------------------------


def _list(document: dict[str, Any], key: str) -> list[Any]:
    value = document.get(key, [])
    if not isinstance(value, list):
        raise MalformedFile(key, "is not a list")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MalformedFile(where, "is not an object")
    return value


def _ref(value: dict[str, Any], key: str, where: str) -> Any:
    if key not in value or isinstance(value[key], (dict, list, bool)) or value[key] is None:
        raise MalformedFile(f"{where}.{key}", "is missing" if key not in value else "is not an id")
    return value[key]


def _text(value: Any, where: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise MalformedFile(where, "is not text or a number")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return _readable(str(value), where).strip()


def _bool(value: Any, where: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool) and value not in (0, 1):
        raise MalformedFile(where, "is neither true nor false")
    return bool(value)


JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]|(?<![.\d])\d{%d,}' % (MAX_NUMBER_DIGITS + 1))
"""What :func:`_refuse_what_json_cannot_read` looks at: strings (skipped whole), brackets, and
numbers longer than :data:`MAX_NUMBER_DIGITS` (a fraction's digits are not counted)."""


def _refuse_what_json_cannot_read(text: str) -> None:
    """Refuse, naming its line, what would make ``json`` recurse without end or refuse a number
    with no line to name: nesting deeper than :data:`MAX_DEPTH`, a number of too many digits.

    >>> _refuse_what_json_cannot_read('{"a": [[1, "[[[["]]}')
    >>> _refuse_what_json_cannot_read('{"a":\\n' + "[" * 40)
    Traceback (most recent call last):
    ...
    plays_exchange.formats.MalformedFile: line 2: nested more than 32 deep
    """
    depth = 0
    for token in JSON_TOKENS.finditer(text):
        mark = token.group()
        if mark == "[" or mark == "{":
            depth += 1
            if depth > MAX_DEPTH:
                raise MalformedFile(f"line {text.count(chr(10), 0, token.start()) + 1}",
                                    "nested more than %(most)s deep", most=MAX_DEPTH)
        elif mark == "]" or mark == "}":
            depth -= 1
        elif mark[0] != '"':
            raise MalformedFile(f"line {text.count(chr(10), 0, token.start()) + 1}",
                                "a number of %(digits)s digits", digits=len(mark))


def read_bgstats(data: bytes) -> list[Play]:
    """The plays of a BG Stats export.

    >>> plays = read_bgstats(b'''{"players": [{"id": 1, "name": "Zo\\xc3\\xa9"}, {"id": 2, "name": "Max"}],
    ...  "games": [{"id": 5, "name": "Azul", "bggId": 230802}], "locations": [],
    ...  "plays": [{"uuid": "u1", "gameRefId": 5, "playDate": "2024-03-02 20:15:00", "durationMin": 40,
    ...    "playerScores": [{"playerRefId": 1, "score": "61", "winner": true}, {"playerRefId": 2, "score": 58}]}]}''')
    >>> plays[0].game, plays[0].minutes, [(p.name, p.score, p.win) for p in plays[0].players]
    ('Azul', 40, [('Zoé', '61', True), ('Max', '58', False)])
    >>> read_bgstats(b'{"players": [], "games": [], "plays": [{"uuid": "u1", "gameRefId": 9, "playDate": "2024-03-02"}]}')
    Traceback (most recent call last):
    ...
    plays_exchange.formats.MalformedFile: plays[0].gameRefId: no game has id 9
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise MalformedFile(f"line {line}", "the file is not UTF-8 text (byte %(byte)s)", byte=error.start + 1) from None
    _refuse_what_json_cannot_read(text)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise MalformedFile(f"line {error.lineno}", "not JSON: %(error)s (column %(column)s)", error=error.msg,
                            column=error.colno) from None
    document = _object(document, "the file")
    if "plays" not in document:
        raise MalformedFile("plays", "is missing: not a BG Stats export")
    players: dict[Any, tuple[str, str, str]] = {}
    for index, value in enumerate(_list(document, "players")):
        where = f"players[{index}]"
        player = _object(value, where)
        anonymous = _bool(player.get("isAnonymous"), f"{where}.isAnonymous")
        players[_ref(player, "id", where)] = ("" if anonymous else _text(player.get("name"), f"{where}.name"),
                                              _text(player.get("bggUsername"), f"{where}.bggUsername"),
                                              f"{where}.name")
    games: dict[Any, tuple[str, int | None, bool, str]] = {}
    for index, value in enumerate(_list(document, "games")):
        where = f"games[{index}]"
        game = _object(value, where)
        name = _text(game.get("name"), f"{where}.name")
        if not name:
            raise MalformedFile(f"{where}.name", "is missing")
        bgg_id = game.get("bggId")
        if bgg_id in (None, "", 0):
            bgg_id = None
        elif isinstance(bgg_id, bool) or not isinstance(bgg_id, int) or not 0 < bgg_id <= MAX_BGG_ID:
            raise MalformedFile(f"{where}.bggId", "is not a BoardGameGeek id")
        games[_ref(game, "id", where)] = (name, bgg_id, game.get("highestWins") is False, f"{where}.name")
    locations: dict[Any, tuple[str, str]] = {}
    for index, value in enumerate(_list(document, "locations")):
        where = f"locations[{index}]"
        location = _object(value, where)
        locations[_ref(location, "id", where)] = (_text(location.get("name"), f"{where}.name"), f"{where}.name")
    plays: list[Play] = []
    for index, value in enumerate(_list(document, "plays")):
        where = f"plays[{index}]"
        play = _object(value, where)
        play_id = _text(play.get("uuid"), f"{where}.uuid")
        if not play_id:
            raise MalformedFile(f"{where}.uuid", "is missing")
        game_ref = _ref(play, "gameRefId", where)
        if game_ref not in games:
            raise MalformedFile(f"{where}.gameRefId", "no game has id %(id)s", id=_id(game_ref))
        title, bgg_id, lowest_wins, title_where = games[game_ref]
        if not isinstance(play.get("playDate"), str):
            raise MalformedFile(f"{where}.playDate", "is missing")
        location_ref = play.get("locationRefId")
        if location_ref not in (None, 0, "") and location_ref not in locations:
            raise MalformedFile(f"{where}.locationRefId", "no location has id %(id)s", id=_id(location_ref))
        location, location_where = (locations[location_ref] if location_ref not in (None, 0, "")
                                    else ("", f"{where}.locationRefId"))
        minutes = play.get("durationMin")
        if minutes in (None, ""):
            minutes = None
        elif isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= MAX_MINUTES:
            raise MalformedFile(f"{where}.durationMin", "is not a number of minutes (at most %(most)s)",
                                most=MAX_MINUTES)
        seats: list[tuple[int, PlayerScore]] = []
        for number, line in enumerate(_list(play, "playerScores")):
            at = f"{where}.playerScores[{number}]"
            line = _object(line, at)
            player_ref = _ref(line, "playerRefId", at)
            if player_ref not in players:
                raise MalformedFile(f"{at}.playerRefId", "no player has id %(id)s", id=_id(player_ref))
            name, username, name_where = players[player_ref]
            order = line.get("seatOrder")
            order = number if isinstance(order, bool) or not isinstance(order, int) else order
            seats.append((order, PlayerScore(
                name=name, username=username, where=name_where,
                score=_score(_text(line.get("score"), f"{at}.score"), f"{at}.score"),
                win=_bool(line.get("winner"), f"{at}.winner"), new=_bool(line.get("newPlayer"), f"{at}.newPlayer"),
                start_position="1" if _bool(line.get("startPlayer"), f"{at}.startPlayer") else "",
            )))
        plays.append(Play(
            play_id=play_id, played_on=_date(play["playDate"], f"{where}.playDate", "playDate"), game=title,
            bgg_id=bgg_id, players=tuple(seat for _order, seat in sorted(seats, key=lambda s: s[0])),
            minutes=minutes or None, ignored=_bool(play.get("ignored"), f"{where}.ignored"),
            location=location, lowest_wins=lowest_wins, comments=_text(play.get("comments"), f"{where}.comments"),
            where=where, wheres={"play_id": f"{where}.uuid", "game": title_where, "location": location_where},
        ))
    return plays


def write_bgstats(plays: Sequence[Play]) -> str:
    """A BG Stats-shaped export of the plays (what :func:`read_bgstats` reads back): each player,
    game and location listed once, the plays naming them by id."""
    players: dict[str, int] = {}
    games: dict[tuple[str, int | None, bool], int] = {}
    locations: dict[str, int] = {}
    out_plays = []
    for play in plays:
        game_id = games.setdefault((play.game, play.bgg_id, play.lowest_wins), len(games) + 1)
        location_id = locations.setdefault(play.location, len(locations) + 1) if play.location else None
        scores = []
        for order, seat in enumerate(play.players):
            scores.append({
                "playerRefId": players.setdefault(seat.name, len(players) + 1), "score": seat.score,
                "winner": seat.win, "newPlayer": seat.new, "startPlayer": seat.start_position == "1",
                "seatOrder": order, "rank": 0,
            })
        out_plays.append({
            "uuid": play.play_id, "gameRefId": game_id, "playDate": f"{play.played_on.isoformat()} 00:00:00",
            "durationMin": play.minutes or 0, "locationRefId": location_id, "ignored": False, "manualWinner": False,
            "rounds": 0, "board": "", "comments": play.comments, "playerScores": scores,
        })
    document = {
        "about": "Plays exported by Ludolog in the shape of a BG Stats export.",
        "players": [{"id": number, "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"ludolog:player:{name}")), "name": name,
                     "isAnonymous": False, "bggUsername": ""} for name, number in players.items()],
        "locations": [{"id": number, "name": name} for name, number in locations.items()],
        "games": [{"id": number, "name": name, "bggId": bgg_id or 0, "highestWins": not lowest,
                   "cooperative": False, "noPoints": False} for (name, bgg_id, lowest), number in games.items()],
        "plays": out_plays,
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


# -- BG Stats' "push a play" link ------------------------------------------------------------------

BG_STATS_CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
"""BG Stats opens this link (with the app installed, on a phone) on its import dialog: the game and
players matched to the user's own, the play saved. Its ``data`` is the play as URL-encoded JSON,
in the shape BG Stats documents for apps that push plays."""


def bg_stats_link(play: Play, ranks: Sequence[int]) -> str:
    """The link that hands one play to BG Stats (seats in their order of play: the first starts).

    >>> link = bg_stats_link(Play("7", date(2026, 11, 28), "Azul", 230802, (
    ...     PlayerScore("Élif", "52"), PlayerScore("David", "61", win=True)), minutes=35), [2, 1])
    >>> link.startswith(BG_STATS_CREATE_PLAY + "?data=")
    True
    >>> from urllib.parse import unquote
    >>> data = json.loads(unquote(link.split("data=", 1)[1]))
    >>> data["game"], data["durationMin"], data["playDate"]
    ({'bggId': 230802, 'highestWins': True, 'name': 'Azul', 'noPoints': False, 'sourceGameId': 'Azul'}, 35, '2026-11-28 00:00:00')
    >>> [(p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"]) for p in data["players"]]
    [('Élif', 52, 2, False, True), ('David', 61, 1, True, False)]
    """
    scores = [whole_score(seat.score) for seat in play.players]
    data = {
        "board": "", "durationMin": play.minutes or 0, "comments": play.comments,
        "game": {"bggId": play.bgg_id or 0, "highestWins": not play.lowest_wins, "name": play.game,
                 "noPoints": all(score is None for score in scores), "sourceGameId": play.game},
        "location": play.location, "playDate": f"{play.played_on.isoformat()} 00:00:00",
        "players": [
            {"startPlayer": order == 0, "name": seat.name, "rank": rank, "role": "",
             **({} if score is None else {"score": score}), "sourcePlayerId": seat.name, "winner": rank == 1}
            for order, (seat, score, rank) in enumerate(zip(play.players, scores, ranks))
        ],
    }
    return f"{BG_STATS_CREATE_PLAY}?data={quote(json.dumps(data, ensure_ascii=False, separators=(',', ':')))}"


# -- CSV ----------------------------------------------------------------------------------------

CSV_COLUMNS = ["play_id", "date", "game", "bgg_id", "location", "minutes", "seat", "player", "score", "won", "rank"]


def write_csv(plays: Iterable[Play], ranks: dict[str, list[int]] | None = None) -> str:
    """One row a seat (spreadsheets read it as it comes): the play, the player, score, win, rank."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays:
        play_ranks = (ranks or {}).get(play.play_id, [])
        for order, seat in enumerate(play.players):
            writer.writerow([play.play_id, play.played_on.isoformat(), play.game, play.bgg_id or "", play.location,
                             play.minutes or "", order + 1, seat.name, seat.score, int(seat.win),
                             play_ranks[order] if order < len(play_ranks) else ""])
    return buffer.getvalue()


READERS = {BGG: read_bgg, BGSTATS: read_bgstats}
