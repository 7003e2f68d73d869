"""The shared tile-laying core, with no game in it: geometry, matching, feature merging."""

from __future__ import annotations

import pytest

from games.engines.tiles import (
    Board, Edge, FeatureGraph, Figure, Side, TileDef, TileDefinitionError, UnionFind, majority_owners,
    meeting_sub_edge, neighbour, printed_side)

ROAD = TileDef.build("R", {"N": ("road", (0, 1, 2)), "E": ("field", (2, 2, 2)),
                           "S": ("road", (2, 1, 0)), "W": ("field", (0, 0, 0))},
                     {0: "field", 1: "road", 2: "field"})
CITY_END = TileDef.build("C", {"N": ("city", (0, 0, 0)), "E": ("field", (1, 1, 1)),
                               "S": ("field", (1, 1, 1)), "W": ("field", (1, 1, 1))},
                         {0: "city", 1: "field"})


def test_y_grows_south_and_sides_are_clockwise():
    assert neighbour((0, 0), Side.N) == (0, -1)
    assert neighbour((0, 0), Side.E) == (1, 0)
    assert [s.opposite for s in Side] == [Side.S, Side.W, Side.N, Side.E]


def test_rotation_is_clockwise_quarter_turns():
    assert CITY_END.edge(Side.N, 0).terrain == "city"
    assert CITY_END.edge(Side.E, 1).terrain == "city"
    assert CITY_END.edge(Side.S, 2).terrain == "city"
    assert CITY_END.edge(Side.W, 3).terrain == "city"
    assert printed_side(Side.N, 1) == Side.W


def test_facing_sub_edges_run_in_opposite_directions():
    assert [meeting_sub_edge(i) for i in range(3)] == [2, 1, 0]


def test_a_side_naming_a_missing_feature_is_refused():
    with pytest.raises(TileDefinitionError):
        TileDef.build("X", {s: ("field", (0, 0, 9)) for s in "NESW"}, {0: "field"})


def test_board_requires_adjacency_and_matching_terrain():
    board = Board()
    board.place(ROAD, (0, 0), 0)
    assert board.fits(ROAD, (0, 1), 0)
    assert not board.fits(ROAD, (1, 1), 0)          # corner only
    assert not board.fits(ROAD, (0, 0), 0)          # taken
    assert not board.fits(ROAD, (1, 0), 1)          # road against field
    assert [m.side for m in board.mismatches(ROAD, (1, 0), 1)] == [Side.W]
    assert set(board.frontier) == {(0, -1), (1, 0), (0, 1), (-1, 0)}


def test_feature_completes_when_its_last_open_contact_closes():
    board, graph = Board(), FeatureGraph()
    graph.add_tile(board.place(CITY_END, (0, 0), 0), board)
    city = graph.node(0, 0)
    assert graph.open_contacts(city) == 1 and not graph.is_complete(city)
    graph.add_tile(board.place(CITY_END, (0, -1), 2), board)
    assert graph.is_complete(city) and graph.tile_count(city) == 2
    assert graph.root(graph.node(1, 0)) == graph.root(city)


def test_road_banks_stay_apart_and_roads_join():
    board, graph = Board(), FeatureGraph()
    graph.add_tile(board.place(ROAD, (0, 0), 0), board)
    graph.add_tile(board.place(ROAD, (0, 1), 0), board)
    assert graph.root(graph.node(0, 1)) == graph.root(graph.node(1, 1))
    assert graph.root(graph.node(0, 0)) == graph.root(graph.node(1, 0))   # west fields join
    assert graph.root(graph.node(0, 0)) != graph.root(graph.node(0, 2))   # across the road they do not
    assert graph.open_contacts(graph.node(0, 1)) == 2


