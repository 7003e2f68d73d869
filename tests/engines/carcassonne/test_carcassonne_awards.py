"""Base Carcassonne keeps every scoring as an award: the source, the points, the seats that scored,
the index of the action that caused it, and whether the final scoring gave it. A final award also
says where it lies (the tiles of its feature), which meeples stood on it (they have gone home by
the end) and what its points counted (pennants, a cloister's neighbours, a field's cities).

Plain pytest, no Django. The positions are those of ``test_carcassonne_rules.py`` (start tile D at
(0,0): city north, road east-west, field south); an example needing the final scoring plays a
short pile, so that the game ends once its tiles are laid.
"""

from __future__ import annotations

import pytest

from games.engines.carcassonne import Game, parse_action
from games.engines.carcassonne.game import SNAPSHOT_VERSION, Award, StandingMeeple


def new_game(players: int = 2, pile: list[str] | None = None) -> Game:
    if pile is None:
        return Game.new(players)
    return Game(players, None, list(pile), ordered=False)


def play(game: Game, *texts: str) -> Game:
    for text in texts:
        game.apply(parse_action(text))
    return game


def award(action: int, source: str, points: int, seats: tuple[int, ...], final: bool = False, *,
          tiles: tuple[tuple[int, int], ...] = (), meeples: tuple[StandingMeeple, ...] = (),
          **contents: int) -> dict[str, object]:
    return Award(action, source, points, seats, final, tiles, meeples, tuple(contents.items())).to_dict()


def meeple(seat: int, tile: str, x: int, y: int, feature: int) -> StandingMeeple:
    return StandingMeeple(seat, x, y, tile, feature)


def test_a_fresh_game_has_no_awards():
    assert new_game().view()["awards"] == []


def test_completed_city_with_a_pennant():
    """D + M (pennant) + E closed by seat 1 on the second action: 2 × 3 tiles + 2 for the pennant
    = 8 to seat 0, whose knight it is."""
    game = play(new_game(), "M@0,-1r180 meeple:0", "E@1,-1r270")
    assert game.view()["awards"] == [award(1, "city", 8, (0,))]


def test_completed_road():
    """D + U + W + X: the road closes on the third action, 4 points to seat 0."""
    game = play(new_game(), "U@1,0r0 meeple:0", "W@2,0r0", "X@-1,0r0")
    assert game.view()["awards"] == [award(2, "road", 4, (0,))]


def test_surrounded_cloister():
    """The monk's cloister is surrounded by the eighth action: 9 points."""
    game = play(new_game(), "B@0,1r0 meeple:1", "U@-1,0r0", "U@1,0r0", "E@-1,1r270", "E@1,1r90",
                "E@-1,2r180", "E@0,2r180", "E@1,2r180")
    assert game.view()["awards"] == [award(7, "cloister", 9, (0,))]


def test_a_tie_gives_one_award_to_both_seats():
    game = play(new_game(), "N@0,-1r180 meeple:0", "D@1,0r0 meeple:0", "N@1,-1r270")
    assert game.view()["awards"] == [award(2, "city", 8, (0, 1))]


def test_a_completed_city_nobody_holds_is_no_award():
    assert play(new_game(), "E@0,-1r180").view()["awards"] == []


def test_final_scoring_of_an_unfinished_city_and_road():
    """The last tile (action 1) ends the game: the unfinished city (D + M: 2 tiles + 1 pennant = 3)
    and road (D + U = 2) are awarded with the last action's index, as the final scoring."""
    game = play(new_game(pile=["M", "U"]), "M@0,-1r180 meeple:0", "U@1,0r0 meeple:0")
    assert game.is_over
    assert game.view()["awards"] == [
        award(1, "city", 3, (0,), final=True, tiles=((0, -1), (0, 0)), meeples=(meeple(0, "M", 0, -1, 0),),
              pennants=1),
        award(1, "road", 2, (1,), final=True, tiles=((0, 0), (1, 0)), meeples=(meeple(1, "U", 1, 0, 0),)),
    ]
    assert game.view()["meeples"] == [], "the meeples went home; the awards remember where they stood"


def test_final_scoring_of_an_unfinished_cloister():
    """The cloister and the tiles around it that count: its own, D north of it and U to the
    north-east, 1 + 2 neighbours."""
    game = play(new_game(pile=["B", "U"]), "B@0,1r0 meeple:1", "U@1,0r0")
    assert game.view()["awards"] == [award(1, "cloister", 3, (0,), final=True, tiles=((0, 0), (0, 1), (1, 0)),
                                           meeples=(meeple(0, "B", 0, 1, 1),), neighbours=2)]


def test_farmers_next_to_completed_cities():
    """The farmers of three joined fields, 2 against 1, score 3 for each of the two completed
    cities; the closing of those cities (nobody in them) gave no award."""
    game = new_game(pile=["E", "U", "D", "B", "E", "B"])
    play(game, "E@0,-1r180 meeple:1", "U@1,0r0 meeple:1", "D@2,0r0", "B@0,1r0", "E@2,-1r180 meeple:1", "B@1,-1r0")
    assert game.view()["awards"] == [award(
        5, "field", 6, (0,), final=True, tiles=((0, -1), (0, 0), (1, -1), (1, 0), (2, -1), (2, 0)),
        meeples=(meeple(1, "U", 1, 0, 1), meeple(0, "E", 2, -1, 1), meeple(0, "E", 0, -1, 1)), cities=2)]


