"""The games' glossaries (``docs/glossary/<game>.<language>.md``) are the words the pages use.

Each glossary row names an English term (``city / cities``), the published edition's term and the
stems every translation of it contains (``appears as``). For every entry of the language's
catalogue written for that game's pages (an entry whose references include
``ludolog/web/games/<module>/``) whose English names the term as a whole word, each translated
form must contain one of the stems: a Dutch page never calls a ``struikrover`` a ``dief`` on one
line and a ``struikrover`` on the next. Placeholders are left out of the English first
(``City: %(tiles)s`` does not name tiles: its count does, elsewhere).
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
GLOSSARIES = ROOT / "docs" / "glossary"
GAMES = {"carcassonne": "carcassonne", "carcassonne-maps": "carcassonne_maps",
         "hunters-gatherers": "hunters_gatherers", "stone-age": "stone_age"}
LANGUAGES = ("fr", "nl", "cs")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|\{\w*\}|%[sd]")


def rows(path: Path) -> list[tuple[list[str], list[str]]]:
    """(English alternatives, stems) of each row of the glossary's table."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("English", "") or set(cells[0]) <= {"-", ":"}:
            continue
        english = [term.strip() for term in cells[0].split(" / ") if term.strip()]
        stems = [stem.strip().casefold() for stem in cells[2].split(" / ") if stem.strip()]
        found.append((english, stems))
    return found


def entries_of(language: str, module: str) -> list[polib.POEntry]:
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    folder = f"ludolog/web/games/{module}/"
    return [entry for entry in po if not entry.obsolete and entry.translated()
            and any(path.startswith(folder) for path, _line in entry.occurrences)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_glossary_with_sources(game, language):
    path = GLOSSARIES / f"{game}.{language}.md"
    assert path.exists(), f"no glossary {path.name}"
    table = rows(path)
    assert len(table) >= 10, f"{path.name}: {len(table)} terms"
    assert all(stems for _english, stems in table), f"{path.name}: a row without the words the pages use"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_pages_use_the_glossarys_terms(game, language):
    path = GLOSSARIES / f"{game}.{language}.md"
    if not path.exists():
        pytest.fail(f"no glossary {path.name}")
    entries = entries_of(language, GAMES[game])
    assert entries, f"no entry of locale/{language} is written for {GAMES[game]}'s pages"
    astray = []
    for english, stems in rows(path):
        term = re.compile(r"\b(?:" + "|".join(re.escape(word) for word in english) + r")\b", re.IGNORECASE)
        for entry in entries:
            said = PLACEHOLDER.sub(" ", f"{entry.msgid} {entry.msgid_plural or ''}")
            if not term.search(said):
                continue
            for text in [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values()):
                if not any(stem in text.casefold() for stem in stems):
                    astray.append(f"{english[0]!r} → {stems}: {entry.msgid!r} = {text!r}")
    assert astray == [], "\n".join(astray)
