"""The end of a game explained: the final scoring feature by feature, in the reader's words.

It reads the engine's view of the final position only: the final awards of the tile games (each
with the tiles of its feature, the figures that stood on it and what its points counted) and
Stone Age's ``final_scoring`` (each tribe's final sources with what they multiply). Nothing is
worked out again from the rules: each line's points are the award's or the source's own, and
the sums are the view's scores.

>>> from django.utils import translation
>>> view = {"scores": [{"seat": 0, "total": 9}], "awards": [{"source": "road", "points": 3, "seats": [0],
...         "final": True, "tiles": [[0, 0], [1, 0], [2, 0]], "figures": [{"seat": 0}], "contents": {}}]}
>>> with translation.override("en"):
...     end = explain_end("carcassonne", view)
>>> [(line.feature, line.gains) for group in end.groups for line in group.lines]
[('Road: 3 tiles', ((0, 3),))]
>>> end.before, end.final, end.totals
({0: 6}, {0: 3}, {0: 9})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from . import Position, and_list, number


@dataclass(frozen=True)
class FinalLine:
    target: str
    """What the board shows when the line is chosen: ``award-3`` (the feature of the view's
    fourth award) or ``tribe-0`` (a Stone Age tribe)."""
    feature: str
    """The feature and what its points counted: ``Meadow: 4 deer, 1 sabre-tooth tiger``."""
    figures: tuple[tuple[int, int], ...]
    """(seat, how many of that seat's figures stood on it), seat by seat."""
    gains: tuple[tuple[int, int], ...]
    """(seat, points) for each seat the line scored for (0 points too: a majority that won nothing)."""


@dataclass(frozen=True)
class FinalGroup:
    heading: str
    """What its lines score (``Hunters in the meadows``); empty for a group of one player's."""
    figure_word: str
    """What the figures of its lines are called (``Hunters``), or empty."""
    lines: tuple[FinalLine, ...]
    seat: int | None = None
    """The player whose sources the lines are (Stone Age), else ``None``."""


@dataclass(frozen=True)
class FinalScoring:
    groups: tuple[FinalGroup, ...]
    before: dict[int, int]
    """Seat → points before the final scoring."""
    final: dict[int, int]
    """Seat → points of the final scoring (the lines' gains added up)."""
    totals: dict[int, int]
    """Seat → final score (the view's)."""


def explain_end(game_slug: str, position: Position) -> FinalScoring:
    """The final scoring of a finished game's last ``position`` (the engine's view)."""
    if game_slug == "stone-age":
        groups = _stone_age(position)
    else:
        groups = _tile_game(game_slug, position)
    totals = {int(score["seat"]): int(score["total"]) for score in position.get("scores", [])}
    final = dict.fromkeys(totals, 0)
    for group in groups:
        for line in group.lines:
            for seat, points in line.gains:
                final[seat] = final.get(seat, 0) + points
    return FinalScoring(tuple(groups), {seat: totals[seat] - final.get(seat, 0) for seat in totals}, final, totals)


# -- the tile games -----------------------------------------------------------------------------

GROUPS: Mapping[str, tuple[Promise, Promise]] = {
    "hunter": (gettext_lazy("Hunters in the meadows"), gettext_lazy("Hunters")),
    "hut": (gettext_lazy("Huts on the river systems"), gettext_lazy("Huts")),
    # Carcassonne's meeples by their role ("Farmers" alone is Stone Age's sand-card figure).
    "city": (gettext_lazy("Unfinished cities"), pgettext_lazy("meeples", "Knights")),
    "road": (gettext_lazy("Unfinished roads"), pgettext_lazy("meeples", "Thieves")),
    "cloister": (gettext_lazy("Unfinished cloisters"), pgettext_lazy("meeples", "Monks")),
    "field": (gettext_lazy("Farmers in the fields"), pgettext_lazy("meeples", "Farmers")),
    "goods": (gettext_lazy("Goods (Traders & Builders)"), ""),
}
"""A final award's source → the heading of its group and what its figures are called."""


def _count(singular: str, plural: str, count: int) -> str:
    return ngettext(singular, plural, count) % {"count": number(count)}


def _tiles(award: Mapping[str, Any]) -> str:
    return _count("%(count)s tile", "%(count)s tiles", len(award.get("tiles", [])))


def _meadow(award: Mapping[str, Any]) -> str:
    held = award.get("contents", {})
    # The board's own words for the animals (its text alternative's counted marks).
    animals = [ngettext(one, many, int(held.get(field, 0))) % {"count": int(held.get(field, 0))}
               for field, (one, many) in (("deer", ("%(count)s deer", "%(count)s deer")),
                                          ("mammoths", ("%(count)s mammoth", "%(count)s mammoths")),
                                          ("aurochs", ("%(count)s aurochs", "%(count)s aurochs")),
                                          ("tigers", ("%(count)s sabre-tooth tiger", "%(count)s sabre-tooth tigers")))
               if int(held.get(field, 0))]
    if held.get("fire") and held.get("tigers"):
        animals.append(gettext("fire: the tigers flee"))
    if held.get("shrine"):
        animals.append(gettext("a shrine"))
    contents = ", ".join(animals) or gettext("no animals")
    return gettext("Meadow: %(contents)s") % {"contents": contents}


def _river_system(award: Mapping[str, Any]) -> str:
    held = award.get("contents", {})
    fish = int(held.get("fish", 0))
    lakes = int(held.get("lakes", 0))
    if not lakes:
        return gettext("River system: no lake, no fish")
    return gettext("River system: %(fish)s in %(lakes)s") % {
        "fish": ngettext("%(count)s fish", "%(count)s fish", fish) % {"count": fish},
        "lakes": _count("%(count)s lake", "%(count)s lakes", lakes)}


def _city(award: Mapping[str, Any]) -> str:
    contents = award.get("contents", {})
    if int(contents.get("cathedrals", 0)):
        # Inns & Cathedrals: an unfinished city with a cathedral is worth nothing.
        return gettext("City: %(tiles)s with a cathedral, unfinished: nothing") % {"tiles": _tiles(award)}
    pennants = int(contents.get("pennants", 0))
    if not pennants:
        return gettext("City: %(tiles)s") % {"tiles": _tiles(award)}
    return gettext("City: %(tiles)s and %(pennants)s") % {
        "tiles": _tiles(award), "pennants": _count("%(count)s pennant", "%(count)s pennants", pennants)}


def _road(award: Mapping[str, Any]) -> str:
    if int(award.get("contents", {}).get("inns", 0)):
        return gettext("Road: %(tiles)s with an inn, unfinished: nothing") % {"tiles": _tiles(award)}
    return gettext("Road: %(tiles)s") % {"tiles": _tiles(award)}


GOOD_NAMES: Mapping[str, Promise] = {
    "wine": gettext_lazy("Wine"), "grain": gettext_lazy("Grain"), "cloth": gettext_lazy("Cloth"),
}


def _goods(award: Mapping[str, Any]) -> str:
    (good, most), = dict(award.get("contents", {})).items()
    return gettext("%(good)s: the most tokens, %(tokens)s") % {
        "good": GOOD_NAMES.get(good, good), "tokens": _count("%(count)s token", "%(count)s tokens", int(most))}


def _cloister(award: Mapping[str, Any]) -> str:
    neighbours = int(award.get("contents", {}).get("neighbours", 0))
    return gettext("Cloister: itself and %(neighbours)s") % {
        "neighbours": _count("%(count)s neighbouring tile", "%(count)s neighbouring tiles", neighbours)}


def _field(award: Mapping[str, Any]) -> str:
    cities = int(award.get("contents", {}).get("cities", 0))
    if not cities:
        return gettext("Field: no completed city beside it")
    text = gettext("Field: %(cities)s beside it") % {
        "cities": _count("%(count)s completed city", "%(count)s completed cities", cities)}
    if award.get("contents", {}).get("pig"):
        text += gettext(", the pig's owner 4 a city")
    return text


FEATURES: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    "hunter": _meadow, "hut": _river_system, "city": _city, "road": _road, "cloister": _cloister, "field": _field,
    "goods": _goods,
}


