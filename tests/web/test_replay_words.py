"""The replay viewer in words: every event of the list is a sentence naming its player,
with the points it made, and the last step explains the final scoring feature by feature (player
by player for Stone Age), its lines and sums those of the engine, the figures that scored drawn
where they stood.

Each game is a finished record as the demo makes them: a simulated record file, imported.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache
from typing import Any

import pytest
from django.test import Client

from games.registry import get_engine
from records.files import import_document, simulate_document
from records.models import GameRecord

pytestmark = pytest.mark.django_db

GAMES = {
    "hunters-gatherers": (4, 21, ["Ada", "Bo", "Cy", "Di"]),
    "carcassonne": (3, 12, ["Ada", "Bo", "Cy"]),
    "stone-age": (2, 9, ["Ada", "Bo"]),
}


@lru_cache(maxsize=None)
def simulated_file(slug: str) -> str:
    players, seed, names = GAMES[slug]
    return json.dumps(simulate_document(slug, players, seed, names))


def document(slug: str) -> dict[str, Any]:
    return json.loads(simulated_file(slug))


@lru_cache(maxsize=None)
def engine_steps(slug: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each event's points by seat (only those that moved), and the engine's view at the end."""
    engine = get_engine(slug)
    doc = document(slug)
    state = engine.new_state(len(doc["players"]), doc["setup"].get("seed"))
    before = engine.totals(state)
    steps = []
    for event in doc["events"]:
        engine.apply(state, event["type"], event["payload"])
        after = engine.totals(state)
        steps.append({seat: a - b for seat, (a, b) in enumerate(zip(after, before)) if a != b})
        before = after
    return steps, engine.view(state)


def record_of(slug: str) -> GameRecord:
    return import_document(document(slug))


def part(html: str, pattern: str) -> str:
    found = re.search(pattern, html, re.S)
    assert found, f"nothing matches {pattern!r}"
    return found[1]


def line_of(html: str, seq: int) -> str:
    return part(html, rf'(<li value="{seq}" data-seq="{seq}".*?</li>)')


def gains(html: str) -> dict[int, list[int]]:
    points: dict[int, list[int]] = {}
    for seat, value in re.findall(r'<span class="gain" data-seat="(\d+)" data-points="(-?\d+)"', html):
        points.setdefault(int(seat), []).append(int(value))
    return points


@pytest.mark.parametrize("slug", GAMES)
def test_the_events_read_as_sentences_naming_the_players_with_the_points_they_made(client: Client, slug: str):
    record = record_of(slug)
    _players, _seed, names = GAMES[slug]
    steps, _end = engine_steps(slug)
    seq = next(index for index, points in enumerate(steps, start=1) if any(p > 0 for p in points.values()))

    html = client.get(f"/games/{record.pk}/replay/?at={seq}").content.decode()
    listed = part(html, r'(<ol class="event-list said-list" id="event-list">.*?</ol>)')
    named = set(re.findall(r'<span class="who"><span class="swatch" style="background: #[0-9a-f]{6}" '
                           r'aria-hidden="true"></span>([^<]+)</span>', listed))
    assert named <= set(names) and len(named) >= 2, "the list names the players, each with a swatch"

    scoring = line_of(html, seq)
    assert 'class="current" aria-current="step"' in scoring
    assert {seat: sum(values) for seat, values in gains(scoring).items()} == steps[seq - 1]
    for seat, points in steps[seq - 1].items():
        assert f"{names[seat]} +{points}" in scoring or f"{names[seat]} \u2212{-points}" in scoring
    notation = document(slug)["events"][seq - 1]["notation"]
    assert f'data-notation="{notation}"' in scoring, "the notation stays at hand (the status line's experts' disclosure)"
    assert f'title="{notation}' not in scoring, "words, not notation, where a person reads"
    status = part(html, r'<p id="step-status"[^>]*>(.*?)</p>')
    assert "<span class=\"who\">" in status and notation not in status and f"Event {seq} of " in status


@pytest.mark.parametrize("slug", GAMES)
def test_the_last_step_explains_the_final_scoring_with_the_engines_points(client: Client, slug: str):
    record = record_of(slug)
    doc = document(slug)
    last = len(doc["events"])
    _steps, end = engine_steps(slug)

    html = client.get(f"/games/{record.pk}/replay/?at={last}").content.decode()
    final = part(html, r'(<section id="final-scoring".*?</section>)')
    assert "hidden" not in part(final, r"(<section[^>]*>)")
    lines = part(final, r"(<ul class=\"final-lines\">.*</ul>)")
    from_lines = {seat: sum(values) for seat, values in gains(lines).items()}

    if slug == "stone-age":
        expected = Counter()
        for tribe in end["final_scoring"]:
            for source, factors in tribe.items():
                if source != "seat":
                    expected[tribe["seat"]] += factors["points"]
        assert len(re.findall(r'data-show="tribe-\d"', lines)) == sum(
            1 for tribe in end["final_scoring"] for source, f in tribe.items() if source != "seat" and f["points"])
    else:
        finals = [award for award in end["awards"] if "tiles" in award]
        assert len(re.findall(r'data-show="award-\d+"', lines)) == len(finals), "a line per feature scored"
        expected = Counter()
        for award in finals:
            for seat in award["seats"]:
                expected[seat] += award["points"]
    assert {seat: points for seat, points in from_lines.items() if points} == {
        seat: points for seat, points in expected.items() if points}

    sums = part(final, r'(<table class="final-sums".*?</table>)')
    for seat, score in enumerate(doc["final_scores"]):
        row = part(sums, rf'<tr data-seat="{seat}">(.*?)</tr>')
        before, made, total = re.findall(r'<td class="number[^"]*">([^<]+)</td>', row)
        assert int(total) == score == end["scores"][seat]["total"]
        assert int(before) + expected[seat] == score
        assert made == f"+{expected[seat]}"


