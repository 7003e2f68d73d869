"""A Stone Age position drawn as one SVG: the card row, the building stacks, the places of the
board with the people on them, and each tribe's supplies. Pure function of the engine's
``view()`` (no Django); the page passes Django's ``gettext`` as ``translate``.

At the end of a game each tribe has an outline, hidden until a reader picks one of its lines of
the final scoring (``show="tribe-0"``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from ...tile_frame import seat_colour
from ...plurals import plural_noop

Translate = Callable[[str], str]

WIDTH = 360
"""Phone first: one column of cards and buildings, the places two by two, so that the board
shown the width of a 390 px phone draws its smallest words (15 units) at 14 px or more."""
MARGIN = 8
INNER = WIDTH - 2 * MARGIN
SMALL = 15
BODY = 16
PLACES = ("hunting_grounds", "forest", "clay_pit", "quarry", "river", "field", "hut", "tool_maker")
RESOURCES = ("wood", "clay", "stone", "gold")
PLACE_COLOURS = {
    "hunting_grounds": "#d8c38a", "forest": "#6f9b4f", "clay_pit": "#c9774a", "quarry": "#9a9a93",
    "river": "#d9b44a", "field": "#b9d27a", "hut": "#b08a5a", "tool_maker": "#a5a0c8",
}


def gettext_noop(text: str) -> str:
    """Marks a word for translation without translating it (the page translates)."""
    return text


WORDS = {
    "hunting_grounds": gettext_noop("Hunting grounds"), "forest": gettext_noop("Forest"),
    "clay_pit": gettext_noop("Clay pit"), "quarry": gettext_noop("Quarry"), "river": gettext_noop("River"),
    "field": gettext_noop("Field"), "hut": gettext_noop("Hut"), "tool_maker": gettext_noop("Tool maker"),
    "wood": gettext_noop("wood"), "clay": gettext_noop("clay"), "stone": gettext_noop("stone"),
    "gold": gettext_noop("gold"), "food": gettext_noop("food"),
}
TEXTS = (
    gettext_noop("Civilisation cards"), gettext_noop("Buildings"), gettext_noop("cost %(cost)s"),
    gettext_noop("empty"), gettext_noop("to be turned up"),
    gettext_noop("Round %(round)s"), gettext_noop("agriculture %(level)s"),
    gettext_noop("tools %(tools)s"), gettext_noop("score %(score)s"), gettext_noop("Stone Age, round %(round)s"),
    gettext_noop("%(player)s: %(people)s, %(food)s, %(resources)s, agriculture %(agriculture)s, tools %(tools)s, score %(score)s."),
    gettext_noop("On %(place)s: %(people)s."),
)
COUNTED = {
    "people": plural_noop("%(count)s person", "%(count)s people"),
    "food": plural_noop("%(count)s food", "%(count)s food"),
    "cards": plural_noop("%(count)s card", "%(count)s cards"),
    "buildings": plural_noop("%(count)s building", "%(count)s buildings"),
    "tiles_left": plural_noop("%(count)s tile left", "%(count)s tiles left"),
    "card_space": plural_noop("Card on the %(count)s-resource space: %(card)s.", "Card on the %(count)s-resource space: %(card)s."),
}
"""The board's counted words, singular and plural, for the page's ``ngettext``."""


def _identity(text: str) -> str:
    return text


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def card_text(card: Mapping[str, Any]) -> tuple[str, str]:
    """A card's top and bottom in a few English words (the ids stay as printed)."""
    top = card.get("top") or {}
    kind = top.get("type", "")
    tops = {
        "food": f"{top.get('amount')} food", "resource": f"{top.get('amount')} {top.get('resource')}",
        "points": f"{top.get('amount')} points", "agriculture": "agriculture +1",
        "tool_permanent": "tool +1", "one_time_tool": f"one-time tool {top.get('value')}",
        "any_two_resources": "any 2 resources", "resource_dice": f"2 dice for {top.get('resource')}",
        "draw_card": "draw a card", "dice_roll_all_players": "dice for everyone",
    }
    bottom = card.get("bottom") or {}
    if bottom.get("background") == "green":
        below = f"green: {bottom.get('symbol')}"
    else:
        below = f"sand: {bottom.get('count')} × {str(bottom.get('figure', '')).replace('_', ' ')}"
    return tops.get(kind, kind), below


def building_text(stack: Mapping[str, Any]) -> str:
    cost = stack.get("cost") or {}
    if cost.get("kind") == "fixed":
        return " + ".join(f"{n} {r}" for r, n in cost.get("resources", {}).items())
    if cost.get("kind") == "variable":
        return f"{cost.get('count')} of {cost.get('kinds')} kind(s)"
    if cost.get("kind") == "any":
        return f"{cost.get('min')}–{cost.get('max')} of any"
    return ""


