"""The player-name key in the browser (``names.js``) is ``games.spelling.name_key``: fed the same
names, and every character Python's Unicode tables know, the two give the same keys.

The pages use it to tell a member already seated before the server says so (``start.js``,
``result.js``); a key that differed would mark "Chloé" free while the server refuses her twice.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

import pytest

from games.spelling import name_key

NAMES_JS = Path(__file__).resolve().parents[2] / "ludolog" / "web" / "static" / "ludolog" / "names.js"

NAMES = [
    "Chloé", "  CHLOE ", "chloe", "Zoë  Martin", "ZOE MARTIN", "Jean-Paul Şen", "jean-paul sen",
    "Straße", "STRASSE", "Maße", "ẞenja", "Ærøskøbing", "Ångström", "Dvořák", "DVORÁK", "Łukasz Żółć",
    "ΣΟΦΊΑ", "σοφία", "Ὀδυσσεύς", "ǅuro", "ﬁlip", "Ｆｕｌｌｗｉｄｔｈ", "\u200bAlice\ufeff",
    "Jean\u00a0\u00a0Paul", "A\tB\nC", "İstanbul", "ılgaz", "Ꭰᏸ ꭰ", "محمد", "कुमार", "김민준",
    "\u115fBlank\u3164", "Nguyễn Thị Minh Khai", "O\u0301scar", "Ｅｍｍａ\u3000Ｓｔｏｎｅ",
]


@pytest.fixture
def keys_in_browser(browser):
    context = browser.new_context()
    page = context.new_page()
    page.add_script_tag(content=NAMES_JS.read_text(encoding="utf-8"))
    # One JSON text each way: a list of 200,000 strings crosses to the browser and back as fast.
    yield lambda texts: json.loads(page.evaluate(
        "(texts) => JSON.stringify(JSON.parse(texts).map(window.Ludolog.nameKey))", json.dumps(texts)))
    context.close()


def test_the_same_names_have_the_same_keys_in_python_and_in_the_browser(keys_in_browser):
    assert len(NAMES) >= 30
    assert keys_in_browser(NAMES) == [name_key(name) for name in NAMES]


def test_every_character_has_the_same_key_alone_and_inside_a_name(keys_in_browser):
    """Every code point assigned in Python's Unicode tables (surrogates and private use aside)
    alone: its case folding, decomposition, a combining mark dropped, an invisible one trimmed.
    And between two letters those a name keeps inside but not at its ends (spaces, separators,
    controls, format characters, marks): spaces collapsed, the others kept or dropped alike."""
    characters = [chr(code) for code in range(sys.maxunicode + 1)
                  if unicodedata.category(chr(code)) not in {"Cn", "Cs", "Co"}]
    texts = characters + [f"a{char}b" for char in characters if unicodedata.category(char)[0] in "ZCM"]
    browser_keys = keys_in_browser(texts)
    differing = [(f"U+{ord(text[-2] if len(text) == 3 else text):04X}", text, key, name_key(text))
                 for text, key in zip(texts, browser_keys) if key != name_key(text)]
    assert differing == []
