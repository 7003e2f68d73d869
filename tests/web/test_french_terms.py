"""Every game's pages in French say the game in French: the recorder mid-game, the replay mid-game
and at its end, and the recorder's end screen show none of the game's English terms, counted
phrases included ("1 personne", never "1 personne(s)" nor "1 people").

What is checked is what a reader sees: the text of the page (not its markup, scripts or styles),
the attributes a screen reader speaks (title, aria-label, alt), and the words and catalogue the
recorder's script shows from its page data. The game's own name stays as the box prints it.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from html.parser import HTMLParser
from collections.abc import Iterable
from typing import Any

import pytest
from django.test import Client

from records.files import import_document
from records.models import Event
from records.services import notation
from tests.factories import simulated_document

pytestmark = pytest.mark.django_db

COMMON = ("people", "person", "tile", "tiles", "left", "round", "dice", "player", "players", "turned up",
          "figure", "figures", "game over")

TERMS: dict[str, tuple[str, ...]] = {
    "stone-age": COMMON + (
        "hunting grounds", "forest", "clay pit", "clay", "quarry", "river", "field", "hut", "tool maker",
        "tool", "tools", "wood", "stone", "gold", "food", "green", "sand", "card", "cards", "building",
        "buildings", "empty", "farmer", "farmers", "shaman", "shamans", "hut builder", "hut builders",
        "medicine", "writing", "pottery", "weaving", "music", "time", "one-time", "tribe", "starves",
        "resources", "cost",
    ),
    "hunters-gatherers": COMMON + (
        "hunter", "hunters", "gatherer", "gatherers", "fisher", "fishers", "hut", "huts", "forest", "forests",
        "meadow", "meadows", "river", "rivers", "lake", "lakes", "mammoth", "fish", "bonus tile", "gold nugget",
    ),
    "carcassonne": COMMON + (
        "road", "roads", "city", "cities", "meadow", "field", "fields", "monastery", "monasteries", "cloister",
        "farmer", "farmers", "knight", "thief", "monk", "follower", "followers", "rotate", "discard",
        "fits nowhere", "completed",
    ),
    "carcassonne-maps": COMMON + (
        "road", "roads", "city", "cities", "field", "fields", "monastery", "chip", "chips", "island",
        "islands", "stack", "stacks", "red", "blue", "green", "yellow", "black", "rotate", "discard",
    ),
}
GAME_NAMES = {"stone-age": "Stone Age", "carcassonne": "Carcassonne", "carcassonne-maps": "Carcassonne",
              "hunters-gatherers": "Carcassonne"}
NAMES = ["Ada", "Bo"]
SPOKEN = ("title", "aria-label", "alt", "placeholder")


class _Visible(HTMLParser):
    """The text a reader sees or hears, and the recorder's page data. Scripts, styles, code and
    the expert form's notation examples are skipped: the notation is the same in every language."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.data = ""
        self._skipped: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if attributes.get("id") == "recorder-data":
            self._skipped.append((tag, "data"))
        elif tag in ("script", "style", "code") or attributes.get("id") == "action-help":
            self._skipped.append((tag, "skip"))
        elif self._skipped:
            self._skipped.append((tag, self._skipped[-1][1]))
        self.texts += [value for name, value in attrs if name in SPOKEN and value]

    def handle_endtag(self, tag: str) -> None:
        if self._skipped and self._skipped[-1][0] == tag:
            self._skipped.pop()

    def handle_data(self, data: str) -> None:
        if not self._skipped:
            self.texts.append(data)
        elif self._skipped[-1][1] == "data":
            self.data += data


UNSHOWN_KEYS = ("by", "kind")
"""Keys of the page data that the script reads and never shows: the placeholder a counted
phrase counts, a card's kind (its filter's label is the catalogue's word)."""


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() if key not in UNSHOWN_KEYS for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def shown_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    texts = parser.texts
    if parser.data:
        data = json.loads(parser.data)
        texts += _strings(data.get("words", {})) + _strings(data.get("catalogue", {}))
        texts += [line.get("text", "") for line in data.get("table", {}).get("lines", [])]
    return "\n".join(texts)


def english_terms(slug: str, text: str, notations: Iterable[str] = ()) -> list[str]:
    """The game's English terms in ``text``, but in its name, the notation (the record files'
    language-neutral moves, as PGN's) and the placeholders the recorder's script fills in."""
    for notation in sorted(notations, key=len, reverse=True):
        text = text.replace(notation, "")
    text = re.sub(r"%\(\w+\)s", "", text.replace(GAME_NAMES[slug], ""))
    found = []
    for term in TERMS[slug]:
        for match in re.finditer(rf"(?<![\w'’-]){re.escape(term)}(?![\w'’-])", text, re.I):
            around = text[max(0, match.start() - 40):match.end() + 40].replace("\n", " ")
            found.append(f"{term!r} in …{around}…")
            break
    for match in re.finditer(r"\w+\(s\)", text):
        found.append(f"{match[0]!r} (a counted phrase without plural forms) in "
                     f"…{text[max(0, match.start() - 40):match.end() + 40]}…".replace("\n", " "))
    return found


@lru_cache(maxsize=None)
def _document(slug: str) -> str:
    return json.dumps(simulated_document(slug, 2, 5))


def record_of(slug: str, keeper: Any, *, events: int | None = None) -> Any:
    document = json.loads(_document(slug))
    for player, name in zip(document["players"], NAMES):
        player["name"] = name
    if events is not None:
        document["events"] = document["events"][:events]
    return import_document(document, imported_by=keeper)


@pytest.fixture
def french_keeper(keeper_client: Client, keeper) -> tuple[Client, Any]:
    """The scorekeeper logged in (``tests/web/conftest.py``), asking for French."""
    keeper_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    return keeper_client, keeper


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    assert 'lang="fr"' in response.content.decode(), f"{url} is not in French"
    return response.content.decode()


@pytest.mark.parametrize("slug", TERMS)
def test_every_page_of_a_game_says_its_terms_in_french(french_keeper: tuple[Client, Any], slug: str):
    client, keeper = french_keeper
    total = len(json.loads(_document(slug))["events"])
    middle = record_of(slug, keeper, events=total // 2)
    finished = record_of(slug, keeper)
    assert middle.status == "in_progress" and finished.status == "finished"
    pages = {
        "recorder mid-game": f"/scorekeeping/{middle.pk}/",
        "replay mid-game": f"/games/{middle.pk}/replay/",
        "replay at the end": f"/games/{finished.pk}/replay/?at={total}",
        "end screen": f"/scorekeeping/{finished.pk}/",
    }
    notations = {notation(record, event) for record in (middle, finished)
                 for event in Event.objects.filter(record=record)}
    english = {name: english_terms(slug, shown_text(page(client, url)), notations) for name, url in pages.items()}
    english = {name: terms for name, terms in english.items() if terms}
    assert english == {}, f"English on the French pages of {slug}: {json.dumps(english, ensure_ascii=False, indent=1)}"


def test_the_check_sees_english_where_a_reader_would():
    html = ('<p title="Forest">Forêt</p><script>var forest = 1;</script><code>place forest 2</code>'
            '<script id="recorder-data" type="application/json">{"words": {"x": "1 people"}, "table": {}}</script>')
    found = {term.split(" in ")[0] for term in english_terms("stone-age", shown_text(html))}
    assert found == {"'people'", "'forest'"}, "the page's text, its spoken titles and the recorder's words; not its scripts"
