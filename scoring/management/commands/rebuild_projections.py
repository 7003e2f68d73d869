from django.core.management.base import BaseCommand

from scoring import projections


class Command(BaseCommand):
    help = "Drop every scoring projection (results, statistics, standings, ratings) and rebuild it from the events."

    def handle(self, *args, **options):
        counts = projections.rebuild_all(progress=lambda done, total: self.stdout.write(f"  results {done}/{total}"))
        self.stdout.write("rebuilt: " + ", ".join(f"{name} {count}" for name, count in counts.items()))
