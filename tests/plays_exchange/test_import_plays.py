"""import_plays and export_plays (docs/club-history.md): a BoardGameGeek file of 2,000 plays over 150
games and a BG Stats export, each with the awkward cases, import with the counts the generator's own
knowledge gives; a second import creates nothing; a malformed file exits 2 naming its line or
field and stores nothing; an export read back into an empty database gives the same plays."""

from __future__ import annotations

import doctest
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction

import plays_exchange.formats
import plays_exchange.services
from games.models import CatalogueRecord
from plays_exchange.formats import read_bgg, read_bgstats
from plays_exchange.services import exported_plays
from records.integrity import verify_store
from records.models import Event, GameRecord, Player

from .generate_fixtures import GUESTS, MEMBERS, bgg_fixture, bgstats_fixture

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]  # the skip reasons are the reader's words


@pytest.fixture(scope="module")
def bgg_file():
    return bgg_fixture()


@pytest.fixture(scope="module")
def bgstats_file():
    return bgstats_fixture()


def set_up_club(games) -> None:
    """The members, and the catalogue as the generator says: games known by BGG id, games known by
    a title spelt otherwise, games it lacks."""
    for name in MEMBERS:
        Player.objects.create(display_name=name)
    for game in games:
        if game.catalogue == "bgg_id":
            CatalogueRecord.objects.create(title=game.catalogue_title, bgg_id=game.bgg_id)
        elif game.catalogue == "title":
            CatalogueRecord.objects.create(title=game.catalogue_title)


def run(*args: str) -> tuple[int, list[str], str]:
    out, err = StringIO(), StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit:
        code = exit.code
    return code, out.getvalue().splitlines(), err.getvalue()


def expected(specs) -> tuple[int, int]:
    """(records to create, plays to skip), from what the generator put in each play."""
    return sum(s.quantity for s in specs if not s.skip), sum(1 for s in specs if s.skip)


def write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_the_formats_docstring_examples_hold():
    for module in (plays_exchange.formats, plays_exchange.services):
        assert doctest.testmod(module).failed == 0


def test_the_bgg_fixture_is_the_size_the_issue_asks():
    data, games, specs = bgg_fixture()
    plays = read_bgg(data)
    assert len(plays) == len(specs) == 2000 and len({p.bgg_id for p in plays}) == len(games) == 150
    cases = Counter()
    for play in plays:
        cases["incomplete"] += play.incomplete
        cases["quantity"] += play.quantity > 1
        cases["unnamed"] += any(not s.name or s.name == "Anonymous player" for s in play.players)
        cases["missing score"] += any(not s.score for s in play.players)
        cases["non-ASCII"] += any(not s.name.isascii() for s in play.players)
    assert all(count > 0 for count in cases.values()) and len(cases) == 5, cases


def test_a_bgg_file_of_2000_plays_imports_with_the_expected_counts_then_again_creates_nothing(tmp_path, bgg_file):
    data, games, specs = bgg_file
    set_up_club(games)
    path = write(tmp_path, "plays.xml", data)
    created, skipped = expected(specs)
    assert created > 1900 and skipped > 50

    code, lines, _err = run("import_plays", path, "--format", "bgg", "--dry-run")
    assert code == 0 and lines[-1] == f"created {created}, matched 0, skipped {skipped}"
    assert GameRecord.objects.count() == 0 and Player.objects.count() == len(MEMBERS)

    code, lines, _err = run("import_plays", path, "--format", "bgg")
    assert code == 0 and lines[-1] == f"created {created}, matched 0, skipped {skipped}"
    for spec in specs:
        if spec.skip:
            line = next(line for line in lines if line.startswith(f"skipped play {spec.play_id} "))
            assert spec.skip in line
    records = GameRecord.objects.filter(source="bgg")
    assert records.count() == GameRecord.objects.count() == created
    assert all(r.result_only and r.status == GameRecord.Status.FINISHED for r in records)
    assert Event.objects.filter(type="result").count() == created
    assert verify_store().ok  # each record's result chained to its header as an append chains it
    tripled = next(s for s in specs if s.quantity == 3 and not s.skip)
    assert sorted(records.filter(source_id__startswith=tripled.play_id).values_list("source_id", flat=True)) == [
        f"{tripled.play_id}#1", f"{tripled.play_id}#2", f"{tripled.play_id}#3"]

    # Games: by BGG id, by title whatever its spelling (which then keeps the id), or added.
    played = {s.game for s in specs if not s.skip}
    for game in games:
        found = CatalogueRecord.objects.filter(bgg_id=game.bgg_id)
        if game.catalogue == "none":
            assert found.count() == (game.index in played)
            if game.index in played:
                assert found.get().title == game.title and found.get().added_with_a_result
        else:
            assert found.get().title == game.catalogue_title and not found.get().added_with_a_result
    # Players: members whatever the spelling, guests new, unnamed seats "Anonymous player 1".
    names = set(Player.objects.values_list("display_name", flat=True))
    assert names == set(MEMBERS) | set(GUESTS) | {"Anonymous player 1"}

    code, lines, _err = run("import_plays", path, "--format", "bgg")
    assert code == 0 and lines[-1] == f"created 0, matched {created}, skipped {skipped}"
    assert GameRecord.objects.count() == created