def _tile_game(game_slug: str, position: Position) -> list[FinalGroup]:
    lines: dict[str, list[FinalLine]] = {}
    for index, award in enumerate(position.get("awards", [])):
        if "tiles" not in award:  # scored during the game: the log has said it
            continue
        source = str(award["source"])
        standing = Counter(int(figure["seat"]) for figure in award.get("figures", []))
        lines.setdefault(source, []).append(FinalLine(
            target=f"award-{index}", feature=FEATURES[source](award),
            figures=tuple(sorted(standing.items())),
            gains=tuple((int(seat), int(award["points"])) for seat in award.get("seats", []))))
    order = ("hut", "hunter") if game_slug == "hunters-gatherers" else ("city", "road", "cloister", "field", "goods")
    # The features that scored most first; those worth nothing (a field beside no completed city)
    # last, still there to say why their figures brought nothing.
    return [FinalGroup(str(GROUPS[source][0]), str(GROUPS[source][1]),
                       tuple(sorted(lines[source], key=lambda line: -max((p for _s, p in line.gains), default=0))))
            for source in order if source in lines]


# -- Stone Age ----------------------------------------------------------------------------------

RESOURCE_WORDS: Mapping[str, Promise] = {
    "wood": gettext_lazy("wood"), "clay": gettext_lazy("clay"), "stone": gettext_lazy("stone"),
    "gold": gettext_lazy("gold"),
}


