"""Table assignment for tournaments of multiplayer tables, as pure functions over plain values.

One round at a time: :func:`table_sizes` says how many tables of which size, :func:`history_of` folds
the past rounds' tables into a :class:`History` (who met whom, who sat where, the points), and
:func:`assign` seats the present players. The assignment is a value: its tables in standings order
(table 1 the leaders'), each table's players in seat order (first player first) and the reasons the
pairing page words ("the players ranked 1–4", "no pair met before", "Ada sits first: she never has").

>>> first = assign(range(1, 9), history_of([], {}), 4, seed=7, round_number=1)
>>> [len(table.players) for table in first.tables], first.repeats
([4, 4], 0)
>>> past = [[(1, 2, 3, 4), (5, 6, 7, 8)]]
>>> second = assign(range(1, 9), history_of(past, {1: 6, 2: 4, 3: 2, 4: 1, 5: 6, 6: 4, 7: 2, 8: 1}), 4,
...                 seed=7, round_number=2)
>>> second.repeats, [sorted(table.players) for table in second.tables]
(4, [[1, 2, 5, 6], [3, 4, 7, 8]])

Eight players in two fours always repeat four pairs in round 2 (each table of round 1 sends two
players to each table at best); the engine says so on the table (``repeat`` with
``unavoidable: True``, proven by trying every split of eight players). The leaders of both tables
meet at table 1, and each player takes a seat they have not had:

>>> [reason.params for reason in second.tables[0].why if reason.code == "repeat"][0]
{'players': (1, 2), 'times': 1, 'unavoidable': True}
>>> [reason.params["times_before"] for reason in second.tables[0].why if reason.code == "seat"]
[0, 0, 0, 0]

What is minimised, in this order of weight: meetings of pairs who met before (and, in round 1,
of pairs asked to be kept apart); seats a player has had more often than their least-used seat;
the spread of standings within a table. The search: the standings cut into tables (round 1: the
players drawn by the seed), then improving swaps of two players between tables until none helps
(Kernighan–Lin-like passes over the tables changed since the last pass), then seeded random kicks
while a repeat or a seat penalty remains; every split is tried outright when the players are few (``EXACT_UP_TO``).
Each table's seat order is the best of its permutations for the players' past seats.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 6

EXACT_UP_TO = 9
"""Up to this many players every split into tables is tried (at most 280 for 9 in threes)."""

REPEAT_WEIGHT = 1_000_000
"""A repeat meeting outweighs any seat and standings cost a round can have."""

SEAT_WEIGHT = 200
"""One seat more often than the player's least-used one, against the squared standings spread."""

NEIGHBOURS = 3
"""Tables on either side of a table in the standings that its swaps are tried with."""

PROOF_BUDGET = 60_000
"""Steps of :func:`fewest_repeats` spent to prove a round's repeats unavoidable, for its reasons."""

KICKS_PER_PLAYER = 10
"""Random swaps tried per player while repeats remain after the passes (seeded)."""