@dataclass(frozen=True)
class Words:
    """The board's words: the page gives its ``gettext`` and ``ngettext`` and the narration's
    words for cards and buildings; without them the board speaks English."""

    translate: Translate = _identity
    plural: Callable[[str, str, int], str] = _english_plural
    card: Callable[[Mapping[str, Any]], tuple[str, str]] = card_text
    building: Callable[[Mapping[str, Any]], str] = building_text

    def count(self, what: str, count: int, **values: Any) -> str:
        singular, plural = COUNTED[what]
        return self.plural(singular, plural, int(count)) % {"count": count, **values}


def _text(x: float, y: float, text: str, size: int = SMALL, weight: str = "normal", anchor: str = "start",
          room: float | None = None) -> str:
    """A line of words; ``room`` is the width it may take: words that would run longer are drawn
    narrower (never smaller), so that no language's longer words leave their box."""
    fit = ""
    if room is not None and len(text) * size * (0.6 if weight == "bold" else 0.55) > room:
        fit = f' textLength="{room:g}" lengthAdjust="spacingAndGlyphs"'
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}"{fit}>'
            f"{escape(text)}</text>")


def _people(right: float, y: float, occupants: Mapping[str, int], colours: Mapping[int, str]) -> list[str]:
    """The people on a place, a disc a tribe with their number, from ``right`` leftwards."""
    parts = []
    for index, (seat, count) in enumerate(sorted(occupants.items(), reverse=True)):
        cx = right - 14 - index * 32
        parts.append(f'<g class="people" data-seat="{int(seat)}"><circle cx="{cx:g}" cy="{y:g}" r="14" '
                     f'fill="{colours.get(int(seat), "#888")}" stroke="#222"/>'
                     + f'<circle cx="{cx:g}" cy="{y:g}" r="9" fill="#fff" opacity=".85"/>'
                     + _text(cx, y + 5, str(count), SMALL, "bold", "middle") + "</g>")
    return parts


def describe(position: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] = (), translate: Translate = _identity,
             words: Words | None = None) -> str:
    words = words or Words(translate=translate)
    tr = words.translate
    names = {seat.get("seat"): seat.get("player") for seat in seats}
    lines = [tr("Stone Age, round %(round)s") % {"round": position.get("round")} + "."]
    for slot in position.get("civilisation_cards", []):
        if slot.get("card"):
            top, bottom = words.card(slot)
            lines.append(words.count("card_space", slot["cost"], card=f"{slot['card']} ({top}; {bottom})"))
    for place, occupants in position.get("occupied", {}).items():
        people = ", ".join(f"{names.get(int(seat)) or int(seat) + 1} {count}" for seat, count in occupants.items())
        lines.append(tr("On %(place)s: %(people)s.") % {"place": tr(WORDS.get(place, place)), "people": people})
    scores = {score["seat"]: score["total"] for score in position.get("scores", [])}
    for tribe in position.get("tribes", []):
        seat = tribe["seat"]
        lines.append(tr("%(player)s: %(people)s, %(food)s, %(resources)s, agriculture %(agriculture)s, "
                        "tools %(tools)s, score %(score)s.") % {
            "player": names.get(seat) or seat + 1, "people": words.count("people", tribe["people"]),
            "food": words.count("food", tribe["food"]),
            "resources": ", ".join(f"{tribe['resources'][r]} {tr(WORDS[r])}" for r in RESOURCES),
            "agriculture": tribe["agriculture"], "tools": "/".join(map(str, tribe["tools"])),
            "score": scores.get(seat, 0)})
    return " ".join(lines)