def test_a_loop_closes_without_any_end():
    corner = TileDef.build("K", {"N": ("road", (0, 1, 2)), "E": ("road", (2, 1, 0)),
                                 "S": ("field", (0, 0, 0)), "W": ("field", (0, 0, 0))},
                           {0: "field", 1: "road", 2: "field"})
    board, graph = Board(), FeatureGraph()
    for position, turns in (((0, 0), 0), ((1, 0), 3), ((1, -1), 2), ((0, -1), 1)):
        assert not board.placed or board.fits(corner, position, turns)
        graph.add_tile(board.place(corner, position, turns), board)
    assert graph.is_complete(graph.node(0, 1)) and graph.tile_count(graph.node(0, 1)) == 4


def test_figures_follow_their_feature_through_merges_and_come_off_by_kind():
    board, graph = Board(), FeatureGraph()
    graph.add_tile(board.place(CITY_END, (0, 0), 0), board)
    graph.add_figure(Figure(0, "knight", graph.node(0, 0)))
    graph.add_tile(board.place(CITY_END, (0, -1), 2), board)
    graph.add_figure(Figure(1, "knight", graph.node(1, 0)))
    assert sorted(f.owner for f in graph.figures(graph.node(1, 0))) == [0, 1]
    taken = graph.remove_figures(graph.node(0, 0), ["knight"])
    assert len(taken) == 2 and graph.figures(graph.node(0, 0)) == []


def test_union_find_joins_sets():
    uf = UnionFind()
    nodes = [uf.add() for _ in range(5)]
    uf.union(nodes[0], nodes[1])
    uf.union(nodes[3], nodes[4])
    uf.union(nodes[1], nodes[4])
    assert len({uf.find(n) for n in nodes}) == 2


@pytest.mark.parametrize("counts, owners", [
    ({0: 1}, {0}), ({0: 1, 1: 1}, {0, 1}), ({0: 2, 1: 1, 2: 2}, {0, 2}), ({}, set()), ({3: 0}, set()),
])
def test_majority_owners_share_ties(counts: dict[int, int], owners: set[int]):
    assert majority_owners(counts) == owners


# -- what lies beyond the tiles (a map's border, a city printed on a map) -------------------------

def test_a_contact_facing_a_border_closes_and_the_feature_completes():
    board, graph = Board(), FeatureGraph()
    graph.add_tile(board.place(CITY_END, (0, 0), 0), board)
    city = graph.node(0, 0)
    graph.close_contacts(city)
    assert graph.is_complete(city) and graph.tile_count(city) == 1
    with pytest.raises(ValueError, match="0 open contacts"):
        graph.close_contacts(city)
    with pytest.raises(ValueError):
        graph.close_contacts(graph.node(0, 1), 0)


def test_a_printed_feature_joined_by_two_tiles_pools_its_open_contacts():
    """Two city caps facing a printed city with three open edges: the first brings the printed
    city's three contacts and closes one edge and its own side; the second joins it though no
    tile side touches the first, and closes another; the third edge keeps it open."""
    board, graph = Board(), FeatureGraph()
    graph.add_tile(board.place(CITY_END, (0, 2), 0), board)       # its city faces north, (0, 1) printed
    graph.add_tile(board.place(CITY_END, (1, 1), 3), board)       # its city faces west, the printed (0, 1)
    first, second = graph.node(0, 0), graph.node(1, 0)
    assert graph.root(first) != graph.root(second)                # corners only: no tile side joins them
    graph.add_open_contacts(first, 3)
    graph.close_contacts(first, 2)
    graph.join(second, first)
    graph.close_contacts(second, 2)
    graph.add_figure(Figure(0, "knight", first))
    assert graph.root(first) == graph.root(second) and graph.open_contacts(first) == 1
    assert graph.tile_count(second) == 2 and graph.figures(second) == [Figure(0, "knight", first)]
    graph.join(first, second)                                     # already one: nothing changes
    assert graph.open_contacts(first) == 1
    with pytest.raises(ValueError):
        graph.add_open_contacts(first, -1)
    copy = FeatureGraph.from_state(graph.to_state(), Board.from_state(board.to_state(), {"C": CITY_END}))
    assert copy.to_state() == graph.to_state() and copy.open_contacts(second) == 1