class PairingError(ValueError):
    """An assignment that cannot be asked for; ``reason`` is the machine-readable word."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Reason:
    """Why a table is what it is, for the page to word: a code and its values.

    Codes: ``drawn`` (round 1, drawn with ``seed``), ``standings`` (``from``, ``to``: the ranks of
    the table's players), ``no_repeat``, ``repeat`` (``players``: the pair, ``times``: how often
    they met before, ``unavoidable``: True when proven that no split of the round avoids as many
    repeats), ``kept_apart`` (round 1: no pair asked to be apart is at this table),
    ``together_despite_request`` (``players``), ``seat`` (``player``, ``seat`` 0 = first,
    ``times_before``: how often the player sat there before).
    """

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    """One table of a round: ``players`` in seat order (first player first), ``why`` its reasons."""

    number: int
    players: tuple[int, ...]
    why: tuple[Reason, ...] = ()


@dataclass(frozen=True)
class Assignment:
    """A round's tables (table 1 the top of the standings), with the repeats it could not avoid.

    ``exact`` is True when every split was tried, so ``repeats`` is the fewest possible; otherwise
    a round with repeats is checked by :func:`fewest_repeats` (``PROOF_BUDGET`` steps) for the
    reasons' ``unavoidable``.
    ``repeats_lower_bound`` is a count of repeats no split can avoid (see :func:`repeats_lower_bound`).
    """

    round_number: int
    tables: tuple[Table, ...]
    repeats: int
    exact: bool
    repeats_lower_bound: int


@dataclass(frozen=True)
class History:
    """What the past rounds left: ``met`` (pair → times at one table), ``seats`` (player → count per
    seat position, index 0 the first player), ``points`` (player → points so far) and ``apart``
    (pairs of friends or family to keep apart in round 1)."""

    met: Mapping[frozenset[int], int] = field(default_factory=dict)
    seats: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    points: Mapping[int, float] = field(default_factory=dict)
    apart: Collection[frozenset[int]] = frozenset()

    def times_met(self, a: int, b: int) -> int:
        return self.met.get(frozenset((a, b)), 0)


def table_sizes(players: int, table_size: int) -> tuple[int, ...]:
    """The sizes of one round's tables, largest first: short tables instead of byes.

    The rule: as many tables of ``table_size`` as the count allows, the rest one short
    (``table_size - 1``), never a table of one. When that cannot be done (too few players for
    the short tables: 5 at 4, or a table of 1 at 2), as many tables as the count holds with the
    extra players one each at a table of ``table_size + 1``. Only when neither works (fewer
    players than a table, or 8 at 6) are the players split into ``ceil(players / table_size)``
    tables as evenly as possible.

    >>> table_sizes(13, 4), table_sizes(10, 4), table_sizes(6, 4), table_sizes(5, 4)
    ((4, 3, 3, 3), (4, 3, 3), (3, 3), (5,))
    >>> table_sizes(64, 4), table_sizes(200, 5), table_sizes(3, 2), table_sizes(8, 6), table_sizes(3, 5)
    ((4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4), (5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5), (3,), (4, 4), (3,))
    >>> table_sizes(9, 7)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    tournaments.pairing.PairingError: a table seats 2 to 6 players, not 7
    """
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise PairingError("table_size_out_of_range",
                           f"a table seats {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} players, not {table_size}")
    if players < 2:
        raise PairingError("too_few_players", f"a round needs at least 2 players, not {players}")
    tables = math.ceil(players / table_size)
    sizes = _even_split(players, tables)
    if sizes[-1] >= max(table_size - 1, 2):
        return sizes
    tables_with_extra = players // table_size
    if tables_with_extra and players - tables_with_extra * table_size <= tables_with_extra:
        return _even_split(players, tables_with_extra)
    return sizes


def _even_split(players: int, tables: int) -> tuple[int, ...]:
    base, larger = divmod(players, tables)
    return tuple([base + 1] * larger + [base] * (tables - larger))


def history_of(rounds: Sequence[Sequence[Sequence[int]]], points: Mapping[int, float],
               apart: Iterable[Iterable[int]] = ()) -> History:
    """The history after ``rounds`` (each a list of tables, each table its players in seat order).

    >>> h = history_of([[(1, 2, 3), (4, 5)], [(3, 1, 4), (2, 5)]], {1: 5, 2: 3}, apart=[(1, 4)])
    >>> h.times_met(1, 3), h.times_met(2, 5), h.times_met(1, 5), h.seats[1], h.seats[5]
    (2, 1, 0, (1, 1), (0, 2))
    >>> frozenset((1, 4)) in h.apart
    True
    """
    met: dict[frozenset[int], int] = {}
    seats: dict[int, list[int]] = {}
    for tables in rounds:
        for table in tables:
            for position, player in enumerate(table):
                counts = seats.setdefault(player, [])
                counts.extend([0] * (position + 1 - len(counts)))
                counts[position] += 1
            for a, b in itertools.combinations(table, 2):
                pair = frozenset((a, b))
                met[pair] = met.get(pair, 0) + 1
    return History(met=met, seats={player: tuple(counts) for player, counts in seats.items()},
                   points=dict(points), apart=frozenset(frozenset(pair) for pair in apart))


def seat_imbalance(rounds: Sequence[Sequence[Sequence[int]]]) -> float:
    """The largest difference between a player's count in a seat position and their mean there.

    ``rounds``: each round's tables, players in seat order. A player's mean at a position is what
    seats drawn at random at their tables would give: a round at a table of ``s`` adds ``1 / s``
    to each of its ``s`` positions. With tables of one size that is rounds / size everywhere.

    >>> seat_imbalance([[(1, 2, 3, 4)], [(2, 3, 4, 1)], [(3, 4, 1, 2)], [(4, 1, 2, 3)], [(1, 2, 3, 4)]])
    0.75
    >>> round(seat_imbalance([[(1, 2, 3, 4)], [(1, 2, 3)], [(2, 1, 3)]]), 3)  # 3: third thrice, 1/4 + 1/3 + 1/3 expected
    2.083
    """
    counts: dict[int, list[float]] = {}
    expected: dict[int, list[float]] = {}
    for tables in rounds:
        for table in tables:
            for position, player in enumerate(table):
                for book in (counts, expected):
                    row = book.setdefault(player, [])
                    row.extend([0.0] * (len(table) - len(row)))
                counts[player][position] += 1
                for other in range(len(table)):
                    expected[player][other] += 1 / len(table)
    return max((abs(count - mean) for player in counts
                for count, mean in zip(counts[player], expected[player])), default=0.0)


def repeats_lower_bound(players: Sequence[int], history: History, sizes: Sequence[int]) -> int:
    """Repeats that no split into ``sizes`` avoids, by a counting argument (a bound, often 0).

    Every player sits with at least ``min(sizes) - 1`` others; one who has not met that many of
    the present players must sit with some they met. Each such pair is counted from both sides.

    >>> met_all = history_of([[(1, 2, 3)]], {})
    >>> repeats_lower_bound([1, 2, 3], met_all, [3])
    3
    """
    present = list(players)
    forced = 0
    for player in present:
        unmet = sum(1 for other in present if other != player and history.times_met(player, other) == 0)
        forced += max(0, min(sizes) - 1 - unmet)
    return math.ceil(forced / 2)


def fewest_repeats(players: Sequence[int], history: History, sizes: Sequence[int], *,
                   budget: int = 200_000, known: int | None = None) -> int | None:
    """The fewest pairs who met before that a split of ``players`` into ``sizes`` must seat together,
    by a depth-first search cut at the best found so far; None when ``budget`` steps do not settle it.
    ``known``: the repeats of a split in hand, so that only fewer need be looked for.

    For checking an assignment (the simulation, the tests), not for making one.

    >>> past = history_of([[(1, 2, 3, 4), (5, 6, 7, 8)]], {})
    >>> fewest_repeats(range(1, 9), past, (4, 4)), fewest_repeats(range(1, 9), past, (4, 4), budget=3)
    (4, None)
    """
    present = list(players)
    best = [sum(max(0, size - 1) * size // 2 for size in sizes) + 1 if known is None else known]
    steps = [0]

    def place(index: int, tables: list[list[int]], repeats: int) -> bool:
        steps[0] += 1
        if steps[0] > budget:
            return False
        if repeats >= best[0]:
            return True
        if index == len(present):
            best[0] = repeats
            return True
        player = present[index]
        tried_empty: set[int] = set()
        for t, table in enumerate(tables):
            if len(table) == sizes[t]:
                continue
            if not table:
                if sizes[t] in tried_empty:
                    continue
                tried_empty.add(sizes[t])
            added = sum(1 for other in table if history.times_met(player, other))
            table.append(player)
            settled = place(index + 1, tables, repeats + added)
            table.pop()
            if not settled:
                return False
        return True

    return best[0] if place(0, [[] for _ in sizes], 0) else None


def assign(players: Iterable[int], history: History, table_size: int, *, seed: int,
           round_number: int) -> Assignment:
    """Seat ``players`` for round ``round_number`` (1 for the first) at tables of about ``table_size``.

    Deterministic: the same players, history, size, seed and round give the same assignment.
    Refuses a player listed twice (``PairingError`` ``player_twice``) and the sizes
    :func:`table_sizes` refuses.
    """
    present = list(players)
    if len(set(present)) != len(present):
        twice = sorted({p for p in present if present.count(p) > 1})
        raise PairingError("player_twice", f"a player is listed twice: {twice}")
    sizes = table_sizes(len(present), table_size)
    rng = random.Random(f"tournament-pairing:{seed}:{round_number}")
    search = _Search(present, history, sizes, round_number, rng)
    groups, exact = search.run()
    return search.assignment(groups, exact, seed)


def best_seat_orders(seat_counts: Sequence[Sequence[int]]) -> tuple[int, list[tuple[int, ...]]]:
    """The seat order of one table for its players' past seats: the lowest seat penalty and every
    order reaching it (``order[position]`` is the index in ``seat_counts`` of who sits there).

    A player's penalty at a position is how often they sat there more than at their least-used
    position of the table. The one body of that rule: :func:`assign`'s tables and the fixed
    tables of :func:`seat_fixed_tables` (a round robin's schedule) are seated by it.

    >>> best_seat_orders([(1, 0, 0), (0, 1, 0), (0, 0, 1)])
    (0, [(1, 2, 0), (2, 0, 1)])
    """
    size = len(seat_counts)
    penalties = []
    for counts in seat_counts:
        row = list(counts[:size]) + [0] * (size - len(counts[:size]))
        least = min(row)
        penalties.append([count - least for count in row])
    best, orders = None, []
    for order in itertools.permutations(range(size)):
        cost = sum(penalties[member][position] for position, member in enumerate(order))
        if best is None or cost < best:
            best, orders = cost, [order]
        elif cost == best:
            orders.append(order)
    return int(best or 0), orders


def seat_fixed_tables(tables: Sequence[Sequence[int]], history: History, *, seed: int, round_number: int,
                      reason: Reason) -> Assignment:
    """A round whose tables are already decided (a round robin's schedule), each seated by
    :func:`best_seat_orders` for its players' past seats, the seed drawing among equal orders.
    Each table's reasons: ``reason`` (why these players), then each player's ``seat``.

    >>> fixed = seat_fixed_tables([(1, 2, 3)], history_of([[(1, 2, 3)]], {}), seed=1, round_number=2,
    ...                           reason=Reason("round_robin", {"round": 2, "rounds": 4}))
    >>> fixed.tables[0].players[0] != 1, [r.code for r in fixed.tables[0].why]
    (True, ['round_robin', 'seat', 'seat', 'seat'])
    """
    rng = random.Random(f"tournament-pairing:{seed}:{round_number}")
    seated_tables = []
    for number, group in enumerate(tables, start=1):
        players = sorted(group)
        counts = [history.seats.get(player, ()) for player in players]
        _, orders = best_seat_orders(counts)
        order = rng.choice(orders)
        seated = tuple(players[member] for member in order)
        why = [reason]
        for position, player in enumerate(seated):
            before = tuple(history.seats.get(player, ())) + (0,) * (position + 1)
            why.append(Reason("seat", {"player": player, "seat": position, "times_before": before[position]}))
        seated_tables.append(Table(number, seated, tuple(why)))
    repeats = sum(history.times_met(a, b) > 0 for table in tables for a, b in itertools.combinations(table, 2))
    return Assignment(round_number, tuple(seated_tables), repeats, True, 0)


class _Search:
    """One round's search over indices 0..n-1 of the players, in standings order."""

    def __init__(self, present: list[int], history: History, sizes: tuple[int, ...], round_number: int,
                 rng: random.Random) -> None:
        self.rng = rng
        self.sizes = sizes
        self.round_number = round_number
        self.history = history
        shuffled = sorted(present)
        rng.shuffle(shuffled)
        # Swiss order: points first; the seeded draw decides among equal points (and all of round 1).
        self.players = sorted(shuffled, key=lambda p: -history.points.get(p, 0))
        n = len(self.players)
        points = [history.points.get(p, 0) for p in self.players]
        self.rank = [1 + sum(other > mine for other in points) for mine in points]
        self.conflict = [[0] * n for _ in range(n)]
        for i, j in itertools.combinations(range(n), 2):
            a, b = self.players[i], self.players[j]
            times = history.times_met(a, b)
            if round_number == 1 and frozenset((a, b)) in history.apart:
                times += 1
            self.conflict[i][j] = self.conflict[j][i] = times
        widest = max(sizes)
        self.seat_counts = []
        for p in self.players:
            counts = list(history.seats.get(p, ()))
            self.seat_counts.append(counts + [0] * (widest - len(counts)))
        self._cost_memo: dict[tuple[int, ...], tuple[int, float]] = {}
        self._rows: dict[tuple[int, int], tuple[int, ...]] = {}
        self._seat_memo: dict[tuple[tuple[int, ...], ...], int] = {}

    # -- costs -----------------------------------------------------------------------------------

    def repeats(self, group: Sequence[int]) -> int:
        return sum(self.conflict[i][j] > 0 for i, j in itertools.combinations(group, 2))

    def best_seating(self, group: Sequence[int]) -> tuple[int, list[tuple[int, ...]]]:
        """The lowest seat penalty of ``group`` and every permutation (position → index) reaching it."""
        return best_seat_orders([self.seat_counts[i] for i in group])

    def cost(self, group: Sequence[int]) -> float:
        """The table's whole cost: repeats, then seat penalties, then the standings' spread."""
        return self._costs(group)[1]

    def hard_cost(self, group: Sequence[int]) -> int:
        """The repeats and seat penalties of a table, without the standings' spread."""
        return self._costs(group)[0]

    def _costs(self, group: Sequence[int]) -> tuple[int, float]:
        key = tuple(sorted(group))
        known = self._cost_memo.get(key)
        if known is not None:
            return known
        conflict = self.conflict
        repeats = 0
        for x, i in enumerate(key):
            row = conflict[i]
            for j in key[x + 1:]:
                repeats += row[j]
        ranks = [self.rank[i] for i in key]
        mean = sum(ranks) / len(ranks)
        spread = sum((r - mean) ** 2 for r in ranks)
        seat = self._seat_cost(key)
        hard = REPEAT_WEIGHT * repeats + SEAT_WEIGHT * seat
        value = (hard, hard + spread)
        self._cost_memo[key] = value
        return value

    def _seat_cost(self, key: tuple[int, ...]) -> int:
        """The least total seat penalty of the players ``key`` (kept by their penalties, which repeat)."""
        size = len(key)
        rows = tuple(sorted(self._penalty_row(i, size) for i in key))
        known = self._seat_memo.get(rows)
        if known is not None:
            return known
        self._seat_memo[rows] = cost = _least_penalty(rows, size)
        return cost

    def _penalty_row(self, i: int, size: int) -> tuple[int, ...]:
        key = (i, size)
        row = self._rows.get(key)
        if row is None:
            counts = self.seat_counts[i][:size]
            least = min(counts)
            row = self._rows[key] = tuple(count - least for count in counts)
        return row

    # -- search ----------------------------------------------------------------------------------

    def run(self) -> tuple[list[list[int]], bool]:
        n = len(self.players)
        if n <= EXACT_UP_TO:
            return self.exhaustive(), True
        groups = self.fill_from_the_top()
        self.improve(groups)
        kicks = KICKS_PER_PLAYER * n
        floor = SEAT_WEIGHT * self.seat_penalty_floor()
        while kicks > 0 and sum(self.hard_cost(g) for g in groups) > floor:
            tries = min(kicks, 4 * n)
            kicks -= tries
            self.improve(groups, self.kick(groups, tries))
        return groups, False

    def fill_from_the_top(self) -> list[list[int]]:
        """Tables filled in standings order, each taking the next player who meets no one again
        and leaves every player of the table a least-used seat; the rest in order."""
        remaining = list(range(len(self.players)))
        groups = []
        for size in self.sizes:
            group: list[int] = []
            for i in remaining:
                if len(group) == size:
                    break
                if any(self.conflict[i][j] for j in group):
                    continue
                rows = [self._penalty_row(j, size) for j in (*group, i)]
                if _least_penalty(rows, size) == 0:
                    group.append(i)
            for i in remaining:
                if len(group) == size:
                    break
                if i not in group:
                    group.append(i)
            taken = set(group)
            remaining = [i for i in remaining if i not in taken]
            groups.append(group)
        return groups

    def seat_penalty_floor(self) -> int:
        """Seat penalties no split can avoid: the players who cannot all have a least-used seat.

        How many can is a maximum flow from the players (grouped by their set of least-used
        seats) to the seat positions, each position as many times as there are tables with it.
        """
        capacity = [sum(size > position for size in self.sizes) for position in range(max(self.sizes))]
        patterns: dict[tuple[int, ...], int] = {}
        for i in range(len(self.players)):
            row = self._penalty_row(i, max(self.sizes))
            free = tuple(position for position, penalty in enumerate(row) if penalty == 0)
            patterns[free] = patterns.get(free, 0) + 1
        return len(self.players) - _max_flow(patterns, capacity)

    def exhaustive(self) -> list[list[int]]:
        best: tuple[float, list[list[int]]] | None = None
        for split in _splits(list(range(len(self.players))), sorted(self.sizes, reverse=True)):
            total = sum(self.cost(group) for group in split)
            if best is None or total < best[0] - 1e-9:
                best = (total, [list(g) for g in split])
        assert best is not None
        return best[1]

    def improve(self, groups: list[list[int]], dirty: set[int] | None = None) -> None:
        """Swap two players of two tables while it lowers the cost; re-examine changed tables only.

        A table is tried against its ``NEIGHBOURS`` on either side in the standings (where a swap
        keeps the standings close), and against every table while it holds a repeat (seat
        penalties left are for the random kicks, which reach every table for less).
        """
        dirty = set(range(len(groups))) if dirty is None else dirty
        while dirty:
            t = min(dirty)
            dirty.discard(t)
            if self.hard_cost(groups[t]) >= REPEAT_WEIGHT:
                others = range(len(groups))
            else:
                others = range(max(0, t - NEIGHBOURS), min(len(groups), t + NEIGHBOURS + 1))
            for u in others:
                if u != t and self._best_swap(groups, t, u):
                    dirty.add(t)
                    dirty.add(u)

    def _best_swap(self, groups: list[list[int]], t: int, u: int) -> bool:
        a_group, b_group = groups[t], groups[u]
        before = self.cost(a_group) + self.cost(b_group)
        best_delta, best_move = -1e-9, None
        for x, a in enumerate(a_group):
            for y, b in enumerate(b_group):
                new_a = a_group[:x] + [b] + a_group[x + 1:]
                new_b = b_group[:y] + [a] + b_group[y + 1:]
                delta = self.cost(new_a) + self.cost(new_b) - before
                if delta < best_delta:
                    best_delta, best_move = delta, (x, y)
        if best_move is None:
            return False
        x, y = best_move
        a_group[x], b_group[y] = b_group[y], a_group[x]
        return True

    def kick(self, groups: list[list[int]], tries: int) -> set[int]:
        """Random swaps of a player at a table with a repeat or a seat penalty, kept unless they
        make those worse (a walk over the plateau the passes stopped on); the tables changed."""
        changed: set[int] = set()
        troubled = sorted(t for t, g in enumerate(groups) if self.hard_cost(g))
        for _ in range(tries):
            if not troubled:
                break
            t = self.rng.choice(troubled)
            u = self.rng.randrange(len(groups) - 1)
            u += u >= t
            a_group, b_group = groups[t], groups[u]
            x = self.rng.randrange(len(a_group))
            before = self.hard_cost(a_group) + self.hard_cost(b_group)
            # the best partner for player x at table u; ties drawn
            options = []
            for y in range(len(b_group)):
                a_group[x], b_group[y] = b_group[y], a_group[x]
                options.append((self.hard_cost(a_group) + self.hard_cost(b_group), self.rng.random(), y))
                a_group[x], b_group[y] = b_group[y], a_group[x]
            after, _, y = min(options)
            if after > before:
                continue
            a_group[x], b_group[y] = b_group[y], a_group[x]
            changed.update((t, u))
            for v in (t, u):
                if self.hard_cost(groups[v]) and v not in troubled:
                    troubled.append(v)
                elif not self.hard_cost(groups[v]) and v in troubled:
                    troubled.remove(v)
        return changed

    # -- the answer ------------------------------------------------------------------------------

    def assignment(self, groups: list[list[int]], exact: bool, seed: int) -> Assignment:
        groups = sorted(groups, key=lambda g: (sum(self.rank[i] for i in g) / len(g), min(g)))
        groups = sorted(groups, key=len, reverse=True) if self.round_number == 1 else groups
        total_repeats = sum(self.repeats(g) for g in groups)
        bound = repeats_lower_bound(self.players, self.history, self.sizes)
        unavoidable = exact or total_repeats <= bound
        if not unavoidable and total_repeats:
            fewest = fewest_repeats(self.players, self.history, [len(g) for g in groups], budget=PROOF_BUDGET,
                                    known=total_repeats)
            unavoidable = fewest == total_repeats
        tables = []
        for number, group in enumerate(groups, start=1):
            _, orders = self.best_seating(group)
            order = self.rng.choice(orders)
            seated = [group[member] for member in order]
            why: list[Reason] = []
            if self.round_number == 1 or len(set(self.rank)) == 1:
                why.append(Reason("drawn", {"seed": seed}))
            else:
                ranks = [self.rank[i] for i in group]
                why.append(Reason("standings", {"from": min(ranks), "to": max(ranks)}))
            by_player = sorted(group, key=lambda i: self.players[i])
            meetings = [(self.players[i], self.players[j])
                        for i, j in itertools.combinations(by_player, 2)
                        if self.history.times_met(self.players[i], self.players[j])]
            for a, b in meetings:
                why.append(Reason("repeat", {"players": (a, b), "times": self.history.times_met(a, b),
                                             "unavoidable": unavoidable}))
            if not meetings:
                why.append(Reason("no_repeat"))
            if self.round_number == 1 and self.history.apart:
                together = [(self.players[i], self.players[j])
                            for i, j in itertools.combinations(by_player, 2)
                            if frozenset((self.players[i], self.players[j])) in self.history.apart]
                for a, b in together:
                    why.append(Reason("together_despite_request", {"players": (a, b)}))
                if not together:
                    why.append(Reason("kept_apart"))
            for position, i in enumerate(seated):
                why.append(Reason("seat", {"player": self.players[i], "seat": position,
                                           "times_before": self.seat_counts[i][position]}))
            tables.append(Table(number, tuple(self.players[i] for i in seated), tuple(why)))
        return Assignment(self.round_number, tuple(tables), total_repeats, exact, bound)


def _least_penalty(rows: Sequence[Sequence[int]], size: int) -> int:
    """The least sum of ``rows[member][position]`` over the ways to give each member one of
    ``size`` positions: a walk over the sets of positions taken (``2 ** size``, size ≤ 7)."""
    members = len(rows)
    full = (1 << size) - 1
    best = [1 << 30] * (full + 1)
    best[0] = 0
    for mask in range(full):
        member = mask.bit_count()
        if member >= members:
            continue
        row, so_far = rows[member], best[mask]
        for position in range(size):
            bit = 1 << position
            if not mask & bit and so_far + row[position] < best[mask | bit]:
                best[mask | bit] = so_far + row[position]
    return min(best[mask] for mask in range(full + 1) if mask.bit_count() == members)


def _max_flow(groups: Mapping[tuple[int, ...], int], capacity: Sequence[int]) -> int:
    """The most members of ``groups`` (allowed positions → how many) placed within ``capacity``."""
    sources = list(groups.items())
    flow = [[0] * len(capacity) for _ in sources]
    left = [count for _, count in sources]
    room = list(capacity)

    def augment(g: int, seen: set[int]) -> bool:
        for position in sources[g][0]:
            if position in seen:
                continue
            seen.add(position)
            if room[position] > 0:
                room[position] -= 1
                flow[g][position] += 1
                return True
            for h in range(len(sources)):
                if flow[h][position] > 0 and augment(h, seen):
                    flow[h][position] -= 1
                    flow[g][position] += 1
                    return True
        return False

    placed = 0
    for g in range(len(sources)):
        while left[g] and augment(g, set()):
            left[g] -= 1
            placed += 1
    return placed


def _splits(players: list[int], sizes: list[int]) -> Iterable[list[tuple[int, ...]]]:
    """Every split of ``players`` into tables of ``sizes`` (as a multiset), each split once."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes), reverse=True):
        remaining = list(sizes)
        remaining.remove(size)
        for companions in itertools.combinations(rest, size - 1):
            chosen = set(companions)
            for later in _splits([p for p in rest if p not in chosen], remaining):
                yield [(first, *companions), *later]


def round_robin(players: Sequence[int], table_size: int) -> list[tuple[tuple[int, ...], ...]] | None:
    """Rounds in which every pair of ``players`` meets exactly once, where the numbers allow one.

    Built for two cases: tables of 2 with an even count (the circle method, ``n - 1`` rounds), and
    ``q * q`` players at tables of ``q`` for ``q`` in 3, 4, 5 (an affine plane: ``q + 1`` rounds,
    each round a parallel class of lines). Otherwise None (a Swiss tournament is the answer).

    >>> rounds = round_robin(range(9), 3)
    >>> len(rounds), rounds[0]
    (4, ((0, 1, 2), (3, 4, 5), (6, 7, 8)))
    >>> round_robin(range(10), 3) is None
    True
    """
    people = list(players)
    n = len(people)
    if table_size == 2 and n >= 2 and n % 2 == 0:
        return _circle(people)
    if table_size in _FIELDS and n == table_size * table_size:
        return _affine_plane(people, table_size)
    return None


def _circle(people: list[int]) -> list[tuple[tuple[int, ...], ...]]:
    n = len(people)
    ring = people[1:]
    rounds = []
    for r in range(n - 1):
        turned = ring[r:] + ring[:r]
        line = [people[0], *turned]
        rounds.append(tuple((line[i], line[n - 1 - i]) for i in range(n // 2)))
    return rounds


def _prime_field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    return ([[(a + b) % q for b in range(q)] for a in range(q)],
            [[(a * b) % q for b in range(q)] for a in range(q)])


# GF(4) = {0, 1, x, x+1} as 0..3 (bits of the polynomial), x² = x + 1.
_GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
_FIELDS = {
    3: _prime_field(3),
    4: ([[a ^ b for b in range(4)] for a in range(4)], _GF4_MUL),
    5: _prime_field(5),
}


def _affine_plane(people: list[int], q: int) -> list[tuple[tuple[int, ...], ...]]:
    add, mul = _FIELDS[q]

    def point(x: int, y: int) -> int:
        return people[x * q + y]

    rounds = [tuple(tuple(point(x, y) for y in range(q)) for x in range(q))]  # the lines x = c
    for slope in range(q):
        lines = []
        for intercept in range(q):
            lines.append(tuple(point(x, add[mul[slope][x]][intercept]) for x in range(q)))
        rounds.append(tuple(lines))
    return rounds