def stone_age_svg(
    position: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]] = (),
    *,
    title: str | None = None,
    show: str | None = None,
    translate: Translate = _identity,
    words: Words | None = None,
) -> str:
    """The whole position as one ``<svg>`` with a ``<title>`` and a ``<desc>``; ``show``
    (``tribe-0``) outlines a tribe whose final scoring a reader looks at."""
    words = words or Words(translate=translate)
    tr = words.translate
    colours = {int(s.get("seat", 0)): seat_colour(int(s.get("seat", 0)), s.get("colour", "")) for s in seats}
    names = {int(s.get("seat", 0)): s.get("player") or f"{int(s.get('seat', 0)) + 1}" for s in seats}
    occupied = position.get("occupied", {})
    parts: list[str] = []
    x, right = MARGIN, WIDTH - MARGIN
    y = 24
    parts.append(_text(x, y, tr("Round %(round)s") % {"round": position.get("round")}, 18, "bold"))
    y += 28
    parts.append(_text(x, y, tr("Civilisation cards"), BODY, "bold"))
    y += 8
    # As on the board: the 4-resource space first, the 1-resource space last.
    for slot in sorted(position.get("civilisation_cards", []), key=lambda s: -s["cost"]):
        people = occupied.get(slot["location"], {})
        room = INNER - 16 - 32 * len(people)
        parts.append(f'<g class="card-space" data-location="{escape(slot["location"])}" data-card="{escape(slot.get("card") or "")}">'
                     f'<rect x="{x}" y="{y}" width="{INNER}" height="74" rx="6" fill="#f3ead7" stroke="#7a6a4f"/>')
        heading = tr("cost %(cost)s") % {"cost": slot["cost"]}
        parts.append(_text(x + 8, y + 20, heading + (f" · {slot['card']}" if slot.get("card") else ""), SMALL, "normal"))
        if slot.get("card"):
            top, bottom = words.card(slot)
            parts += [_text(x + 8, y + 43, top, BODY, "bold", room=room), _text(x + 8, y + 64, bottom, SMALL, room=room)]
        else:
            parts.append(_text(x + 8, y + 43, tr("empty"), BODY))
        parts += _people(right - 6, y + 46, people, colours)
        parts.append("</g>")
        y += 80
    y += 20
    parts.append(_text(x, y, tr("Buildings"), BODY, "bold"))
    y += 8
    for stack in position.get("building_stacks", []):
        people = occupied.get(stack["location"], {})
        room = INNER - 16 - 32 * len(people)
        parts.append(f'<g class="building-stack" data-location="{escape(stack["location"])}" data-top="{escape(stack.get("top") or "")}">'
                     f'<rect x="{x}" y="{y}" width="{INNER}" height="56" rx="4" fill="#e6ddd0" stroke="#6b5a45"/>')
        left = words.count("tiles_left", stack["left"])
        parts.append(_text(x + 8, y + 20, f"{stack['top']} · {left}" if stack.get("top") else left, SMALL))
        if stack.get("top"):
            parts.append(_text(x + 8, y + 44, words.building(stack), BODY, "bold", room=room))
        else:
            parts.append(_text(x + 8, y + 44, tr("empty") if not stack["left"] else tr("to be turned up"), BODY))
        parts += _people(right - 6, y + 28, people, colours)
        parts.append("</g>")
        y += 62
    y += 6
    half = (INNER - 8) / 2
    for index, place in enumerate(PLACES):
        px = x + (index % 2) * (half + 8)
        row_y = y + (index // 2) * 66
        parts.append(f'<g class="place" data-location="{place}"><rect x="{px:g}" y="{row_y}" width="{half:g}" height="60" rx="6" '
                     f'fill="{PLACE_COLOURS[place]}" stroke="#554"/>'
                     + _text(px + 8, row_y + 20, tr(WORDS[place]), SMALL, "bold", room=half - 16))
        parts += _people(px + half - 4, row_y + 42, occupied.get(place, {}), colours)
        parts.append("</g>")
    y += 4 * 66 + 6
    scores = {score["seat"]: score["total"] for score in position.get("scores", [])}
    current = position.get("current_player")
    for tribe in position.get("tribes", []):
        seat = tribe["seat"]
        playing = ' to-play' if seat == current else ''
        parts.append(f'<g class="tribe{playing}" data-seat="{seat}"><rect x="{x}" y="{y}" width="{INNER}" height="112" rx="6" '
                     f'fill="#fbf8f1" stroke="{colours.get(seat, "#888")}" stroke-width="{3 if playing else 1.5}"/>'
                     f'<circle cx="{x + 16}" cy="{y + 17}" r="8" fill="{colours.get(seat, "#888")}"/>')
        score = tr("score %(score)s") % {"score": scores.get(seat, 0)}
        parts.append(_text(x + 30, y + 22, str(names.get(seat, seat + 1)), BODY, "bold", room=INNER - 140))
        parts.append(_text(right - 8, y + 22, score, BODY, "bold", "end"))
        used = "".join("*" if u else "" for u in tribe["tools_used"])
        lines = [
            f"{words.count('people', tribe['people'])} · {words.count('food', tribe['food'])}",
            " · ".join(f"{tribe['resources'][r]} {tr(WORDS[r])}" for r in RESOURCES),
            tr("agriculture %(level)s") % {"level": tribe["agriculture"]} + " · "
            + tr("tools %(tools)s") % {"tools": "/".join(map(str, tribe["tools"])) + (f" ({used})" if used else "")},
            f"{words.count('cards', len(tribe['cards']))} · {words.count('buildings', len(tribe['buildings']))}",
        ]
        for number, line in enumerate(lines):
            parts.append(_text(x + 10, y + 44 + number * 20, line, SMALL, room=INNER - 20))
        if position.get("final_scoring"):
            target = f"tribe-{seat}"
            parts.append(f'<rect class="final-feature" data-target="{target}" x="{x - 5}" y="{y - 5}" width="{INNER + 10}" '
                         f'height="122" rx="8" fill="none" stroke="#111" stroke-width="4" '
                         f'display="{"inline" if show == target else "none"}"/>')
        parts.append("</g>")
        y += 120
    height = y + 4
    heading = title or tr("Stone Age, round %(round)s") % {"round": position.get("round")}
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board stone-age" role="img" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" aria-labelledby="board-title board-desc" '
        f'data-at="{escape(str(position.get("at", "")))}" font-family="sans-serif">'
        f'<title id="board-title">{escape(heading)}</title>'
        f'<desc id="board-desc">{escape(describe(position, seats, words=words))}</desc>'
        + "".join(parts) + "</svg>"
    )
