"""The recorder script's words, in the reader's language (the script has no catalogue of its own:
the page hands it these). ``%(name)s`` placeholders are filled in by the script.

The words every game's recorder says are here, and those every tile game's recorder says; a
game's web module adds its own (``RecorderParts.words``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, pgettext


def counted(singular: str, plural: str, by: str = "count") -> dict[str, str]:
    """A counted phrase for the script, in the reader's language: its form for each count up to 4
    and for more (``by`` names the placeholder that counts); the script's ``fill`` picks the form.
    Czech tells 1, 2 to 4 and 5 and more apart (French 0 and 1 from more, English and Dutch 1 from
    the rest), and none of the four languages changes form again past 4."""
    return {"by": by, **{str(n): ngettext(singular, plural, n) for n in range(5)},
            "other": ngettext(singular, plural, 5)}


def common_words() -> dict[str, Any]:
    return {
        "to_play": gettext("%(player)s to play"),
        "table_turn": gettext("The table says what was turned up"),
        "pending": counted("%(count)s move waiting to be sent", "%(count)s moves waiting to be sent"),
        "pending_one": ngettext("%(count)s move waiting to be sent", "%(count)s moves waiting to be sent", 1) % {"count": 1},
        "offline": gettext("No connection: what you record is kept on this phone and sent, in order, as soon as "
                           "the connection returns."),
        "sending": gettext("Sending…"),
        "saved": gettext("Saved."),
        "conflict": gettext("Another phone recorded a move meanwhile: “%(action)s” was not stored. The board "
                            "now shows the game as recorded; record your move again if it still applies."),
        "conflict_more": counted("%(count)s more move recorded on this phone was not sent either.",
                                 "%(count)s more moves recorded on this phone were not sent either."),
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
        "awaiting_end": gettext("The last move ends the game."),
        "end_question": gettext("End the game and score it?"),
        "end_hint": gettext("Until you confirm, the last move can still be taken back."),
        "end_confirm": gettext("End the game and score it"),
        "end_label": gettext("end the game and score it"),
        "end_missing_label": gettext("end the game now: a tile is missing"),
        "abandon_label": gettext("abandon the game: %(reason)s"),
        "end_choose": gettext("Choose why the game ends."),
        "abandon_reason_needed": gettext("Say why the game is abandoned."),
    }


def tile_words() -> dict[str, Any]:
    """What the recorder of any tile game says (``recorder-tiles.js``)."""
    return {
        "rotate": gettext("Rotate"),
        "no_figure": gettext("No figure"),
        "discard": gettext("Fits nowhere: discard it"),
        "pick_tile": gettext("Which tile was drawn? Tap it."),
        "pick_bonus": gettext("Bonus tile earned: which bonus tile was drawn? Tap it."),
        "other_tile": gettext("Wrong tile? Pick another"),
        "tile_in_hand": gettext("Tile in hand"),
        "tile_drawn": gettext("Tile drawn by Ludolog"),
        "tap_spot": gettext("Tap a highlighted square to lay the tile there."),
        "tap_figure": gettext("Tap a spot to put a figure there, or confirm without one."),
        "no_spot": gettext("This tile fits nowhere on the board."),
        "tiles_left": counted("%(count)s tile left", "%(count)s tiles left"),
        "left": counted("%(count)s left", "%(count)s left"),
        "waiting_draw": gettext("Ludolog draws the next tile when the connection returns."),
        "filter": gettext("Filter by what is on the tile"),
        "no_match": gettext("No tile left with all of these."),
        "edge_filter": gettext("The sides of the tile drawn"),
        "edge_hint": gettext("Tap the sides to match the tile, whichever way it lies (? is any)."),
        "edge_side": gettext("%(side)s side: %(kind)s"),
        "edge_any": gettext("any"),
        "side:0": pgettext("side of a tile", "top"),
        "side:1": pgettext("side of a tile", "right"),
        "side:2": pgettext("side of a tile", "bottom"),
        "side:3": pgettext("side of a tile", "left"),
        "matching": counted("%(count)s of %(total)s matches", "%(count)s of %(total)s match"),
        "reset_filters": gettext("Reset filters"),
        "fits_nowhere_one": gettext("fits nowhere on the board"),
        "fits_nowhere_group": counted("Fits nowhere on the board (drawn, it is discarded): %(count)s",
                                      "Fit nowhere on the board (drawn, they are discarded): %(count)s"),
        "lays": gettext("%(tile)s at (%(x)s, %(y)s), turned %(rotation)s°"),
        "with_figure": gettext("%(action)s, %(figure)s on the %(terrain)s"),
        "discards": gettext("%(tile)s discarded"),
        "figure_on": gettext("%(figure)s on the %(terrain)s"),
        "figure_choices": gettext("%(terrain)s: %(kinds)s"),
        "figure_kind_on": gettext("Which figure on the %(terrain)s?"),
        "offscreen_left": counted("%(count)s more square to the left", "%(count)s more squares to the left"),
        "offscreen_right": counted("%(count)s more square to the right", "%(count)s more squares to the right"),
        "offscreen_up": counted("%(count)s more square above", "%(count)s more squares above"),
        "offscreen_down": counted("%(count)s more square below", "%(count)s more squares below"),
        "cancel": gettext("Cancel"),
    }
