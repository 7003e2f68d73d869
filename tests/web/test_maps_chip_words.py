"""A chip is named with its article as a whole phrase: English says "an orange chip", never
"a orange chip" (a colour slotted into "a %(colour)s chip")."""

from __future__ import annotations

import pytest
from django.utils import translation

from ludolog.web.games.carcassonne_maps import recorder_words
from ludolog.web.games.carcassonne_maps.narration import CHIPS


@pytest.mark.parametrize("language, expected", [
    ("en", {"violet": "a violet chip", "light_blue": "a light blue chip", "orange": "an orange chip"}),
    ("fr", {"violet": "un jeton violet", "light_blue": "un jeton bleu clair", "orange": "un jeton orange"}),
])
def test_each_chip_is_named_with_its_article(language, expected):
    with translation.override(language):
        words = recorder_words()
        assert {colour: str(phrase) for colour, phrase in CHIPS.items()} == expected
        assert {colour: words[f"chip:{colour}"] for colour in expected} == expected
        # The sentences take the whole phrase.
        assert "%(chip)s" in words["island_tile"] and "%(chip)s" in words["island_paid"]
