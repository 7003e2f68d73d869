import datetime as dt
import statistics

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Membership, MembershipRole, Organisation
from accounts.roles import Role
from games.models import CatalogueRecord
from games.registry import get_engine
from games.services import demo_catalogue_data, load_catalogue
from records.files import import_document, simulate_document
from records.models import GameRecord, Player
from scoring import services, standings
from scoring.models import Club, League, LeagueMembership, SeatResult

DEMO_ADMIN_USERNAME = "admin"
DEMO_ADMIN_PASSWORD = "ludolog-demo"
DEMO_LOCATION = "Ludothèque — demo club"
DEMO_MEMBERS = ["Alice", "Bastien", "Chloé", "David", "Elif", "Fatou", "Gaspard", "Hana"]
DEMO_VISITOR_USERNAME = "visiteur"
DEMO_FRIENDLY_LOCATION = "Chez Elif"
DEMO_GAMES = 36
DEMO_STONE_AGE_GAMES = 12
DEMO_CARCASSONNE_GAMES = 12
DEMO_MAPS_GAMES = 4
DEMO_CLUB = "Club de la ludothèque (démo)"
DEMO_LEAGUE = "Saison 2026"
DEMO_ORGANISATION = ("ludotheque-demo", "Ludothèque des Quatre Vents (démo)")
"""The demo ludothèque, which runs the demo club: its catalogue, its desk, its league."""
DEMO_PEOPLE = [
    # username, role in the demo ludothèque, the player the account is (none: no player yet)
    ("organisateur", Role.ORGANISER, "Alice"),
    ("bibliothecaire", Role.LIBRARIAN, None),
]
DEMO_PASSWORD = "ludolog-demo"
SECOND_CLUB = ("les-dunes", "Club des Dunes (démo)")
"""A second organisation on the same installation: its own members, league and games, which the
first organisation's lists never show."""
SECOND_CLUB_ORGANISER = "dunes"
SECOND_CLUB_MEMBERS = ["Inès", "Jules", "Karim", "Léa", "Marius"]
SECOND_CLUB_LOCATION = "Maison des Dunes — demo club"
SECOND_CLUB_LEAGUE = "Championnat des Dunes 2026"
DEMO_GAME_ORDER = ("hunters-gatherers", "stone-age", "carcassonne", "carcassonne-maps")
OLDEST_RULES = ("stone-age",)
"""Games whose demo records pin their first ruleset, as a club's history recorded before ruleset 2
existed would: ``migrate_ruleset stone-age --to 2 --dry-run`` has something to report."""


