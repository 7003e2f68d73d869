"""Elo ratings for games of two players or more, for the clubs that ask for them.

A game of n players counts as the n(n − 1)/2 duels it holds: each player scores 1 against every
opponent placed below them, ½ against one placed alike, 0 against one above; their rating moves
by K/(n − 1) times what they scored less what their ratings expected (the logistic curve of the
difference, 400 points for odds of ten to one). Dividing K by the opponents keeps a four-player
game from moving a rating three times as far as a duel. Everyone starts at 1500. Elo keeps no
uncertainty: a newcomer's rating moves as much as a veteran's (OpenSkill's σ is what it lacks).

Pure functions, no Django: :mod:`scoring.ratings` applies them game after game.
"""

from __future__ import annotations

from collections.abc import Sequence

START = 1500.0
K = 32.0
SCALE = 400.0


def expected(rating: float, opponent: float) -> float:
    """The share of a duel the ratings expect ``rating`` to win.

    >>> expected(1500, 1500), round(expected(1900, 1500), 3)
    (0.5, 0.909)
    """
    return 1 / (1 + 10 ** ((opponent - rating) / SCALE))


def rate(ratings: Sequence[float], ranks: Sequence[int], k: float = K) -> list[float]:
    """The players' ratings after a game in which they placed ``ranks`` (1 is first; a tie shares
    a place).

    Two newcomers, the first wins: each duel was expected half won, so ±16.

    >>> rate([1500, 1500], [1, 2])
    [1516.0, 1484.0]

    Three players at 1500, 1500 and 1600 placing 2, 1, 3 (K/2 = 16 a duel): the winner scores 2
    where 0.5 + 0.360 was expected (+18.24); the second scores 1 (beating the 1600) for 0.860
    expected (+2.24); the 1600 loses both duels it was expected to win 0.640 each (−20.48).

    >>> [round(r, 2) for r in rate([1500, 1500, 1600], [2, 1, 3])]
    [1502.24, 1518.24, 1579.52]
    """
    players = len(ratings)
    if players < 2:
        return list(ratings)
    step = k / (players - 1)
    after = []
    for me, (rating, rank) in enumerate(zip(ratings, ranks)):
        score = sum(1.0 if rank < other_rank else 0.5 if rank == other_rank else 0.0
                    for other, other_rank in enumerate(ranks) if other != me)
        hoped = sum(expected(rating, ratings[other]) for other in range(players) if other != me)
        after.append(rating + step * (score - hoped))
    return after