def test_a_last_tile_that_completes_a_city_is_awarded_before_the_final_scoring():
    """The closing of the city is a scoring of the game (not final); the farmer's field, scored
    after it, is the final scoring's."""
    game = play(new_game(pile=["H", "E"]), "H@0,-1r0 meeple:2", "E@0,-2r180 meeple:0")
    assert game.view()["awards"] == [award(1, "city", 4, (1,)), award(
        1, "field", 6, (0,), final=True, tiles=((0, -1),), meeples=(meeple(0, "H", 0, -1, 2),), cities=2)]


def test_a_discarded_last_tile_carries_the_final_scoring():
    """Once D's city is closed, C fits nowhere; discarding it, the last tile, is action 1 and
    ends the game: the farmer on E's field scores 3 for the closed city."""
    game = play(new_game(pile=["E", "C"]), "E@0,-1r180 meeple:1", "C discard")
    assert game.is_over
    assert game.view()["awards"] == [award(1, "field", 3, (0,), final=True, tiles=((0, -1),),
                                           meeples=(meeple(0, "E", 0, -1, 1),), cities=1)]


def test_undo_takes_the_award_back_and_playing_again_gives_it_back():
    game = play(new_game(), "M@0,-1r180 meeple:0", "E@1,-1r270")
    game.undo()
    assert game.view()["awards"] == []
    play(game, "E@1,-1r270")
    assert game.view()["awards"] == [award(1, "city", 8, (0,))]


def test_undo_of_a_later_action_keeps_the_earlier_awards():
    game = play(new_game(), "E@0,-1r180 meeple:0", "U@1,0r0")
    game.undo()
    assert game.view()["awards"] == [award(0, "city", 4, (0,))]


def test_a_snapshot_round_trip_keeps_the_awards_and_their_action_indexes():
    """A restored game has no history of positions, yet the awards it goes on to make still carry
    the index of their action in the whole game."""
    game = play(new_game(), "E@0,-1r180 meeple:0", "U@1,0r0 meeple:0", "W@2,0r0")
    restored = Game.from_dict(game.to_dict())
    assert restored.view()["awards"] == game.view()["awards"] == [award(0, "city", 4, (0,))]
    assert restored.to_dict() == game.to_dict()
    play(restored, "X@-1,0r0")
    play(game, "X@-1,0r0")
    assert restored.view()["awards"] == game.view()["awards"] == [award(0, "city", 4, (0,)), award(3, "road", 4, (1,))]


def test_a_whole_seeded_game_awards_add_up_to_the_scores():
    """Every point of a complete game comes from an award, and every award's action is an action
    of the game."""
    from games.engines.carcassonne.simulate import random_game

    game, actions = random_game(3, seed=11)
    view = game.view()
    totals = [0, 0, 0]
    for entry in view["awards"]:
        assert 0 <= entry["action"] < len(actions)
        for seat in entry["seats"]:
            totals[seat] += entry["points"]
    assert totals == [score["total"] for score in view["scores"]]
    assert any(entry["final"] for entry in view["awards"])
    assert all(entry["action"] == len(actions) - 1 for entry in view["awards"] if entry["final"])


def test_an_older_snapshot_is_refused():
    """Version 1 snapshots lack the awards, version 2 where the final ones lie: refusing them
    (ValueError) makes the platform replay."""
    data = play(new_game(), "E@0,-1r180 meeple:0").to_dict()
    assert data["snapshot_version"] == SNAPSHOT_VERSION == 3
    for old in ({key: value for key, value in data.items() if key != "awards"} | {"snapshot_version": 1},
                data | {"snapshot_version": 2}):
        with pytest.raises(ValueError):
            Game.from_dict(old)


def test_a_finished_game_restored_from_its_snapshot_keeps_where_its_final_awards_lie():
    from games.engines.carcassonne.simulate import random_game

    game, _actions = random_game(3, seed=11)
    restored = Game.from_dict(game.to_dict())
    finals = [entry for entry in game.view()["awards"] if entry["final"]]
    assert restored.view()["awards"] == game.view()["awards"] and restored.to_dict() == game.to_dict()
    assert finals and all(entry["tiles"] and entry["figures"] for entry in finals)
    laid = {(tile["x"], tile["y"]): tile["tile"] for tile in game.view()["tiles"]}
    for entry in finals:
        assert {tuple(tile) for tile in entry["tiles"]} <= laid.keys()
        for figure in entry["figures"]:
            assert laid[figure["x"], figure["y"]] == figure["tile"] and [figure["x"], figure["y"]] in entry["tiles"]
        assert set(entry["seats"]) <= {figure["seat"] for figure in entry["figures"]}