class Command(BaseCommand):
    help = ("Load the demo catalogue, admin account and simulated club games, played by the engines' simple "
            "heuristic players (idempotent: safe to run again); print the demo's median final scores.")

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=DEMO_GAMES, help="simulated Hunters and Gatherers games")
        parser.add_argument("--stone-age-games", type=int, default=DEMO_STONE_AGE_GAMES,
                            help="simulated Stone Age games")
        parser.add_argument("--carcassonne-games", type=int, default=DEMO_CARCASSONNE_GAMES,
                            help="simulated base Carcassonne games")
        parser.add_argument("--maps-games", type=int, default=DEMO_MAPS_GAMES,
                            help="simulated Carcassonne Maps – Benelux games with the Map-Chips")

    def handle(self, *args, games: int, stone_age_games: int, carcassonne_games: int, maps_games: int, **options):
        ludotheque = self._organisation(*DEMO_ORGANISATION, Organisation.Kind.BOTH)
        records = load_catalogue(demo_catalogue_data(), ludotheque)
        self.stdout.write(f"catalogue: {len(records)} records")
        User = get_user_model()
        admin, created = User.objects.get_or_create(
            username=DEMO_ADMIN_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            admin.set_password(DEMO_ADMIN_PASSWORD)
            admin.save()
            self.stdout.write(f"demo admin created: {DEMO_ADMIN_USERNAME} / {DEMO_ADMIN_PASSWORD}")
        league = self._load_league(ludotheque)
        league.organisers.add(admin)
        for username, role, player in DEMO_PEOPLE:
            self._person(username, ludotheque, role, player)
        new = self._load_games("hunters-gatherers", games, admin, players=(2, 5), first_seed=1000)
        new += self._load_games("stone-age", stone_age_games, admin, players=(2, 4), first_seed=2000)
        new += self._load_games("carcassonne", carcassonne_games, admin, players=(2, 5), first_seed=3000)
        new += self._load_games("carcassonne-maps", maps_games, admin, players=(2, 4), first_seed=4000)
        self.stdout.write(f"simulated games: {new} new")
        self._load_friendly_game(ludotheque)
        standings.refresh(league)
        self.stdout.write(f"league: {league} with {league.memberships.count()} members, "
                          f"{standings.awaiting_approval(league).count()} game awaiting approval")
        self._load_second_club()
        self.stdout.write(self._medians())

    def _organisation(self, slug: str, name: str, kind: str) -> Organisation:
        organisation, _created = Organisation.objects.get_or_create(
            slug=slug, defaults={"name": name, "kind": kind, "language": "fr", "members_public": True,
                                 "open_to_requests": True})
        return organisation

    def _person(self, username: str, organisation: Organisation, role: Role, player: str | None):
        """A demo login: a member of ``organisation`` with ``role``, the account of ``player``."""
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
            self.stdout.write(f"demo login: {username} / {DEMO_PASSWORD} ({role.label}, {organisation})")
        membership, _created = Membership.objects.get_or_create(organisation=organisation, user=user)
        if role is not Role.MEMBER:
            MembershipRole.objects.get_or_create(membership=membership, role=role)
        if player is not None:
            Player.objects.filter(display_name=player, user__isnull=True).update(user=user)
        return user

    @transaction.atomic  # one standings refresh for the league and all its members, on commit
    def _load_league(self, organisation: Organisation) -> League:
        """The demo club's season: every demo member, Hunters and Gatherers, 4-3-2-1-style points."""
        club, _created = Club.objects.get_or_create(name=DEMO_CLUB, defaults={"organisation": organisation})
        league, _created = League.objects.get_or_create(
            club=club,
            name=DEMO_LEAGUE,
            defaults={
                "game_slugs": ["hunters-gatherers"],
                "starts_on": dt.date(2026, 1, 1),
                "ends_on": dt.date(2026, 12, 31),
                "points_table": {"2": [3, 1], "3": [4, 2, 1], "4": [5, 3, 2, 1], "5": [6, 4, 3, 2, 1]},
                "min_games": 3,
                "tie_breakers": [League.TieBreaker.WINS, League.TieBreaker.AVERAGE_SCORE],
            },
        )
        for name in DEMO_MEMBERS:
            player, _created = Player.objects.get_or_create(display_name=name)
            LeagueMembership.objects.get_or_create(league=league, player=player)
        return league

    def _load_second_club(self) -> None:
        """The second club: its organiser's login, its season with its own members, and a few
        games recorded at its table."""
        dunes = self._organisation(*SECOND_CLUB, Organisation.Kind.CLUB)
        organiser = self._person(SECOND_CLUB_ORGANISER, dunes, Role.ORGANISER, None)
        # The club's founder also keeps its settings (its name, contact, who may see its members).
        MembershipRole.objects.get_or_create(membership=Membership.objects.get(organisation=dunes, user=organiser),
                                             role=Role.ADMIN)
        club, _created = Club.objects.get_or_create(name=SECOND_CLUB[1], defaults={"organisation": dunes})
        with transaction.atomic():
            league, _created = League.objects.get_or_create(
                club=club, name=SECOND_CLUB_LEAGUE,
                defaults={"starts_on": dt.date(2026, 1, 1), "ends_on": dt.date(2026, 12, 31),
                          "points_table": {"2": [3, 1], "3": [4, 2, 1]}})
            league.organisers.add(organiser)
            for name in SECOND_CLUB_MEMBERS:
                player, _created = Player.objects.get_or_create(display_name=name)
                LeagueMembership.objects.get_or_create(league=league, player=player)
        done = set(GameRecord.objects.filter(location=SECOND_CLUB_LOCATION).values_list("seed", flat=True))
        for index in range(3):
            seed = 5000 + index
            if seed in done:
                continue
            names = [SECOND_CLUB_MEMBERS[(index + k) % len(SECOND_CLUB_MEMBERS)] for k in range(2 + index % 2)]
            document = simulate_document("hunters-gatherers", len(names), seed, names, player="heuristic")
            document["played_on"] = (dt.date(2026, 11, 20) + dt.timedelta(days=2 * index)).isoformat()
            document["location"] = SECOND_CLUB_LOCATION
            import_document(document, imported_by=organiser, organisation=dunes)
        standings.refresh(league)

    def _load_friendly_game(self, organisation: Organisation) -> None:
        """A game two members played at home, recorded by a visitor the league does not trust:
        a friendly game until the organiser (the demo admin) counts it on the league page."""
        visitor, created = get_user_model().objects.get_or_create(username=DEMO_VISITOR_USERNAME)
        if created:
            visitor.set_unusable_password()  # an account that cannot log in: the demo's stranger
            visitor.save()
        if GameRecord.objects.filter(created_by=visitor).exists():
            return
        document = simulate_document("hunters-gatherers", 2, 1999, DEMO_MEMBERS[3:5], player="heuristic")
        document["played_on"] = "2026-11-21"
        document["location"] = DEMO_FRIENDLY_LOCATION
        import_document(document, imported_by=visitor, organisation=organisation)

    def _load_games(self, game: str, count: int, admin, *, players: tuple[int, int], first_seed: int) -> int:
        """Simulated games spread over the last months, each identified by its seed."""
        catalogue = CatalogueRecord.objects.filter(engine_slug=game).first()
        copy = catalogue.copies.order_by("barcode").first() if catalogue else None
        done = set(GameRecord.objects.filter(location=DEMO_LOCATION, game_slug=game).values_list("seed", flat=True))
        today = dt.date(2026, 11, 28)
        created = 0
        for index in range(count):
            seed = first_seed + index
            if seed in done:
                continue
            seated = players[0] + index % (players[1] - players[0] + 1)
            names = [DEMO_MEMBERS[(index * 3 + k) % len(DEMO_MEMBERS)] for k in range(seated)]
            ruleset = next(iter(get_engine(game).rulesets)) if game in OLDEST_RULES else None
            document = simulate_document(game, seated, seed, names, player="heuristic", ruleset_version=ruleset)
            played_on = today - dt.timedelta(days=5 * (count - index))
            document["played_on"] = played_on.isoformat()
            document["location"] = DEMO_LOCATION
            # Spread the events over about an hour and a half: the observed duration is believable.
            moment = dt.datetime.combine(played_on, dt.time(20, 0), tzinfo=dt.timezone.utc)
            step = 5400 / max(1, len(document["events"]))
            for event in document["events"]:
                moment += dt.timedelta(seconds=step * (0.6 + 0.2 * (event["seq"] % 5)))
                event["recorded_at"] = moment.isoformat()
            import_document(document, imported_by=admin, catalogue_record=catalogue, copy=copy,
                            organisation=copy.organisation if copy else None)
            created += 1
        return created

    def _medians(self) -> str:
        """The demo games' median final score per game and per number of players, and whether a
        Stone Age tribe starved: read from the stored results, a record not scored yet (the
        scoring runs when the import commits) replayed."""
        records = list(GameRecord.objects.filter(location=DEMO_LOCATION, status=GameRecord.Status.FINISHED))
        lines: dict[int, list[tuple[int, dict[str, int]]]] = {}
        for record_id, score, breakdown in SeatResult.objects.filter(record__in=records).values_list(
                "record_id", "score", "breakdown"):
            lines.setdefault(record_id, []).append((score, breakdown))
        unscored = [record for record in records if record.pk not in lines]
        for record_id, finals in services.final_scores_of(unscored).items():
            lines[record_id] = [(line.score, dict(line.breakdown)) for line in finals]
        by_game: dict[str, dict[int, list[int]]] = {}
        starved = 0
        for record in records:
            seats = lines.get(record.pk, [])
            by_game.setdefault(record.game_slug, {}).setdefault(len(seats), []).extend(score for score, _ in seats)
            starved += sum(1 for _, breakdown in seats if breakdown.get("starvation", 0) < 0)
        parts = []
        for game in (g for g in DEMO_GAME_ORDER if g in by_game):
            counts = by_game[game]
            every = [score for scores in counts.values() for score in scores]
            each = ", ".join(f"{n} players {statistics.median(counts[n]):g}" for n in sorted(counts))
            parts.append(f"{game} {statistics.median(every):g} ({each})")
        if not parts:
            return "median final score: no demo games"
        note = f"; Stone Age tribes that starved: {starved}" if "stone-age" in by_game else ""
        return "median final score: " + "; ".join(parts) + note