def test_a_tile_that_closes_a_feature_names_it_complete_once():
    """The second city end closes the first one's city; the fields stay open."""
    board, graph = Board(), FeatureGraph()
    graph.add_tile(board.place(CITY_END, (0, 0), 0), board)
    graph.add_tile(board.place(CITY_END, (0, -1), 2), board)
    city = graph.root(graph.node(0, 0))
    assert graph.completed(1, [0, 1, 0]) == [city]
    assert graph.completed(0, [1]) == []


def test_a_side_closes_each_feature_of_both_sides_once():
    # Our thirds meet theirs in reverse order; a feature reaching the side twice closes once.
    assert Edge("field", (1, 2, 3)).closing(Edge("field", (7, 8, 8))) == ((1, 8, 2), (2, 8, 1), (3, 7, 2))
    assert Edge("city", (0, 0, 0)).closing(Edge("city", (4, 4, 4))) == ((0, 4, 2),)


def test_the_frontier_follows_the_tiles_laid_however_late_it_is_read():
    board = Board()
    for position in [(0, 0), (0, 1), (1, 1), (2, 1)]:
        board.place(ROAD, position, 0)
    taken = set(board.tiles)
    around = {(x + dx, y + dy) for x, y in taken for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))}
    assert board.frontier == around - taken
    board.place(ROAD, (1, 0), 0)
    assert (1, 0) not in board.frontier and (1, -1) in board.frontier
    assert board.copy().frontier == board.frontier


def test_a_fit_reads_the_same_with_the_tiles_around_given_or_not():
    board = Board()
    board.place(ROAD, (0, 0), 0)
    board.place(CITY_END, (1, 0), 3)
    for position in [(0, 1), (1, 1), (0, -1), (2, 0), (5, 5), (0, 0)]:
        for turns in range(4):
            for tile in (ROAD, CITY_END):
                assert board.fits(tile, position, turns) == board.fits(tile, position, turns, board.around(position))


def test_a_position_stores_the_same_state_whatever_was_asked_of_it():
    """Each node stored with its root as parent, open contacts at roots only: reading features
    (or not) between tiles changes nothing stored."""
    def laid(ask: bool) -> FeatureGraph:
        board, graph = Board(), FeatureGraph()
        for order, (position, turns) in enumerate([((0, 0), 0), ((0, 1), 0), ((0, 2), 0), ((1, 0), 3)]):
            tile = CITY_END if order == 3 else ROAD
            graph.add_tile(board.place(tile, position, turns), board)
            if ask:
                [graph.root(node) for node in range(len(graph.node_tile))]
        return graph

    state = laid(ask=False).to_state()
    assert state == laid(ask=True).to_state()
    parents = state["union_find"]["parent"]
    assert all(parents[parent] == parent for parent in parents)
    assert all(count == 0 for node, count in enumerate(state["open"]) if parents[node] != node)


def test_a_state_stored_with_paths_reads_as_its_roots():
    """Snapshots written before parents were stored as roots keep the paths finds left: three
    roads in a line, the first tile's road node (1) stored pointing at the third's (7), which
    points at the root (4)."""
    board, graph = Board(), FeatureGraph()
    for y in range(3):
        graph.add_tile(board.place(ROAD, (0, y), 0), board)
    state = graph.to_state()
    assert state["union_find"]["parent"][1] == 4 and state["union_find"]["parent"][7] == 4
    with_path = {**state, "union_find": {**state["union_find"], "parent": list(state["union_find"]["parent"])}}
    with_path["union_find"]["parent"][1] = 7
    restored = FeatureGraph.from_state(with_path, Board.from_state(board.to_state(), {"R": ROAD}))
    assert restored.root(1) == 4 and restored.to_state() == state
