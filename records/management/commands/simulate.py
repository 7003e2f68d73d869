from django.core.management.base import BaseCommand, CommandError

from records.files import RecordFileError, dumps, simulate_document


class Command(BaseCommand):
    help = ("Play a complete game (random legal actions, or the engine's simple heuristic player) and print it "
            "as a record file (same seed, same file).")
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("game", help="engine slug, e.g. hunters-gatherers")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--player", choices=["random", "heuristic"], default="random",
                            help="random legal actions, or the simple player the demo's games are played by")

    def handle(self, *args, game: str, players: int, seed: int, player: str, **options):
        try:
            document = simulate_document(game, players, seed, player=player)
        except RecordFileError as error:
            raise CommandError(error.message) from None
        except ValueError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(dumps(document), ending="")