def _resources_left(factors: Mapping[str, Any]) -> str:
    left = [f"{count} {RESOURCE_WORDS.get(name, name)}" for name, count in factors.get("resources", {}).items()
            if count]
    return gettext("Resources left: %(resources)s") % {"resources": ", ".join(left)}


def _green_cards(factors: Mapping[str, Any]) -> str:
    sets = [int(size) for size in factors.get("sets", [])]
    return ngettext("Green cards: a set of %(sets)s different symbols",
                    "Green cards: sets of %(sets)s different symbols", len(sets)) % {
        "sets": and_list(str(size) for size in sets)}


def _times(text: Promise) -> Callable[[Mapping[str, Any]], str]:
    """The sentence of a sand card figure: how many figures, times what."""
    def said(factors: Mapping[str, Any]) -> str:
        return str(text) % {"figures": factors.get("figures", 0), "times": factors.get("times", 0)}
    return said


SOURCES: Sequence[tuple[str, Callable[[Mapping[str, Any]], str]]] = (
    ("leftover_resources", _resources_left),
    ("green_cards", _green_cards),
    ("farmers", _times(gettext_lazy("Farmers: %(figures)s × agriculture %(times)s"))),
    ("tool_makers", _times(gettext_lazy("Tool makers: %(figures)s × tools worth %(times)s"))),
    ("hut_builders", _times(gettext_lazy("Hut builders: %(figures)s × %(times)s buildings"))),
    ("shamans", _times(gettext_lazy("Shamans: %(figures)s × %(times)s people"))),
)
"""Stone Age's final sources, in the score table's order, each with its sentence."""


def _stone_age(position: Position) -> list[FinalGroup]:
    groups = []
    for tribe in position.get("final_scoring", []):
        seat = int(tribe["seat"])
        lines = tuple(
            FinalLine(target=f"tribe-{seat}", feature=said(tribe[source]), figures=(),
                      gains=((seat, int(tribe[source]["points"])),))
            for source, said in SOURCES if int(tribe.get(source, {}).get("points", 0)))
        groups.append(FinalGroup("", "", lines, seat))
    return groups
