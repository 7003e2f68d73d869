"""A Stone Age position drawn as one SVG: the card row, the building stacks, the places of the
board with the people on them, and each tribe's supplies. Pure function of the engine's
``view()`` (no Django); the page passes Django's ``gettext`` as ``translate``.

At the end of a game each tribe has an outline, hidden until a reader picks one of its lines of
the final scoring (``show="tribe-0"``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from ...tile_frame import seat_colour

Translate = Callable[[str], str]

WIDTH = 760
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
    gettext_noop("%(left)s left"), gettext_noop("empty"), gettext_noop("to be turned up"),
    gettext_noop("Round %(round)s"), gettext_noop("people %(people)s"), gettext_noop("agriculture %(level)s"),
    gettext_noop("tools %(tools)s"), gettext_noop("%(count)s cards, %(buildings)s buildings"),
    gettext_noop("score %(score)s"), gettext_noop("Stone Age, round %(round)s"),
    gettext_noop("%(player)s: %(people)s people, %(food)s food, %(resources)s, agriculture %(agriculture)s, tools %(tools)s, score %(score)s."),
    gettext_noop("On %(place)s: %(people)s."),
    gettext_noop("Card on the %(cost)s-resource space: %(card)s."),
)


def _identity(text: str) -> str:
    return text


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


def _text(x: float, y: float, text: str, size: int = 12, weight: str = "normal", anchor: str = "start") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}">'
            f"{escape(text)}</text>")


def _people(x: float, y: float, occupants: Mapping[str, int], colours: Mapping[int, str]) -> list[str]:
    parts = []
    for index, (seat, count) in enumerate(sorted(occupants.items())):
        cx = x + index * 34
        parts.append(f'<g class="people" data-seat="{int(seat)}"><circle cx="{cx:g}" cy="{y:g}" r="10" '
                     f'fill="{colours.get(int(seat), "#888")}" stroke="#222"/>'
                     + _text(cx, y + 4, str(count), 11, "bold", "middle") + "</g>")
    return parts


def describe(position: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] = (), translate: Translate = _identity) -> str:
    tr = translate
    names = {seat.get("seat"): seat.get("player") for seat in seats}
    lines = [tr("Stone Age, round %(round)s") % {"round": position.get("round")} + "."]
    for slot in position.get("civilisation_cards", []):
        if slot.get("card"):
            top, bottom = card_text(slot)
            lines.append(tr("Card on the %(cost)s-resource space: %(card)s.") % {
                "cost": slot["cost"], "card": f"{slot['card']} ({top}; {bottom})"})
    for place, occupants in position.get("occupied", {}).items():
        people = ", ".join(f"{names.get(int(seat)) or int(seat) + 1} {count}" for seat, count in occupants.items())
        lines.append(tr("On %(place)s: %(people)s.") % {"place": tr(WORDS.get(place, place)), "people": people})
    scores = {score["seat"]: score["total"] for score in position.get("scores", [])}
    for tribe in position.get("tribes", []):
        seat = tribe["seat"]
        lines.append(tr("%(player)s: %(people)s people, %(food)s food, %(resources)s, agriculture %(agriculture)s, "
                        "tools %(tools)s, score %(score)s.") % {
            "player": names.get(seat) or seat + 1, "people": tribe["people"], "food": tribe["food"],
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
) -> str:
    """The whole position as one ``<svg>`` with a ``<title>`` and a ``<desc>``; ``show``
    (``tribe-0``) outlines a tribe whose final scoring a reader looks at."""
    tr = translate
    colours = {int(s.get("seat", 0)): seat_colour(int(s.get("seat", 0)), s.get("colour", "")) for s in seats}
    names = {int(s.get("seat", 0)): s.get("player") or f"{int(s.get('seat', 0)) + 1}" for s in seats}
    occupied = position.get("occupied", {})
    parts: list[str] = []
    y = 20
    parts.append(_text(10, y, tr("Round %(round)s") % {"round": position.get("round")}, 15, "bold"))
    y += 22
    parts.append(_text(10, y, tr("Civilisation cards"), 13, "bold"))
    # As on the board: the 4-resource space on the left, the 1-resource space on the right.
    for column, slot in enumerate(sorted(position.get("civilisation_cards", []), key=lambda s: -s["cost"])):
        x = 10 + column * 185
        parts.append(f'<g class="card-space" data-location="{escape(slot["location"])}" data-card="{escape(slot.get("card") or "")}">'
                     f'<rect x="{x}" y="{y + 8}" width="175" height="78" rx="6" fill="#f3ead7" stroke="#7a6a4f"/>')
        parts.append(_text(x + 8, y + 26, tr("cost %(cost)s") % {"cost": slot["cost"]}, 11))
        if slot.get("card"):
            top, bottom = card_text(slot)
            parts += [_text(x + 167, y + 26, slot["card"], 11, "bold", "end"), _text(x + 8, y + 46, top, 12),
                      _text(x + 8, y + 64, bottom, 11)]
        else:
            parts.append(_text(x + 8, y + 46, tr("empty"), 12))
        parts += _people(x + 150, y + 70, occupied.get(slot["location"], {}), colours)
        parts.append("</g>")
    y += 100
    parts.append(_text(10, y, tr("Buildings"), 13, "bold"))
    for column, stack in enumerate(position.get("building_stacks", [])):
        x = 10 + column * 185
        parts.append(f'<g class="building-stack" data-location="{escape(stack["location"])}" data-top="{escape(stack.get("top") or "")}">'
                     f'<rect x="{x}" y="{y + 8}" width="175" height="62" rx="4" fill="#e6ddd0" stroke="#6b5a45"/>')
        parts.append(_text(x + 8, y + 26, tr("%(left)s left") % {"left": stack["left"]}, 11))
        if stack.get("top"):
            parts += [_text(x + 167, y + 26, stack["top"], 11, "bold", "end"), _text(x + 8, y + 46, building_text(stack), 12)]
        else:
            parts.append(_text(x + 8, y + 46, tr("empty") if not stack["left"] else tr("to be turned up"), 12))
        parts += _people(x + 150, y + 56, occupied.get(stack["location"], {}), colours)
        parts.append("</g>")
    y += 84
    for index, place in enumerate(PLACES):
        x = 10 + (index % 4) * 185
        row_y = y + (index // 4) * 56
        parts.append(f'<g class="place" data-location="{place}"><rect x="{x}" y="{row_y}" width="175" height="48" rx="6" '
                     f'fill="{PLACE_COLOURS[place]}" stroke="#554"/>' + _text(x + 8, row_y + 18, tr(WORDS[place]), 12, "bold"))
        parts += _people(x + 18, row_y + 34, occupied.get(place, {}), colours)
        parts.append("</g>")
    y += 2 * 56 + 10
    scores = {score["seat"]: score["total"] for score in position.get("scores", [])}
    current = position.get("current_player")
    for tribe in position.get("tribes", []):
        seat = tribe["seat"]
        playing = ' to-play' if seat == current else ''
        parts.append(f'<g class="tribe{playing}" data-seat="{seat}"><rect x="10" y="{y}" width="{WIDTH - 20}" height="44" rx="6" '
                     f'fill="#fbf8f1" stroke="{colours.get(seat, "#888")}" stroke-width="{3 if playing else 1.5}"/>'
                     f'<circle cx="28" cy="{y + 22}" r="9" fill="{colours.get(seat, "#888")}"/>')
        parts.append(_text(44, y + 18, str(names.get(seat, seat + 1)), 12, "bold"))
        used = "".join("*" if u else "" for u in tribe["tools_used"])
        parts.append(_text(44, y + 36, "  ".join([
            tr("people %(people)s") % {"people": tribe["people"]},
            f"{tribe['food']} {tr(WORDS['food'])}",
            *(f"{tribe['resources'][r]} {tr(WORDS[r])}" for r in RESOURCES),
            tr("agriculture %(level)s") % {"level": tribe["agriculture"]},
            tr("tools %(tools)s") % {"tools": "/".join(map(str, tribe["tools"])) + (f" ({used})" if used else "")},
        ]), 11))
        parts.append(_text(WIDTH - 24, y + 18, tr("score %(score)s") % {"score": scores.get(seat, 0)}, 12, "bold", "end"))
        parts.append(_text(WIDTH - 24, y + 36, tr("%(count)s cards, %(buildings)s buildings") % {
            "count": len(tribe["cards"]), "buildings": len(tribe["buildings"])}, 11, "normal", "end"))
        if position.get("final_scoring"):
            target = f"tribe-{seat}"
            parts.append(f'<rect class="final-feature" data-target="{target}" x="5" y="{y - 5}" width="{WIDTH - 10}" '
                         f'height="54" rx="8" fill="none" stroke="#111" stroke-width="4" '
                         f'display="{"inline" if show == target else "none"}"/>')
        parts.append("</g>")
        y += 52
    height = y + 6
    heading = title or tr("Stone Age, round %(round)s") % {"round": position.get("round")}
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board stone-age" role="img" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" aria-labelledby="board-title board-desc" '
        f'data-at="{escape(str(position.get("at", "")))}" font-family="sans-serif">'
        f'<title id="board-title">{escape(heading)}</title>'
        f'<desc id="board-desc">{escape(describe(position, seats, tr))}</desc>'
        + "".join(parts) + "</svg>"
    )
