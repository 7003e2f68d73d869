"""Stone Age (Hans im Glück 2008; 999 Games *Stenen Tijdperk*): a pure-Python rules engine.

Like python-chess: a :class:`Game` is the state, :meth:`Game.legal_actions` lists what may be
done, :meth:`Game.apply` does it (or raises :class:`IllegalAction` with a reason code and the
game unchanged), :meth:`Game.undo` takes it back, :meth:`Game.scores` counts. No Django here.

The cards and buildings (``data/stone_age_v1.json``, version ``1-reconstructed``) and the rules
come from the user's rules summary (seed 002) and, where it is silent, from the facts gathered in
``shared/reference/stone_age/FACTS.md``. Readings where neither settles a question:

1. Resources and food are not limited (the English rulebook says so).
2. The hut cannot be used by a tribe of 10 people; the field and the tool maker can always be
   used (no gain at their maximum).
3. The "any 2 resources" card is taken at once (the official rule allows later).
4. A tribe short of food pays the whole shortfall in resources or takes the −10 penalty; it
   cannot split. A tribe that cannot pay the shortfall takes the penalty without being asked,
   and a tribe with enough food eats without an action.
5. A tool upgraded after it was used this round stays used until the next round.
6. A player with people left but no legal place keeps them home for the round.
7. Civilisation cards are laid cheapest space first, at setup and when the row is refilled.
8. The tie-break is agriculture + the tool tiles' values + people (one-time tools excluded).

Where the seed and the gathered facts disagree, the seed wins: feeding deducts the agriculture
level from the people to feed ("Déduisez d'abord votre niveau d'agriculture du nombre de
membres ; payez le reste avec vos jetons Nourriture"), so agriculture beyond the tribe's size
gives nothing; the facts (from the English rulebook) have each tribe take its agriculture in food
and keep what it does not eat.
"""

from games.engines.errors import IllegalAction

from .actions import Action, parse_action
from .components import RESOURCES, load
from .game import CARD_SLOTS, BUILDING_STACKS, LOCATIONS, Game, Score, Tribe

DATA_NAME = load().name
DATA_VERSION = load().version

__all__ = [
    "Action", "BUILDING_STACKS", "CARD_SLOTS", "DATA_NAME", "DATA_VERSION", "Game", "IllegalAction",
    "LOCATIONS", "RESOURCES", "Score", "Tribe", "parse_action",
]
