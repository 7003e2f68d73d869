"""The demo's ludothèque desk: checklists read from the catalogue's contents, three households
(one with a member account to sign in with), a loan returned late, loans out (one overdue) and a
reservation waiting, so that the desk, the member's page and the catalogue show a real day."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from accounts.models import Membership, Organisation
from games.models import CatalogueRecord, Copy
from loans import memberships, services
from loans.models import CopyEvent, Household, LoanRules, Member

DEMO_LIBRARY = "ludotheque-demo"
"""The demo ludothèque's short name (``load_demo`` makes it)."""
DEMO_MEMBER_USERNAME = "famille-martin"
DEMO_MEMBER_PASSWORD = "ludolog-demo"
DEMO_HOUSEHOLDS = [
    # name, card, the member who signs in (if any)
    ("Famille Martin", "M-0001", DEMO_MEMBER_USERNAME),
    ("Famille Dubois", "M-0002", None),
    ("Famille Nguyen", "M-0003", None),
]
DEMO_ADDRESSES = {
    # card: where the household lives, as its page at the desk shows it
    "M-0001": {"address": "4 rue des Tilleuls", "postcode": "59000", "town": "Lille", "phone": "03 20 12 34 56"},
    "M-0002": {"address": "18 avenue Foch", "postcode": "59700", "town": "Marcq-en-Barœul", "phone": ""},
    "M-0003": {"address": "7 place du Marché", "postcode": "59650", "town": "Villeneuve-d’Ascq",
               "phone": "06 12 34 56 78"},
}
DEMO_MEMBERS = {
    # card: the household's members beside its account's (name, year of birth)
    "M-0001": [("Léo Martin", 2016), ("Jeanne Martin", 2019)],
    "M-0002": [("Paul Dubois", 1981), ("Inès Dubois", 2014)],
    "M-0003": [("Minh Nguyen", 1987)],
}


class Command(BaseCommand):
    help = ("Load the demo's loans desk (idempotent): checklists from the catalogue's contents, households, "
            "loans and a reservation. Run after load_demo.")

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        library = Organisation.objects.filter(slug=DEMO_LIBRARY).first()
        if library is None:
            raise CommandError("the demo ludothèque is not there: run load_demo first")
        LoanRules.objects.get_or_create(organisation=library)
        for record in CatalogueRecord.objects.all():
            services.fill_components(record)
        today = timezone.localdate()
        households = {}
        for name, card, username in DEMO_HOUSEHOLDS:
            households[card], _ = Household.objects.get_or_create(card_number=card, defaults={
                "organisation": library, "name": name, "fee_paid": True, "deposit_held": 50, "loan_limit": 3,
                "membership_starts": today - dt.timedelta(days=200), "membership_ends": today + dt.timedelta(days=165)})
            if username:
                self._member(households[card], name, username, library)
            self._lives_and_members(households[card], card)
        if CopyEvent.objects.filter(household__in=households.values()).exists():
            self.stdout.write("demo loans: already there")
            return
        martin, dubois, nguyen = (households[card] for _, card, _ in DEMO_HOUSEHOLDS)
        copies = {copy.barcode: copy for copy in Copy.objects.select_related("record")}
        admin = get_user_model().objects.filter(is_superuser=True).order_by("pk").first()
        days_ago = lambda days: today - dt.timedelta(days=days)  # noqa: E731
        # Martin borrowed Carcassonne and brought it back three days late; now they have the
        # Hunters and Gatherers copy on the shelves, and the Dubois wait for that game.
        services.lend(copies["LUD-CA-0001"], martin, admin, today=days_ago(45))
        back = services.return_copy(copies["LUD-CA-0001"], admin, today=days_ago(21))
        # ... and paid the late fee there and then: a household owing fees borrows nothing more.
        memberships.pay_late_fee(admin, martin, amount=back.late_fee, method="cash", happened_on=days_ago(21))
        services.lend(copies["LUD-HG-0001"], martin, admin, today=days_ago(10))
        services.place_hold(copies["LUD-HG-0001"].record, dubois, admin, today=days_ago(2))
        # The Nguyens have the Map-Chips, overdue by nine days: the desk's overdue list.
        services.lend(copies["LUD-MC-0001"], nguyen, admin, today=days_ago(30))
        self.stdout.write(f"demo loans: {len(households)} households, member login {DEMO_MEMBER_USERNAME} / "
                          f"{DEMO_MEMBER_PASSWORD}")

    def _lives_and_members(self, household: Household, card: str) -> None:
        """Its address where it has none yet (a demo changed at the desk keeps its changes), and its
        members by name (one each, whatever the times loaded)."""
        if not (household.address or household.town):
            for field, value in DEMO_ADDRESSES[card].items():
                setattr(household, field, value)
            household.save(update_fields=list(DEMO_ADDRESSES[card]))
        for name, born in DEMO_MEMBERS[card]:
            Member.objects.get_or_create(household=household, display_name=name, defaults={"birth_year": born})

    def _member(self, household: Household, name: str, username: str, library: Organisation) -> None:
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(DEMO_MEMBER_PASSWORD)
            user.save()
        Member.objects.get_or_create(household=household, user=user, defaults={"display_name": name})
        Membership.objects.get_or_create(organisation=library, user=user)