def test_ranks_follow_the_win_flags_then_the_scores(tmp_path):
    path = write(tmp_path, "one.xml", '''<plays><play id="9" date="2024-05-01" quantity="1" length="50"
        incomplete="0" nowinstats="0" location="Chez Zoé"><item name="Ra" objectid="12"/><players>
        <player name="Zoé" score="40" win="0"/><player name="Max" score="38" win="1"/>
        <player name="渡辺 健" score="40" win="0"/></players></play></plays>'''.encode())
    assert run("import_plays", path, "--format", "bgg")[1][-1] == "created 1, matched 0, skipped 0"
    record = GameRecord.objects.get()
    assert Event.objects.get(record=record).payload == {"scores": [
        {"seat": 0, "score": 40, "rank": 2}, {"seat": 1, "score": 38, "rank": 1}, {"seat": 2, "score": 40, "rank": 2}]}
    assert [s.player.display_name for s in record.seats.order_by("seat_order")] == ["Zoé", "Max", "渡辺 健"]
    assert (record.location, record.duration_minutes, record.source, record.source_id) == ("Chez Zoé", 50, "bgg", "9")


def test_a_play_without_scores_is_told_by_who_won(tmp_path):
    """Codenames has no score: the winners first, the others second. A play with no score and no
    winner tells nothing and is skipped; a play scored for some seats only is skipped too."""
    path = write(tmp_path, "unscored.xml", '''<plays>
        <play id="21" date="2024-05-02" quantity="1" length="15" incomplete="0" nowinstats="0" location="">
          <item name="Codenames" objectid="178900"/><players><player name="Zoé" score="" win="1"/>
          <player name="Max" score="" win="0"/><player name="Léa" score="" win="1"/></players></play>
        <play id="22" date="2024-05-03" quantity="1" length="15" incomplete="0" nowinstats="0" location="">
          <item name="Codenames" objectid="178900"/><players><player name="Zoé" score="" win="0"/>
          <player name="Max" score="" win="0"/></players></play>
        <play id="23" date="2024-05-04" quantity="1" length="15" incomplete="0" nowinstats="0" location="">
          <item name="Ra" objectid="12"/><players><player name="Zoé" score="12" win="1"/>
          <player name="Max" score="" win="0"/></players></play></plays>'''.encode())
    _code, lines, _err = run("import_plays", path, "--format", "bgg")
    assert lines[-1] == "created 1, matched 0, skipped 2"
    assert any(line.startswith("skipped play 22 ") and "nobody marked as the winner" in line for line in lines)
    assert any(line.startswith("skipped play 23 ") and "no score for Max" in line for line in lines)
    record = GameRecord.objects.get()
    assert Event.objects.get(record=record).payload == {"scores": [
        {"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}, {"seat": 2, "rank": 1}]}


def test_a_bg_stats_export_imports_with_the_expected_counts_then_again_creates_nothing(tmp_path, bgstats_file):
    data, games, specs = bgstats_file
    set_up_club(games)
    path = write(tmp_path, "export.json", data)
    created, skipped = expected(specs)
    assert created > 200 and skipped > 10

    code, lines, _err = run("import_plays", path, "--format", "bgstats")
    assert code == 0 and lines[-1] == f"created {created}, matched 0, skipped {skipped}"
    for spec in specs:
        if spec.skip:
            assert spec.skip in next(line for line in lines if line.startswith(f"skipped play {spec.play_id} "))
    assert GameRecord.objects.filter(source="bgstats").count() == created
    assert "Anonymous player 1" in set(Player.objects.values_list("display_name", flat=True))
    # A game where the lowest score wins (highestWins false): ranked so.
    lowest = next(s for s in specs if not s.skip and s.game % 9 == 4)
    payload = Event.objects.get(record__source_id=lowest.play_id).payload["scores"]
    best = min(line["score"] for line in payload)
    assert all((line["rank"] == 1) == (line["score"] == best) for line in payload)
    # The game without a BGG id that the catalogue lacks is added by its title.
    assert CatalogueRecord.objects.filter(title=games[-1].title, bgg_id=None, added_with_a_result=True).exists()

    code, lines, _err = run("import_plays", path, "--format", "bgstats")
    assert code == 0 and lines[-1] == f"created 0, matched {created}, skipped {skipped}"


@pytest.mark.parametrize(("fmt", "data", "named"), [
    ("bgg", b'<plays>\n<play id="1" date="2024-01-01">\n<item name="Go" objectid="188"/>\n</plays>', "line 4"),
    ("bgg", b'<plays>\n<play id="1" date="2024-02-30"><item name="Go" objectid="188"/></play>\n</plays>', "line 2"),
    ("bgg", b'<plays>\n\n<play id="1" date="2024-02-03" quantity="x"><item name="Go"/></play></plays>', "line 3"),
    ("bgg", b'<!DOCTYPE plays [<!ENTITY a "aaaa">]><plays>&a;</plays>', "line 1"),
    ("bgg", b'<games/>', "line 1"),
    ("bgstats", b'{"plays": [\n{"uuid": "a",\n "gameRefId": 1,}\n]}', "line 3"),
    ("bgstats", b'{"games": [{"id": 1, "name": "Go"}], "players": [], "plays": [{"uuid": "a", "gameRefId": 1, '
                b'"playDate": "2024-01-01", "playerScores": [{"playerRefId": 7, "score": "3"}]}]}',
     "plays[0].playerScores[0].playerRefId"),
    ("bgstats", b'{"games": [{"id": 1, "name": "Go"}], "plays": [{"uuid": "a", "gameRefId": 1, "playDate": "soon"}]}',
     "plays[0].playDate"),
])
def test_a_malformed_file_exits_2_naming_its_line_or_field_and_stores_nothing(tmp_path, fmt, data, named):
    good = b'<plays><play id="2" date="2024-01-01"><item name="Go" objectid="188"/><players>' \
           b'<player name="A" score="1" win="1"/></players></play></plays>'
    # A good play before the fault: nothing of it is stored either.
    code, lines, err = run("import_plays", write(tmp_path, "bad", data), "--format", fmt)
    assert code == 2 and named in err and lines == []
    assert GameRecord.objects.count() == CatalogueRecord.objects.count() == Player.objects.count() == 0
    assert run("import_plays", write(tmp_path, "good", good), "--format", "bgg")[0] == 0


def canonical(plays, ranks) -> Counter:
    """The plays as what they say, whatever their ids: game, date, place, length, seats."""
    return Counter((p.played_on, p.game, p.bgg_id, p.location, p.minutes,
                    tuple((s.name, s.score, s.win) for s in p.players), tuple(ranks[p.play_id])) for p in plays)


@pytest.mark.parametrize("fmt", ["bgg", "bgstats"])
def test_an_export_read_back_into_an_empty_database_gives_the_same_plays(tmp_path, fmt):
    data, games, specs = bgg_fixture(plays=120, game_count=30, seed=7)
    set_up_club(games)

    class Rollback(Exception):
        pass

    try:
        with transaction.atomic():
            assert run("import_plays", write(tmp_path, "in.xml", data), "--format", "bgg")[0] == 0
            first = canonical(*exported_plays()[:2])
            exported = StringIO()
            call_command("export_plays", "--format", fmt, stdout=exported)
            raise Rollback
    except Rollback:
        pass
    assert GameRecord.objects.count() == 0 and sum(first.values()) == expected(specs)[0]
    code, lines, _err = run("import_plays", write(tmp_path, "back", exported.getvalue().encode()), "--format", fmt)
    assert code == 0 and lines[-1] == f"created {sum(first.values())}, matched 0, skipped 0"
    assert canonical(*exported_plays()[:2]) == first


def test_export_player_and_csv(tmp_path, bgg_file):
    data, games, specs = bgg_fixture(plays=60, game_count=20, seed=3)
    set_up_club(games)
    run("import_plays", write(tmp_path, "in.xml", data), "--format", "bgg")
    zoe = Player.objects.get(display_name="Zoé Lefèvre")
    out = StringIO()
    call_command("export_plays", "--format", "csv", "--player", "ZOE LEFEVRE", stdout=out)
    rows = out.getvalue().splitlines()
    assert rows[0] == "play_id,date,game,bgg_id,location,minutes,seat,player,score,won,rank"
    play_ids = {row.split(",")[0] for row in rows[1:]}
    assert play_ids == {str(pk) for pk in GameRecord.objects.filter(seats__player=zoe).values_list("pk", flat=True)}
    assert any("Zoé Lefèvre" in row for row in rows[1:])
    assert len(read_bgstats(_export("bgstats", "zoé lefèvre").encode())) == len(play_ids)


def _export(fmt: str, player: str) -> str:
    out = StringIO()
    call_command("export_plays", "--format", fmt, "--player", player, stdout=out)
    return out.getvalue()
