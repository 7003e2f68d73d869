"""Every game with a rules engine has a complete web module (``ludolog/web/games/<game>``), and the
shared pages name no game: whatever depends on a game is asked of its module through the
registry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.utils import translation

from games.registry import engine_slugs, get_engine
from ludolog.web.games import WEB_MODULES, web_game
from ludolog.web.narration import Narration, Table
from ludolog.web.narration.final import FinalGroup
from records.files import simulate_document

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "ludolog" / "web"
STATIC = WEB / "static"


@pytest.mark.parametrize("slug", engine_slugs())
def test_every_engine_has_a_complete_web_module(slug):
    engine = get_engine(slug)
    game = web_game(slug)
    assert game is not None and game.slug == slug and slug in WEB_MODULES
    document = simulate_document(slug, engine.min_players, 3, [f"P{i}" for i in range(engine.min_players)])
    setup = {key: value for key, value in document["setup"].items() if key != "seed"}
    state = engine.new_state(engine.min_players, 3, engine.prepare_setup(engine.min_players, 3, setup))
    seats = [{"seat": seat, "player": f"P{seat}", "colour": ""} for seat in range(engine.min_players)]
    with translation.override("en"):
        assert str(game.name)
        hints = game.hints
        assert str(hints.start) and str(hints.end) and str(hints.final)
        before = engine.view(state)
        board = game.board(dict(before, at=0), seats, title="Board", free_cells=True)
        assert board.startswith("<svg") and "<title" in board and "<desc" in board
        events = [(event["type"], event["payload"]) for event in document["events"]]
        kind, payload = events[0]
        engine.apply(state, kind, payload)
        said = game.narrate_action(kind, payload, before, engine.view(state), Table(seats))
        assert isinstance(said, Narration) and said.text
        for kind, payload in events[1:]:
            engine.apply(state, kind, payload)
        assert engine.is_over(state)
        final = engine.view(state)
        groups = game.final_scoring(final)
        assert groups and all(isinstance(group, FinalGroup) for group in groups)
        assert game.board(dict(final, at=len(events)), seats, title="Board").startswith("<svg")
        # Every source of the game's points has its label.
        sources = {source for score in final["scores"] for source in score["breakdown"]}
        assert sources <= set(game.source_labels), sources - set(game.source_labels)
        recorder = game.recorder
        assert (STATIC / recorder.script).is_file()
        assert not recorder.stylesheet or (STATIC / recorder.stylesheet).is_file()
        for template in (recorder.controls_template, recorder.side_template):
            if template:
                get_template(template)
        # A word is a text, or a counted phrase's forms (recorder.words.counted): one per count up
        # to 4 and one for more, as Czech tells 1, 2 to 4 and 5 and more apart.
        assert recorder.words() and all(isinstance(text, str) or {"by", "0", "1", "2", "3", "4", "other"} == set(text)
                                        for text in recorder.words().values())
        data = recorder.page_data(engine, engine.ruleset_version)
        extras = recorder.table(final)
        assert isinstance(data, dict) and isinstance(extras, dict)
        if game.setup_choices is not None:
            assert game.setup_choices.fields()


SLUGS = tuple(WEB_MODULES)


def shared_files() -> list[Path]:
    """The web layer's files that serve every game: everything but the games' own modules and
    the browser modules, stylesheets and templates a game's module names as its own."""
    own = set()
    for slug in SLUGS:
        recorder = web_game(slug).recorder
        own.update(STATIC / path for path in (recorder.script, recorder.stylesheet) if path)
        own.update(ROOT / "templates" / path for path in (recorder.controls_template, recorder.side_template) if path)
    files = [path for path in WEB.rglob("*") if path.is_file() and path.suffix in {".py", ".js", ".css", ".html"}
             and WEB / "games" not in path.parents and path not in own]
    files += [path for path in (ROOT / "templates").rglob("*.html") if path not in own]
    return files


def test_no_shared_web_module_names_a_game():
    named = {}
    for path in shared_files():
        text = path.read_text(encoding="utf-8")
        found = sorted({slug for slug in SLUGS if re.search(rf"(?<![\w-]){re.escape(slug)}(?![\w-])", text)})
        if found:
            named[str(path.relative_to(ROOT))] = found
    assert named == {}
