"""The recorder script's words, in the reader's language (the script has no catalogue of its own:
the page hands it these). ``%(name)s`` placeholders are filled in by the script."""

from __future__ import annotations

from django.utils.translation import gettext, pgettext

from ..stone_age_svg import WORDS as STONE_AGE_WORDS


def _common() -> dict[str, str]:
    return {
        "to_play": gettext("%(player)s to play"),
        "game_over": gettext("The game is over."),
        "see_replay": gettext("See the whole game, move by move"),
        "table_turn": gettext("The table says what was turned up"),
        "pending": gettext("%(count)s waiting to be sent"),
        "pending_one": gettext("1 waiting to be sent"),
        "offline": gettext("No connection: what you record is kept on this phone and sent, in order, as soon as "
                           "the connection returns."),
        "sending": gettext("Sending…"),
        "saved": gettext("Saved."),
        "conflict": gettext("Another phone recorded a move meanwhile: “%(action)s” was not stored. The board "
                            "now shows the game as recorded; record your move again if it still applies."),
        "conflict_more": gettext("%(count)s more move(s) recorded on this phone were not sent either."),
        "refused": gettext("Ludolog refused “%(action)s”: %(reason)s Nothing was stored."),
        "closed": gettext("This game is over: nothing more can be recorded."),
        "forbidden": gettext("You may not record this game any more (logged out?)."),
        "other_phone": gettext("Recorded on another phone: %(text)s"),
        "undo": gettext("Undo"),
        "undo_question": gettext("Take back the last move?"),
        "undo_yes": gettext("Take it back"),
        "undo_no": gettext("Keep it"),
        "undo_label": gettext("take back the last move"),
        "confirm": gettext("Confirm"),
        "pending_line": gettext("Waiting to be sent: %(text)s"),
        "unchecked": gettext("Not checked yet: Ludolog checks it when the connection returns."),
        "waiting": gettext("The next choices appear when the connection returns; what you recorded is kept."),
        "zoom_in": gettext("Zoom in"),
        "zoom_out": gettext("Zoom out"),
        "fit": gettext("Whole board"),
        "points": gettext("%(player)s %(points)s"),
        "nothing_yet": gettext("No move recorded yet."),
    }


def _tiles(slug: str) -> dict[str, str]:
    words = {
        "rotate": gettext("Rotate"),
        "no_figure": gettext("No figure"),
        "discard": gettext("Fits nowhere: discard it"),
        "pick_tile": gettext("Which tile was drawn? Tap it."),
        "pick_bonus": gettext("Bonus tile earned: which bonus tile was drawn? Tap it."),
        "other_tile": gettext("Other tile"),
        "tile_in_hand": gettext("Tile in hand"),
        "tile_drawn": gettext("Tile drawn by Ludolog"),
        "tap_spot": gettext("Tap a highlighted square to lay the tile there."),
        "tap_figure": gettext("Tap a spot to put a figure there, or confirm without one."),
        "no_spot": gettext("This tile fits nowhere on the board."),
        "tiles_left": gettext("%(count)s tiles left"),
        "left": gettext("%(count)s left"),
        "waiting_draw": gettext("Ludolog draws the next tile when the connection returns."),
        "filter": gettext("Filter by what is on the tile"),
        "all_tiles": gettext("All"),
        "no_match": gettext("No tile left with all of these."),
        "lays": gettext("%(tile)s at (%(x)s, %(y)s), turned %(rotation)s°"),
        "with_figure": gettext("%(action)s, %(figure)s on the %(terrain)s"),
        "discards": gettext("%(tile)s discarded"),
        "figure_on": gettext("%(figure)s on the %(terrain)s"),
        "islands": gettext("Or pay a chip for an island's face-up tile:"),
        "island_choice": gettext("%(colour)s island, stack %(stack)s: %(tile)s"),
        "island_tile": gettext("Island tile, paid with a %(colour)s chip"),
        "draw_instead": gettext("Draw face down instead"),
        "island_paid": gettext("%(action)s, paid with a %(colour)s chip"),
        "colour:violet": gettext("violet"), "colour:light_blue": gettext("light blue"),
        "colour:orange": gettext("orange"),
        "which_chip": gettext("The tile covers a chip: what does it show, turned over?"),
        "chip_face": gettext("%(colour)s, %(points)s"),
        "which_reveal": gettext("Which tile does the island's stack turn up?"),
        "cancel": gettext("Cancel"),
    }
    tags = {
        "river": gettext("river"), "lake": gettext("lake"), "spring": gettext("spring"), "forest": gettext("forest"),
        "gold": gettext("gold nugget"), "mushroom": gettext("mushrooms"), "deer": pgettext("animal", "deer"),
        "mammoth": gettext("mammoth"), "aurochs": gettext("aurochs"), "tiger": gettext("sabre-tooth tiger"),
        "fish": gettext("fish"), "fire": gettext("fire"), "shrine": gettext("shrine"), "bonus": gettext("bonus tile"),
        "city": gettext("city"), "pennant": gettext("pennant"), "road": gettext("road"),
        "cloister": gettext("cloister"), "inn": gettext("inn"), "cathedral": gettext("cathedral"),
        "wine": gettext("wine"), "grain": gettext("grain"), "cloth": gettext("cloth"),
    }
    words.update({f"tag:{tag}": label for tag, label in tags.items()})
    figures = {"gatherer": gettext("gatherer"), "fisher": gettext("fisher"), "hunter": gettext("hunter"),
               "hut": gettext("hut"), "meeple": gettext("meeple"), "big": gettext("large meeple"),
               "builder": gettext("builder"), "pig": gettext("pig")}
    words.update({f"figure:{kind}": label for kind, label in figures.items()})
    if slug in ("carcassonne", "carcassonne-maps"):
        roles = {"city": gettext("knight"), "road": gettext("thief"), "cloister": gettext("monk"),
                 "field": gettext("farmer")}
        words.update({f"role:{terrain}": label for terrain, label in roles.items()})
    terrains = {"forest": gettext("forest"), "river": gettext("river"), "meadow": gettext("meadow"),
                "lake": gettext("lake"), "city": gettext("city"), "road": gettext("road"),
                "field": gettext("field"), "cloister": gettext("cloister")}
    words.update({f"terrain:{terrain}": label for terrain, label in terrains.items()})
    return words


