"""Tournaments of multiplayer tables: the pure table assignment (``pairing``), the placement
scoring (``placements``) and a simulation of a whole tournament (``simulation``); the models and
pages come on top of them. The rules are in docs/tournaments.md."""
