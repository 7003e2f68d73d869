"""Seeded chance (games.engines.chance) must deal exactly as Python 3.11's random.Random dealt every
pile, die and draw stored so far, and go on dealing so whatever Python runs it."""

from __future__ import annotations

import random

import pytest

from games.engines.chance import below, roll, sample, shuffle
from games.engines.hunters_gatherers import Game

SEEDS = [0, 1, 7, 42, 2**40 + 3, "12:pile", "3:17"]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_shuffle_deals_as_random_shuffle_for_every_pile_length(seed: int | str) -> None:
    for length in range(0, 130):
        ours, theirs = list(range(length)), list(range(length))
        shuffle(ours, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        assert ours == theirs, (seed, length)


@pytest.mark.parametrize("seed", SEEDS)
def test_dice_and_numbers_below_roll_as_randint_and_randrange(seed: int | str) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for sides in (2, 3, 6, 7, 12, 64, 1000):
        assert [roll(ours, sides) for _ in range(50)] == [theirs.randint(1, sides) for _ in range(50)]
        assert [below(ours, sides) for _ in range(50)] == [theirs.randrange(sides) for _ in range(50)]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_sample_draws_as_random_sample_from_small_and_large_populations(seed: int | str) -> None:
    for size in (1, 5, 8, 21, 22, 40, 300):
        population = [f"item {i}" for i in range(size)]
        for k in sorted({0, 1, min(size, 5), min(size, 6), size // 2, size}):
            assert sample(population, k, random.Random(seed)) == random.Random(seed).sample(population, k)
    with pytest.raises(ValueError):
        sample([1, 2], 3, random.Random(seed))


def test_a_seeded_games_piles_stay_as_dealt() -> None:
    """The first tiles of seed 0's piles, as the engine dealt them with random.Random.shuffle."""
    game = Game.new(4, seed=0)
    assert game.landscape_left[:8] == ("L32", "L41", "L38", "L12", "L78", "L64", "L43", "L02")
    assert game.bonus_left[:4] == ("B04", "B01", "B08", "B03")