@pytest.mark.parametrize("slug", ["hunters-gatherers", "carcassonne"])
def test_the_last_board_draws_the_figures_that_stood_at_the_end(client: Client, slug: str):
    record = record_of(slug)
    last = len(document(slug)["events"])
    _steps, end = engine_steps(slug)
    finals = [(index, award) for index, award in enumerate(end["awards"]) if "tiles" in award]

    svg = client.get(f"/games/{record.pk}/replay/board/?at={last}").content.decode()
    drawn = Counter(re.findall(r'<g class="(?:figure|meeple)[^"]*"[^>]* data-award="(\d+)"', svg))
    # Each figure is drawn on the board, and again on top of its feature's outline.
    assert drawn == Counter({str(index): 2 * len(award["figures"]) for index, award in finals if award["figures"]})
    assert svg.count('data-sent-home="true"') == len(end.get("sent_home", []))
    assert svg.count('<g class="final-feature"') == len(finals)
    assert 'display="inline"' not in svg, "no feature outlined until one is asked for"

    index, award = max(finals, key=lambda pair: len(pair[1]["tiles"]))
    shown = client.get(f"/games/{record.pk}/replay/board/?at={last}&show=award-{index}").content.decode()
    outline = part(shown, rf'(<g class="final-feature" data-target="award-{index}" display="inline">.*?</g>)')
    assert outline.count("h60v60h-60Z") == len(award["tiles"]), "the tiles of the feature are cut out of the shade"


def test_a_line_of_the_final_scoring_is_a_link_that_outlines_its_feature_without_script(client: Client):
    record = record_of("carcassonne")
    last = len(document("carcassonne")["events"])
    html = client.get(f"/games/{record.pk}/replay/?at={last}&show=award-40").content.decode()
    target = re.findall(r'data-show="(award-\d+)"', html)[0]
    assert f'href="?at={last}&amp;show={target}#board"' in html
    html = client.get(f"/games/{record.pk}/replay/?at={last}&show={target}").content.decode()
    assert f'data-target="{target}" display="inline"' in html
    assert re.search(rf'data-show="{target}"[^>]*aria-current="true"', html)


def test_before_the_end_the_final_scoring_is_on_the_page_but_hidden(client: Client):
    record = record_of("hunters-gatherers")
    html = client.get(f"/games/{record.pk}/replay/?at=3").content.decode()
    assert re.search(r'<section id="final-scoring"[^>]* hidden>', html)


def test_a_game_still_going_on_has_no_final_scoring(client: Client):
    doc = document("carcassonne")
    doc["events"] = doc["events"][:10]
    doc["final_scores"] = None
    record = import_document(doc)
    html = client.get(f"/games/{record.pk}/replay/?at=10").content.decode()
    assert 'id="final-scoring"' not in html
    assert "to play." in part(html, r'<p id="step-status"[^>]*>(.*?)</p>')


def test_the_list_around_a_step_alone_is_what_the_viewer_swaps_in(client: Client):
    record = record_of("stone-age")
    last = len(document("stone-age")["events"])
    response = client.get(f"/games/{record.pk}/replay/?part=events&at=5&last={last}")
    assert response.status_code == 200 and "max-age" in response["Cache-Control"]
    html = response.content.decode()
    assert html.lstrip().startswith("<") and "<html" not in html
    assert 'class="current" aria-current="step"' in line_of(html, 5)
    stale = client.get(f"/games/{record.pk}/replay/?part=events&at=5&last={last - 1}")
    assert "max-age" not in stale.get("Cache-Control", ""), "a list drawn for another last event is not kept"


def test_each_event_is_said_once_then_read_from_the_cache(client: Client, django_assert_max_num_queries):
    record = record_of("carcassonne")
    client.get(f"/games/{record.pk}/replay/?at=30")
    with django_assert_max_num_queries(12):
        html = client.get(f"/games/{record.pk}/replay/?at=30").content.decode()
    assert "lays tile" in line_of(html, 29)


def test_the_words_follow_the_language(client: Client):
    record = record_of("carcassonne")
    last = len(document("carcassonne")["events"])
    html = client.get(f"/games/{record.pk}/replay/?at={last}", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "pose la tuile" in line_of(html, 3)
    final = part(html, r'(<section id="final-scoring".*?</section>)')
    assert "Le décompte final, élément par élément" in final and "Pendant la partie" in final


def test_a_stone_age_tribe_is_outlined_when_its_final_scoring_is_picked():
    from ludolog.web.games.stone_age.drawing import stone_age_svg

    _steps, end = engine_steps("stone-age")
    seats = [{"seat": 0, "player": "Ada", "colour": ""}, {"seat": 1, "player": "Bo", "colour": ""}]
    quiet = stone_age_svg(end, seats)
    assert re.findall(r'data-target="(tribe-\d)" [^>]*display="none"', quiet) == ["tribe-0", "tribe-1"]
    shown = stone_age_svg(end, seats, show="tribe-1")
    assert re.findall(r'data-target="(tribe-\d)" [^>]*display="inline"', shown) == ["tribe-1"]
    assert "final-feature" not in stone_age_svg(dict(end, final_scoring=[]), seats), "nothing to outline before the end"
