"""The platform's side of each rules engine: one adapter module per game (see :mod:`games.registry`)."""
