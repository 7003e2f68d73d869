import json

from django.core.management.base import BaseCommand, CommandError

from records.files import RecordFileError, document_position


class Command(BaseCommand):
    help = "Replay a record file without the database: print the position and scores after event N."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--at", type=int, default=None, help="stop after event N (default: the last)")
        parser.add_argument("--json", action="store_true", help="print the state endpoint's JSON")

    def handle(self, *args, path: str, at: int | None, json: bool, **options):
        try:
            with open(path, encoding="utf-8") as handle:
                document = _load(handle.read(), path)
            position = document_position(document, at)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error}") from None
        except RecordFileError as error:
            raise CommandError(f"{error.reason}: {error.message}") from None
        if json:
            self.stdout.write(_dumps(position))
            return
        self._print_text(document, position)

    def _print_text(self, document, position):
        view = position["position"]
        names = {seat["seat"]: seat["player"] for seat in position["seats"]}
        self.stdout.write(f"{document['game']} ({position['ruleset_version']}) after event {position['at']}"
                          f" of {len(document['events'])}" + (" — game over" if position["is_over"] else ""))
        if position["at"]:
            event = document["events"][position["at"] - 1]
            self.stdout.write(f"last event: {event.get('notation') or event['type']}")
        self.stdout.write(f"tiles on the table: {len(view.get('tiles', []))}")
        current = view.get("current_player")
        if current is not None:
            self.stdout.write(f"to play: {names.get(current, current)}")
        self.stdout.write("scores:")
        for score in view.get("scores", []):
            parts = ", ".join(f"{source} {points}" for source, points in score["breakdown"].items())
            self.stdout.write(f"  {names.get(score['seat'], score['seat'])}: {score['total']} ({parts})")


def _load(text, path):
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"{path} is not JSON: {error}") from None


def _dumps(data):
    return json.dumps(data, ensure_ascii=False, indent=1)
