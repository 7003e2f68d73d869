"""A seeded game's piles are shuffled by games.engines.chance.shuffle, which must deal exactly as
Python 3.11's random.Random.shuffle dealt every pile stored so far, and go on dealing so."""

from __future__ import annotations

import random

import pytest

from games.engines.chance import shuffle
from games.engines.hunters_gatherers import Game


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2**40 + 3, "12:pile"])
def test_it_deals_as_random_shuffle_for_every_pile_length(seed: int | str) -> None:
    for length in range(0, 130):
        ours, theirs = list(range(length)), list(range(length))
        shuffle(ours, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        assert ours == theirs, (seed, length)


def test_a_seeded_games_piles_stay_as_dealt() -> None:
    """The first tiles of seed 0's piles, as the engine dealt them with random.Random.shuffle."""
    game = Game.new(4, seed=0)
    assert game.landscape_left[:8] == ("L32", "L41", "L38", "L12", "L78", "L64", "L43", "L02")
    assert game.bonus_left[:4] == ("B04", "B01", "B08", "B03")
