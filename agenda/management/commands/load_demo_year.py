"""The demo ludothèque's last twelve months, so that its yearly report has figures on a fresh
``make run``: opening hours and closures, the openings made from them with the people counted at
each and the games played on site, a family games evening with registrations, a waiting list and
check-ins, a stand at the Fête du jeu, group visits, tariffs, forty households with their
memberships, loans and returns through the year, late fees paid or waived; and the second club's
monthly game nights.

What must chain as events goes through the services, with the day it happened (memberships,
loans, returns, late fees, registrations, check-ins); what is only counted is written in bulk
(door counts, play tallies). Loaded once, in one transaction: run again (``make run`` runs it at
every start), it only makes the coming weeks' openings, as the daily task would.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from accounts.models import Organisation
from accounts.roles import Role
from games.models import Copy
from games.services import load_catalogue
from loans import memberships, services as desk
from loans.errors import LoanError
from loans.models import Household, LoanRules, Member, Tariff

from ... import services
from ...models import DoorCount, OpeningHours, PlayTally, Session
from .. import demo_year

DEMO_LIBRARY = "ludotheque-demo"
DEMO_CLUB = "les-dunes"
"""The demo's organisation of kind club (``load_demo``'s second club): its monthly game nights."""
LIBRARIAN = "bibliothecaire"
OPENING_LABEL = "Accueil tout public"
OPENING_HOURS = ((2, dt.time(14), dt.time(18)), (5, dt.time(10), dt.time(12, 30)))
"""Wednesday afternoon and Saturday morning."""
FAMILY_EVENING = "Soirée jeux en famille"
FETE_DU_JEU = "Fête du jeu : stand de la ludothèque"
CLUB_NIGHT = "Soirée jeux du club"
LOAN_CHANCE = 0.09
"""How likely a member household with nothing out borrows at an opening (in an average month)."""
LATE_CHANCE = 0.1
WAIVED = ("Jeu rendu en retard pendant une hospitalisation", "Première fois en retard : geste d’accueil")


@dataclass
class Loan:
    copy: Copy
    household: Household
    back_on: dt.date | None
    """The day it comes back (None: still out today, not yet due)."""


@dataclass
class Year:
    """What the simulation keeps between days: the copies out, each household's membership as paid."""

    out: dict[int, Loan] = field(default_factory=dict)
    valid_until: dict[int, dt.date] = field(default_factory=dict)
    households: int = 0
    loans: int = 0
    late: int = 0
    refused: int = 0


