"""Hostile play files (issue 36): each is refused whole, at the command line with exit 2 and on the
staff page with a 400, naming the line or the field at fault, in the reader's language on the page,
and nothing is stored: no record, no catalogue record, no player. Never a traceback, an exit 1 or
a 500, and never a value cut to fit (a name too long is refused, as the API refuses it).

Each case is one the issue tried, or one of its kind: depth, encodings, NUL and other controls,
numbers and ids too large to store, names longer than the database holds."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.roles import Role
from games.models import CatalogueRecord
from records.models import GameRecord, Player
from tests.factories import give_role

pytestmark = pytest.mark.django_db


def bgg(play_attributes: str = 'id="1" date="2024-01-01"', item: str = '<item name="Go" objectid="188"/>',
        players: str = '<player name="Ann" score="3" win="1"/><player name="Bob" score="2"/>',
        declaration: str = '<?xml version="1.0" encoding="utf-8"?>') -> bytes:
    """A BoardGameGeek plays file of one play, the play on line 3 and its first player on line 5."""
    return (f'{declaration}\n<plays>\n<play {play_attributes}>\n{item}\n<players>{players}</players>\n'
            f'</play>\n</plays>\n').encode("utf-8", "surrogatepass")


def bgstats(*, players=None, games=None, play=None, raw: str | None = None) -> bytes:
    """A BG Stats export of one play of Go between Ann and Bob, with the parts given replaced."""
    document = {
        "players": players or [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}],
        "games": games or [{"id": 1, "name": "Go", "bggId": 188}],
        "locations": [],
        "plays": [{"uuid": "u1", "gameRefId": 1, "playDate": "2024-01-01 20:00:00",
                   "playerScores": [{"playerRefId": 1, "score": "3", "winner": True},
                                    {"playerRefId": 2, "score": "2"}]} | (play or {})],
    }
    return (raw if raw is not None else json.dumps(document, indent=1)).encode("utf-8", "surrogatepass")


DEEP = 10_000
HOSTILE = {
    # The cases the issue tried (each a traceback, exit 1 and a 500 before).
    "an object 10,000 levels deep": (
        "bgstats", b'{"players": [],\n "plays": ' + b"[" * DEEP + b"]" * DEEP + b"}", "line 2"),
    "a lone surrogate in a player's name": (
        "bgstats", bgstats(players=[{"id": 1, "name": "Ann\ud800"}, {"id": 2, "name": "Bob"}]), "players[0].name"),
    "a NUL in a player's name": (
        "bgstats", bgstats(players=[{"id": 1, "name": "An\u0000n"}, {"id": 2, "name": "Bob"}]), "players[0].name"),
    "a 5,000-digit score": (
        "bgstats", b'{"players": [{"id": 1, "name": "Ann"}], "games": [{"id": 1, "name": "Go"}],\n"plays": [\n'
                   b'{"uuid": "u1", "gameRefId": 1, "playDate": "2024-01-01", "playerScores": [{"playerRefId": 1, '
                   b'"score": ' + b"7" * 5000 + b', "winner": true}]}]}', "line 3"),
    "an unknown XML encoding": (
        "bgg", bgg(declaration='<?xml version="1.0" encoding="x-no-such-encoding"?>'), "line 1"),
    "a play length of 10^25 minutes": ("bgg", bgg(f'id="1" date="2024-01-01" length="{10**25}"'), "line 3"),
    "a duration of 10^30 minutes": ("bgstats", bgstats(play={"durationMin": 10**30}), "plays[0].durationMin"),
    "a 300-digit play id": ("bgg", bgg(f'id="{"9" * 300}" date="2024-01-01"'), "line 3"),
    "a player's name of 10,000 characters": ("bgg", bgg(players=f'<player name="{"A" * 10_000}" score="3"/>'), "line 5"),
    # Of their kind.
    "an element 10,000 levels deep": ("bgg", bgg(item='<item name="Go" objectid="188"/>' + "<x>" * DEEP + "</x>" * DEEP),
                                      "line 4"),
    "a lone surrogate in a game's name": ("bgstats", bgstats(games=[{"id": 1, "name": "Go\udfff"}]), "games[0].name"),
    "a NUL in a play id": ("bgstats", bgstats(play={"uuid": "u\u00001"}), "plays[0].uuid"),
    "a control character in a location": (
        "bgstats", bgstats(raw='{"players": [{"id": 1, "name": "Ann"}], "games": [{"id": 1, "name": "Go"}], '
                               '"locations": [{"id": 4, "name": "Caf\\u0007"}], "plays": []}'), "locations[0].name"),
    "a file that is not UTF-8": ("bgstats", b'{"plays": [],\n"players": [{"id": 1, "name": "Zo\xe9"}]}', "line 2"),
    "a 5,000-digit BGG score": ("bgg", bgg(players=f'<player name="Ann" score="{"7" * 5000}" win="1"/>'), "line 5"),
    "a BoardGameGeek id of 10^25": ("bgg", bgg(item=f'<item name="Go" objectid="{10**25}"/>'), "line 4"),
    "a BG Stats game id of 10^25": ("bgstats", bgstats(games=[{"id": 1, "name": "Go", "bggId": 10**25}]),
                                    "games[0].bggId"),
    "a BG Stats play id of 300 characters": ("bgstats", bgstats(play={"uuid": "u" * 300}), "plays[0].uuid"),
    "a game's title longer than the catalogue holds": (
        "bgg", bgg(item=f'<item name="{"Go " * 200}" objectid="188"/>'), "line 4"),
    "a location longer than a record holds": (
        "bgg", bgg(f'id="1" date="2024-01-01" location="{"Café " * 100}"'), "line 3"),
    "a player's name too long in BG Stats": (
        "bgstats", bgstats(players=[{"id": 1, "name": "Ann"}, {"id": 2, "name": "B" * 101}]), "players[1].name"),
}


def run(*args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit:
        code = exit.code
    return code, out.getvalue(), err.getvalue()


def nothing_stored() -> bool:
    return GameRecord.objects.count() == CatalogueRecord.objects.count() == Player.objects.count() == 0


@pytest.mark.parametrize("case", HOSTILE)
def test_the_command_refuses_a_hostile_file_with_exit_2_naming_where(tmp_path, case):
    fmt, data, named = HOSTILE[case]
    path = tmp_path / "hostile"
    path.write_bytes(data)
    code, out, err = run("import_plays", str(path), "--format", fmt)
    assert code == 2, (out, err)
    assert named in err and "malformed" in err and out == ""
    assert nothing_stored()


@pytest.fixture
def organiser() -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(give_role(User.objects.create_user("organiser"), Role.ORGANISER))
    return client


FRENCH_WHERE = {"line": "ligne"}


@pytest.mark.parametrize("case", HOSTILE)
def test_the_page_refuses_a_hostile_file_with_400_naming_where_in_french(organiser, case):
    fmt, data, named = HOSTILE[case]
    answer = organiser.post("/history/import/", {"format": fmt, "file": SimpleUploadedFile("hostile", data)})
    page = answer.content.decode()
    assert answer.status_code == 400
    word, _space, number = named.partition(" ")
    where = f"{FRENCH_WHERE[word]} {number}" if word in FRENCH_WHERE else named
    assert where in page and "Ce fichier ne peut pas être lu" in page and "Rien n’a été enregistré" in page
    assert nothing_stored()


def test_a_name_at_the_limit_is_stored_whole(tmp_path):
    """The limit refuses only what is longer than a name may be: 100 characters are kept, uncut."""
    path = tmp_path / "plays.xml"
    path.write_bytes(bgg(players=f'<player name="{"A" * 100}" score="3" win="1"/>'))
    code, out, err = run("import_plays", str(path), "--format", "bgg")
    assert code == 0, err
    assert Player.objects.get().display_name == "A" * 100