def _stone_age() -> dict[str, str]:
    words = {
        "place_people": gettext("%(player)s places people: tap a place."),
        "how_many": gettext("How many people?"),
        "resolve": gettext("%(player)s resolves a place: tap it."),
        "dice_needed": gettext("Tap the %(count)s dice rolled."),
        "roll_for_me": gettext("Let Ludolog roll"),
        "rolled_by_ludolog": gettext("Ludolog rolls the dice."),
        "clear_dice": gettext("Clear the dice"),
        "tools": gettext("Tools to add"),
        "tool": gettext("tool %(value)s"),
        "one_time_tool": gettext("one-time tool %(value)s"),
        "gain": gettext("%(total)s ÷ %(value)s → %(gained)s %(resource)s"),
        "decline": gettext("Don't buy"),
        "pay": gettext("Pay %(what)s"),
        "pay_rule_count": gettext("Pay %(count)s resources."),
        "pay_rule_range": gettext("Pay %(min)s to %(max)s resources."),
        "pay_rule_kinds": gettext("Pay %(count)s resources of exactly %(kinds)s kind(s)."),
        "pay_rule_fixed": gettext("Pay exactly %(what)s."),
        "cannot_pay": gettext("Not enough resources to pay."),
        "you_have": gettext("In stock: %(what)s"),
        "starve": gettext("Take the penalty (−10 points)"),
        "lacks_food": gettext("%(player)s lacks %(count)s food: pay as many resources, or take the penalty."),
        "choose": gettext("Choose %(count)s resources to take."),
        "picks": gettext("Each player takes one die, from the buyer on: which die does %(player)s take?"),
        "drawn": gettext("Which card was drawn from the pile?"),
        "picks_again": gettext("Pick again"),
        "reveal_cards": gettext("Which cards were turned up? Cheapest space first (%(done)s of %(count)s)."),
        "reveal_stack": gettext("Which building is now on top of stack %(stack)s?"),
        "all_cards": gettext("All"),
        "cost": gettext("cost %(cost)s"),
        "people": gettext("%(count)s people"),
        "card_on": gettext("Card on the %(cost)s-resource space"),
        "building_on": gettext("Building stack %(stack)s"),
        "resource:food": gettext("food"),
    }
    for place, label in STONE_AGE_WORDS.items():
        words[f"place:{place}"] = gettext(label)
    for resource in ("wood", "clay", "stone", "gold"):
        words[f"resource:{resource}"] = gettext(resource)
    for index in range(1, 5):
        words[f"place:card{index}"] = gettext("Card, cost %(cost)s") % {"cost": index}
        words[f"place:building{index}"] = gettext("Building stack %(stack)s") % {"stack": index}
    words["face:tool"] = gettext("tool")
    words["face:agriculture"] = gettext("agriculture")
    return words


def recorder_words(slug: str) -> dict[str, str]:
    words = _common()
    words.update(_stone_age() if slug == "stone-age" else _tiles(slug))
    return words