class Command(BaseCommand):
    help = ("Load the demo ludothèque's last twelve months (idempotent; after load_demo and load_demo_loans): "
            "sessions with attendance, events, group visits, tariffs, households, memberships and loans.")

    def handle(self, *args, **options) -> None:
        library = Organisation.objects.filter(slug=DEMO_LIBRARY).first()
        if library is None:
            raise CommandError("the demo ludothèque is not there: run load_demo first")
        today = timezone.localdate()
        with transaction.atomic():
            if OpeningHours.objects.filter(organisation=library, label=OPENING_LABEL).exists():
                made = services.generate_coming_openings(library, today)
                self.stdout.write(f"demo year: already there ({made} coming openings made)")
                return
            self._load(library, today)

    def _load(self, library: Organisation, today: dt.date) -> None:
        rng = random.Random(demo_year.SEED)
        first_day = today - dt.timedelta(days=365)
        staff = self._librarian(library)
        if not library.town:
            library.town = demo_year.LIBRARY_TOWN  # the residents of the report are its town's
            library.save(update_fields=["town"])
        load_catalogue(demo_year.EXTRA_CATALOGUE, library)
        self._calendar(library, staff, first_day, today)
        openings = list(Session.objects.filter(
            organisation=library, kind=Session.Kind.OPENING, starts_at__gte=services.local_datetime(
                first_day, dt.time.min), ends_at__lte=timezone.now()).order_by("starts_at"))
        records = list(library.copies.values_list("record_id", flat=True).distinct().order_by("record_id"))
        counted = self._count_openings(rng, openings, records)
        events = self._events(rng, library, staff, first_day, today, records)
        visits = self._group_visits(rng, library, staff, first_day, today)
        events += self._coming(rng, library, staff, today)
        tariffs = self._tariffs(library, staff)
        year = self._households_year(rng, library, staff, tariffs, first_day, today,
                                     sorted({timezone.localdate(session.starts_at) for session in openings}))
        nights = self._club_nights(rng, today)
        self.stdout.write(
            f"demo year: {len(openings)} openings ({counted} people counted), {events} events, {visits} group "
            f"visits, {year.households} households, {year.loans} loans ({year.late} back late, {year.refused} "
            f"refused), {nights} club nights")

    def _librarian(self, library: Organisation):
        """Who works the desk in the demo: its librarian, else the operator."""
        User = get_user_model()
        staff = (User.objects.filter(username=LIBRARIAN).first()
                 or User.objects.filter(is_superuser=True).order_by("pk").first())
        if staff is None:
            raise CommandError("no librarian nor admin to work the desk: run load_demo first")
        return staff

    # -- the calendar --------------------------------------------------------------------------

    def _calendar(self, library: Organisation, staff, first_day: dt.date, today: dt.date) -> None:
        """The hours, the closures of the year and of the coming weeks, the openings made from them."""
        horizon = today + dt.timedelta(days=services.GENERATION_DAYS)
        for starts, ends, reason in demo_year.closures(first_day, horizon):
            services.add_closure(library, staff, first_day=starts, last_day=ends, reason=reason)
        for weekday, opens, closes in OPENING_HOURS:
            services.add_opening_hours(library, staff, weekday=weekday, starts=opens, ends=closes,
                                       valid_from=first_day, label=OPENING_LABEL)
        services.generate_openings(library, first_day, today - dt.timedelta(days=1))

    def _count_openings(self, rng: random.Random, openings: list[Session], records: list[int]) -> int:
        """Each opening's arrivals, one tap each through the afternoon, and the games played."""
        taps, plays = [], []
        for session in openings:
            arrivals = demo_year.opening_arrivals(rng, timezone.localdate(session.starts_at))
            taps += self._taps(rng, session, arrivals)
            # Each family plays two games or so.
            for number in range(round(arrivals["family"] * rng.uniform(1.5, 2.5))):
                plays.append(PlayTally(session=session, record_id=rng.choice(records), delta=1,
                                       key=f"demo-play-{number}", counted_at=self._moment(rng, session),
                                       recorded_at=session.ends_at))
        DoorCount.objects.bulk_create(taps)
        PlayTally.objects.bulk_create(plays)
        return sum(tap.delta for tap in taps if tap.public != "family")

    def _taps(self, rng: random.Random, session: Session, arrivals: dict[str, int]) -> list[DoorCount]:
        taps = [DoorCount(session=session, public=public, delta=1, key=f"demo-{public}-{number}",
                          counted_at=self._moment(rng, session), recorded_at=session.ends_at)
                for public, count in arrivals.items() for number in range(count)]
        if taps and rng.random() < 0.2:  # a tap on the wrong button, taken back
            wrong = rng.choice(taps)
            taps += [DoorCount(session=session, public=wrong.public, delta=delta, key=f"demo-oops-{delta}",
                               counted_at=wrong.counted_at, recorded_at=session.ends_at) for delta in (1, -1)]
        return taps

    @staticmethod
    def _moment(rng: random.Random, session: Session) -> dt.datetime:
        return session.starts_at + (session.ends_at - session.starts_at) * rng.random() * 0.8

    # -- events and group visits ---------------------------------------------------------------

    def _events(self, rng: random.Random, library: Organisation, staff, first_day: dt.date, today: dt.date,
                records: list[int]) -> int:
        """A family games evening about six months ago (in the year most of the twelve months
        are in), and the ludothèque's stand at the Fête du jeu, the last Saturday of May."""
        middle = today - dt.timedelta(days=182)
        friday = demo_year.weekday_on_or_after(middle, 4) if middle.month < 7 else (
            middle - dt.timedelta(days=(middle.weekday() - 4) % 7))
        evening = services.plan_session(
            library, staff, kind=Session.Kind.EVENT, title=FAMILY_EVENING, capacity=24, registration=True,
            starts_at=services.local_datetime(friday, dt.time(19)),
            ends_at=services.local_datetime(friday, dt.time(22)))
        self._registrations(rng, evening)
        made = 1
        may = demo_year.last_weekday_of_may(today.year, 5)
        may = may if may < today else demo_year.last_weekday_of_may(today.year - 1, 5)
        if may >= first_day:
            stand = services.plan_session(
                library, staff, kind=Session.Kind.EVENT, title=FETE_DU_JEU,
                starts_at=services.local_datetime(may, dt.time(10)), ends_at=services.local_datetime(may, dt.time(18)))
            arrivals = {public: round(count * 4.5) for public, count in demo_year.opening_arrivals(rng, may).items()}
            DoorCount.objects.bulk_create(self._taps(rng, stand, arrivals))
            PlayTally.objects.bulk_create([
                PlayTally(session=stand, record_id=rng.choice(records), delta=1, key=f"demo-play-{number}",
                          counted_at=self._moment(rng, stand), recorded_at=stand.ends_at)
                for number in range(arrivals["family"] * 2)])
            made += 1
        return made

    def _registrations(self, rng: random.Random, evening: Session) -> None:
        """Families register over the three weeks before (2 to 5 places each) until the 24 places
        are taken and three families wait; on the night all but one of the registered come,
        checked in at the door and counted there."""
        families = rng.sample([name for name, *_rest in demo_year.FAMILIES], len(demo_year.FAMILIES))
        came: dict[str, int] = defaultdict(int)
        waiting = 0
        for index, surname in enumerate(families):
            if waiting == 3:
                break
            registered_at = evening.starts_at - dt.timedelta(days=21 - index, hours=rng.randint(0, 9))
            places = rng.choice((2, 3, 3, 4, 4, 5))
            answer = services.register(evening, name=f"Famille {surname}", places=places, language="fr",
                                       now=registered_at)
            if answer.position is not None:
                waiting += 1
            elif index != 4:  # one family kept at home by a cold
                services.check_in(answer.registration, None, now=evening.starts_at + dt.timedelta(minutes=index))
                came["family"] += 1
                adults = rng.choice((1, 2))
                came["adult"] += adults
                for _child in range(places - adults):
                    came[rng.choice(("child_3_5", "child_6_11", "child_6_11", "child_12_17"))] += 1
        DoorCount.objects.bulk_create(self._taps(rng, evening, dict(came)))

    def _group_visits(self, rng: random.Random, library: Organisation, staff, first_day: dt.date,
                      today: dt.date) -> int:
        """A crèche once a month, a school class four times, a care home every other month, a
        leisure centre in July; one school visit was not counted at the door (the report takes
        the numbers booked)."""
        closed = demo_year.closures(first_day, today)
        visits = []
        month = dt.date(first_day.year, first_day.month, 1)
        while month < today:
            visits.append((month, 1, dt.time(9, 30), dt.time(10, 30), "creche", "Crèche Les Petits Loups", 8, 3))
            if month.month in (1, 3, 6, 11):
                visits.append((month, 3, dt.time(14), dt.time(15, 30), "school", "École Jean-Macé, classe de CP",
                               24, 2))
            if month.month % 2 == 0:
                visits.append((month, 4, dt.time(15), dt.time(16, 30), "care_home", "EHPAD Les Charmilles", 0, 10))
            if month.month == 7:
                visits.append((month, 1, dt.time(10), dt.time(11, 30), "leisure_centre",
                               "Centre de loisirs Lille-Sud", 16, 3))
            month = (month + dt.timedelta(days=32)).replace(day=1)
        made = 0
        for month, weekday, starts, ends, kind, name, children, adults in visits:
            day = demo_year.weekday_on_or_after(month + dt.timedelta(days=7), weekday)  # the second week
            if not first_day <= day < today or any(first <= day <= last for first, last, _reason in closed):
                continue
            visit = services.plan_session(
                library, staff, kind=Session.Kind.GROUP_VISIT, structure_kind=kind, structure_name=name,
                children_expected=children, adults_expected=adults,
                starts_at=services.local_datetime(day, starts), ends_at=services.local_datetime(day, ends))
            made += 1
            if kind == "school" and made % 3 == 0:
                continue
            counted = [("group_child", children - rng.randint(0, min(2, children))), ("group_adult", adults)]
            DoorCount.objects.bulk_create([
                DoorCount(session=visit, public=public, delta=count, key=f"demo-{public}", counted_at=visit.starts_at,
                          recorded_at=visit.starts_at) for public, count in counted if count])
        return made

    def _coming(self, rng: random.Random, library: Organisation, staff, today: dt.date) -> int:
        """What the calendar and the staff's agenda show ahead: the next family evening, a few
        families registered already, and the crèche's next visit."""
        closed = demo_year.closures(today, today + dt.timedelta(days=services.GENERATION_DAYS))

        def open_on(day: dt.date) -> dt.date:
            while any(first <= day <= last for first, last, _reason in closed):
                day += dt.timedelta(days=7)
            return day

        friday = open_on(demo_year.weekday_on_or_after(today + dt.timedelta(days=10), 4))
        evening = services.plan_session(
            library, staff, kind=Session.Kind.EVENT, title=FAMILY_EVENING, capacity=24, registration=True,
            starts_at=services.local_datetime(friday, dt.time(19)),
            ends_at=services.local_datetime(friday, dt.time(22)))
        for index, surname in enumerate(rng.sample([name for name, *_rest in demo_year.FAMILIES], 4)):
            services.register(evening, name=f"Famille {surname}", places=rng.choice((2, 3, 4)), language="fr",
                              now=timezone.now() - dt.timedelta(days=4 - index))
        tuesday = open_on(demo_year.weekday_on_or_after(today + dt.timedelta(days=1), 1))
        services.plan_session(
            library, staff, kind=Session.Kind.GROUP_VISIT, structure_kind="creche",
            structure_name="Crèche Les Petits Loups", children_expected=8, adults_expected=3,
            starts_at=services.local_datetime(tuesday, dt.time(9, 30)),
            ends_at=services.local_datetime(tuesday, dt.time(10, 30)))
        return 1

    def _club_nights(self, rng: random.Random, today: dt.date) -> int:
        """The second club's first Friday of each month, the year's with the players counted, and
        the next two."""
        club = Organisation.objects.filter(slug=DEMO_CLUB).first()
        if club is None:
            return 0
        organiser = club.memberships.filter(roles__role=Role.ORGANISER).values_list("user", flat=True).first()
        by = get_user_model().objects.filter(pk=organiser).first()
        made = 0
        month = (today - dt.timedelta(days=365)).replace(day=1)
        while month <= today + dt.timedelta(days=60):
            friday = demo_year.weekday_on_or_after(month, 4)
            month = (month + dt.timedelta(days=32)).replace(day=1)
            if not today - dt.timedelta(days=365) <= friday <= today + dt.timedelta(days=60) or friday == today:
                continue
            night = services.plan_session(
                club, by, kind=Session.Kind.GAME_NIGHT, title=CLUB_NIGHT,
                starts_at=services.local_datetime(friday, dt.time(20)),
                ends_at=services.local_datetime(friday, dt.time(23, 30)))
            made += 1
            if friday < today:
                DoorCount.objects.bulk_create(self._taps(rng, night, {"adult": rng.randint(8, 16)}))
        return made

    # -- tariffs, households, memberships and loans --------------------------------------------

    def _tariffs(self, library: Organisation, staff) -> dict[str, Tariff]:
        found = {tariff.name: tariff for tariff in Tariff.objects.filter(organisation=library)}
        return {key: found.get(name) or memberships.add_tariff(staff, library, name=name, kind=kind, per=per,
                                                                 amount=Decimal(amount), months=12)
                for key, (name, kind, per, amount) in demo_year.TARIFFS.items()}

    def _households_year(self, rng: random.Random, library: Organisation, staff, tariffs: dict[str, Tariff],
                         first_day: dt.date, today: dt.date, opening_days: list[dt.date]) -> Year:
        """The households, then the year day by day: at each opening the memberships due, then the
        returns, then the loans; a late return's fee paid there and then, or waived."""
        LoanRules.objects.get_or_create(organisation=library)
        loan_days = LoanRules.current(library).loan_days
        lendable = list(Copy.objects.filter(organisation=library).filter(
            barcode__regex=r"^(" + "|".join(demo_year.LENT_ON_THE_YEAR) + r")-").order_by("barcode"))
        year = Year()
        paying: dict[dt.date, list[tuple[Household, Tariff]]] = defaultdict(list)
        eligible = [day for day in opening_days if day > first_day + dt.timedelta(days=7)]
        for plan in demo_year.households(rng, today.year):
            household = self._household(rng, library, plan, first_day, eligible)
            year.households += 1
            if plan.returning:
                year.valid_until[household.pk] = household.membership_ends
                if plan.renews:
                    near = [day for day in eligible if abs((day - household.membership_ends).days) <= 14]
                    paying[rng.choice(near or eligible)].append((household, tariffs[plan.tariff]))
            else:
                # New members come most at the rentrée and in January.
                weights = [3 if day.month in (9, 10, 1) else 1 for day in eligible]
                paying[rng.choices(eligible, weights)[0]].append((household, tariffs[plan.tariff]))
        households = list(Household.objects.filter(pk__in=year.valid_until.keys() | {
            household.pk for joined in paying.values() for household, _tariff in joined}).order_by("card_number"))
        returns: dict[dt.date, list[int]] = defaultdict(list)
        for day in opening_days:
            for household, tariff in paying.get(day, ()):
                paid = memberships.take_membership(staff, household, tariff, method=rng.choice(
                    ("cash", "cash", "card", "cheque", "transfer")), today=day)
                year.valid_until[household.pk] = dt.date.fromisoformat(paid.payload["ends"])
            for copy_id in returns.pop(day, ()):
                self._return(rng, staff, year, year.out.pop(copy_id), day)
            self._lend(rng, staff, year, households, lendable, day, today, loan_days, returns, opening_days)
        for late_day in sorted(returns):  # returned on their due day, just before today
            for copy_id in returns[late_day]:
                self._return(rng, staff, year, year.out.pop(copy_id), late_day)
        return year

    def _household(self, rng: random.Random, library: Organisation, plan: demo_year.DemoHousehold,
                   first_day: dt.date, eligible: list[dt.date]) -> Household:
        typed = {}
        if plan.returning:
            # Its last membership, paid before the desk kept memberships as events, ends in the year.
            ends = rng.choice(eligible) - dt.timedelta(days=rng.randint(-10, 10))
            typed = {"membership_starts": ends - dt.timedelta(days=364), "membership_ends": ends, "fee_paid": True}
        household = Household.objects.create(
            organisation=library, card_number=plan.card, name=plan.name, town=plan.town,
            postcode=demo_year.TOWNS[plan.town], address=demo_year.street_address(rng), **typed)
        Member.objects.bulk_create([Member(household=household, display_name=name, birth_year=born)
                                    for name, born in plan.members])
        return household

    def _lend(self, rng: random.Random, staff, year: Year, households: list[Household], lendable: list[Copy],
              day: dt.date, today: dt.date, loan_days: int, returns: dict[dt.date, list[int]],
              opening_days: list[dt.date]) -> None:
        busy = {loan.household.pk for loan in year.out.values()}
        free = [copy for copy in lendable if copy.pk not in year.out]
        chance = LOAN_CHANCE * demo_year.SEASON[day.month]
        for household in households:
            if household.pk in busy or year.valid_until.get(household.pk, dt.date.min) < day:
                continue
            if rng.random() >= chance or not free:
                continue
            due = day + dt.timedelta(days=loan_days)
            late = rng.random() < LATE_CHANCE
            window = ([d for d in opening_days if due < d <= due + dt.timedelta(days=10)] if late
                      else [d for d in opening_days if day + dt.timedelta(days=7) <= d <= due])
            back_on = rng.choice(window) if window else None
            if back_on is None or back_on >= today:
                back_on = due if due < today else None  # brought back on time, or still out and not due
            for copy in rng.sample(free, min(len(free), rng.choice((1, 1, 2)))):
                try:
                    desk.lend(copy, household, staff, today=day)
                except LoanError:
                    year.refused += 1
                    continue
                free.remove(copy)
                year.out[copy.pk] = Loan(copy, household, back_on)
                year.loans += 1
                if back_on is not None:
                    returns[back_on].append(copy.pk)

    def _return(self, rng: random.Random, staff, year: Year, loan: Loan, day: dt.date) -> None:
        back = desk.return_copy(loan.copy, staff, today=day)
        if back.late_fee > 0:
            year.late += 1
            if rng.random() < 0.25:
                memberships.waive_late_fee(staff, loan.household, amount=back.late_fee, reason=rng.choice(WAIVED),
                                           today=day)
            else:
                memberships.pay_late_fee(staff, loan.household, amount=back.late_fee, method="cash", today=day)

