"""Stone Age (Hans im Glück 2008; 999 Games *Stenen Tijdperk*): a pure-Python rules engine.

Like python-chess: a :class:`Game` is the state, :meth:`Game.legal_actions` lists what may be
done, :meth:`Game.apply` does it (or raises :class:`IllegalAction` with a reason code and the
game unchanged), :meth:`Game.undo` takes it back, :meth:`Game.scores` counts. No Django here.

The cards and buildings (``data/stone_age_v1.json``, version ``1-reconstructed``) and the rules
come from the user's rules summary (seed 002) and, where it is silent, from the facts gathered in
``shared/reference/stone_age/FACTS.md``.

Rulesets and variants (:mod:`.rulesets`): a game chooses them at its start and keeps them
(``Game.new(players, seed, ruleset=2, variants={"newborn_eats_next_round"})``); without them it
plays ruleset 1 with the default variants, as every game recorded before they existed.

- Ruleset 1 feeds as the engine always has: the agriculture level is deducted from the people to
  feed (seed 002: "Déduisez d'abord votre niveau d'agriculture du nombre de membres ; payez le
  reste avec vos jetons Nourriture"), so agriculture beyond the tribe's size gives nothing.
- Ruleset 2 feeds as published (FACTS.md, feeding): each tribe first takes food equal to its
  agriculture level, then eats one food a person, and keeps the rest. Seed 002's sentence
  describes the usual case and is silent on a surplus; where a seed is silent, the published
  rule holds.
- Variant ``newborn_eats_next_round``: the person a hut adds eats from the next round on (seed
  002 gives it "pour la manche suivante" and is silent on its feeding; by default it eats at once,
  as the English rulebook feeds every figure on the player board).
- Variant ``hunting_grounds_again``: a tribe may add people to the hunting grounds where it
  already has some (Yucata's house rule, in FACTS.md; by default no location takes a tribe twice).

Readings taken where the seed is silent or the facts do not settle a question:

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
9. Agriculture beyond the tribe's size at feeding: ruleset 1 drops it, reading seed 002's
   sentence as the whole rule; ruleset 2 keeps it as food, the published rule, the seed being
   silent on a surplus. Readings 1 to 8 hold under both rulesets.
"""

from games.engines.errors import IllegalAction

from .actions import Action, parse_action
from .components import RESOURCES, load
from .game import CARD_SLOTS, BUILDING_STACKS, LOCATIONS, Game, Score, Tribe
from .rulesets import DEFAULT_RULESET, LATEST_RULESET, RULESETS, VARIANTS, Ruleset, Variant

DATA_NAME = load().name
DATA_VERSION = load().version

__all__ = [
    "Action", "BUILDING_STACKS", "CARD_SLOTS", "DATA_NAME", "DATA_VERSION", "DEFAULT_RULESET", "Game",
    "IllegalAction", "LATEST_RULESET", "LOCATIONS", "RESOURCES", "RULESETS", "Ruleset", "Score", "Tribe",
    "VARIANTS", "Variant", "parse_action",
]
