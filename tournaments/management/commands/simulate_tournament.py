from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.pairing import MAX_TABLE_SIZE, MIN_TABLE_SIZE, PairingError
from tournaments.simulation import simulate


class Command(BaseCommand):
    help = (
        "Play a tournament with seeded random results through the table assignment and print its "
        "quality as JSON: repeat_meetings, avoidable_repeats (exact where every split was tried, else an "
        "upper bound: see docs/tournaments.md), seat_imbalance, table_sizes, seconds."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--table-size", type=int, required=True,
                            help=f"{MIN_TABLE_SIZE} to {MAX_TABLE_SIZE}; short tables instead of byes")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, players: int, rounds: int, table_size: int, seed: int, **options) -> None:
        if rounds < 1:
            raise CommandError("--rounds: at least 1")
        try:
            figures = simulate(players, rounds, table_size, seed)
        except PairingError as refusal:
            raise CommandError(f"{refusal.reason}: {refusal}") from refusal
        self.stdout.write(json.dumps(figures))
