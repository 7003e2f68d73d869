"""Carcassonne – Hunters and Gatherers (first edition, 2002): rules engine.

>>> game = Game.new(players=4, seed=7)
>>> game.apply(game.legal_actions()[0])
>>> game.history[0].to_text()
'L39@0,-1r0'
>>> game.current_player
1

Rules as implemented (from the French and Czech rulebooks)
----------------------------------------------------------
- 2 to 5 players, seats 0..n-1 playing in order; each has 5 tribe members and 2 huts.
  The start tile lies at (0,0); 78 landscape tiles and 12 bonus tiles form two piles.
- A turn: lay a landscape tile touching a laid tile by a side, every touching side
  matching (forest–forest, meadow–meadow, river–river). A tile that fits nowhere is
  discarded (``L44 discard``; the engine checks it fits nowhere) and the same player
  lays another.
- Then at most one figure from the supply on the tile just laid: a gatherer in a
  forest, a fisher on a river, a hunter in a meadow, or a hut on a river or lake; a
  tribe member not on a forest/river/meadow where any tribe member already stands
  (however far); a hut not on a river system (rivers and lakes connected to one
  another) that has any hut. Huts and fishers ignore each other.
- Then every forest and river the tile completed scores at once (see
  :mod:`.scoring`): river complete when both ends reach a lake or a spring, or it
  loops; forest complete when no side is open. The majority of figures on it scores
  (ties all score); the owners of the figures score, not the tile's player. Then the
  gatherers and fishers of those features go home.
- A completed forest with a gold nugget gives the player who laid the completing tile
  one bonus tile, laid at once under the same rules (figure optional, completions
  score). At most one per turn; none once the bonus pile is empty.
- The game ends after the turn in which the last landscape tile was laid (or
  discarded). Gatherers and fishers left go home unscored; huts and hunters score:
  river systems 1 per fish to the majority of huts; meadows 2 per deer, mammoth and
  aurochs to the majority of hunters, each tiger cancelling one deer, fire chasing all
  tigers of its meadow, the shrine tile's hunter making its owner the only scorer.

Notation: ``L17@2,-1r90 hunter:0`` (tile, x, y — y grows south —, degrees
clockwise, optional figure on the tile's feature 0), ``L44 discard``, optional
seat prefix ``P2:``. See :mod:`.actions`.

Readings where the rulebooks are silent
---------------------------------------
1. Rotations are clockwise, written in degrees (0/90/180/270); feature numbers in
   actions are the tile definition's own, independent of the rotation.
2. Returned figures: the French text says figures come home "at the end of the
   turn", the Czech one (and the issue) that figures freed by the landscape tile may
   go again on the bonus tile of that turn. By default the engine follows the Czech
   text and returns them right after the scoring of each tile, so they can be reused
   on the bonus tile; the variant ``figures_home_at_end_of_turn`` follows the French
   one (see below).
3. A river ending twice in the same lake (a loop through a lake) counts that lake's
   fish once; a river ending in two lakes counts both.
4. A forest counts distinct tiles: a tile holding two parts of the same forest counts
   once ("2 points per forest tile"); a river likewise counts distinct river tiles.
5. The bonus tile is compulsory once earned (it is "played at once"); its figure is
   optional. Completing a gold-nugget forest with the bonus tile gives nothing more.
6. A bonus tile that fits nowhere is discarded like a landscape tile and the player
   draws another bonus tile (still one bonus tile laid per turn); with none left the
   turn ends.
7. The game also ends when the last landscape tile is discarded; a bonus tile earned
   with the last landscape tile is still laid before the end.
8. Shrine: a hunter standing on the shrine meadow of the shrine tile was necessarily
   put there by the player who laid that tile (figures go only on the tile just laid);
   that player alone scores the whole meadow it belongs to, whatever the majority.
9. Fire: a fire anywhere in a meadow cancels all tigers in that whole meadow, with or
   without hunters (the Czech text: "it does not matter whether a hunter is there").
10. During the game ``scores()`` holds river and forest points only; huts and hunters
    are added by the final scoring when the game ends.
11. A hut on a lake counts for the river system that lake belongs to; lakes never
    join features across tiles, only river systems. The French remark that a lake fed
    by one river interrupts a system is read as describing a dead end, not a cut.
12. Chance is an input: with a seed the engine shuffles both piles with
    ``random.Random(seed)`` (landscape, then bonus, by :func:`games.engines.chance.shuffle`,
    Python 3.11's ``Random.shuffle`` kept as it is) and the action must name the tile
    drawn (``wrong_tile`` otherwise); without one, any tile left in the right pile.
13. The seat in an action is optional; when given it must be the current player
    (``not_your_turn``).

Rulesets and variants (see :mod:`.rulesets`)
--------------------------------------------
A game chooses them at its start and keeps them: ``Game.new(4, seed=7,
variants={"figures_home_at_end_of_turn"})``. There is one ruleset (1), the rules above.
Variant ``figures_home_at_end_of_turn`` (the French rulebook): gatherers and fishers
freed by a scoring wait beside the board (``Game.returning``) and reach the supply
at the end of the turn, after the bonus tile. Without variants a game plays the
default, as every game recorded before variants existed.
"""

from games.engines.errors import InvalidNotation

from .actions import FIGURE_KINDS, Action, FigureKind, parse_action
from .game import ENGINE_SLUG, FIGURE_TERRAIN, Game, IllegalAction, Score
from .rulesets import DEFAULT_RULESET, LATEST_RULESET, RULESETS, VARIANTS, Ruleset, Variant
from .scoring import Award
from .tileset import Tile, Tileset, TilesetError, load_tileset

_DEFAULT = load_tileset()
TILESET_NAME: str = _DEFAULT.name
TILESET_VERSION: str = _DEFAULT.version

__all__ = [
    "DEFAULT_RULESET", "ENGINE_SLUG", "FIGURE_KINDS", "FIGURE_TERRAIN", "LATEST_RULESET", "RULESETS", "TILESET_NAME",
    "TILESET_VERSION", "VARIANTS", "Action", "Award", "FigureKind", "Game", "IllegalAction", "InvalidNotation",
    "Ruleset", "Score", "Tile", "Tileset", "TilesetError", "Variant", "load_tileset", "parse_action",
]
