"""The organisations of an installation that had none: each club becomes one, with its leagues
and ratings; the ludothèque (its households, copies, lending rules, desk volunteers and
librarians) becomes one too, or joins the club where there is exactly one (a ludothèque that
runs its club, as the demo's). People come along: a league's players with an account, its
organisers (organisers of the club) and trusted scorekeepers (the club's trusted scorekeepers),
the members of a household with an account, the ``desk`` and ``librarians`` groups. A game
record belongs to the one club whose league it fits by date and players, else to the library
whose copy it was played with, else to the only organisation there is; otherwise to none."""

from django.conf import settings
from django.db import migrations
from django.utils.text import slugify

CLUB, LIBRARY, BOTH = "club", "library", "both"


def _slug(name, taken):
    base = slugify(name)[:50] or "organisation"
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    taken.add(slug)
    return slug


def forwards(apps, schema_editor):
    Organisation = apps.get_model("accounts", "Organisation")
    Membership = apps.get_model("accounts", "Membership")
    MembershipRole = apps.get_model("accounts", "MembershipRole")
    Club = apps.get_model("scoring", "Club")
    League = apps.get_model("scoring", "League")
    Household = apps.get_model("loans", "Household")
    Member = apps.get_model("loans", "Member")
    LoanRules = apps.get_model("loans", "LoanRules")
    Copy = apps.get_model("games", "Copy")
    GameRecord = apps.get_model("records", "GameRecord")
    Group = apps.get_model("auth", "Group")

    taken = set(Organisation.objects.values_list("slug", flat=True))
    language = settings.LANGUAGE_CODE

    def join(organisation, user_id, *roles):
        membership, _created = Membership.objects.get_or_create(organisation=organisation, user_id=user_id)
        for role in roles:
            MembershipRole.objects.get_or_create(membership=membership, role=role)

    clubs = list(Club.objects.filter(organisation__isnull=True).order_by("pk"))
    for club in clubs:
        club.organisation = Organisation.objects.create(name=club.name, slug=_slug(club.name, taken), kind=CLUB,
                                                        language=language)
        club.save(update_fields=["organisation"])
    for league in League.objects.select_related("club__organisation").order_by("pk"):
        organisation = league.club.organisation
        for user_id in league.memberships.exclude(player__user=None).values_list("player__user_id", flat=True):
            join(organisation, user_id)
        for user_id in league.organisers.values_list("pk", flat=True):
            join(organisation, user_id, "organiser")
        for user_id in league.trusted_scorekeepers.values_list("pk", flat=True):
            join(organisation, user_id, "scorekeeper")

    desk = Group.objects.filter(name="desk").first()
    librarians = Group.objects.filter(name="librarians").first()
    lends = (Household.objects.exists() or Copy.objects.exists() or LoanRules.objects.exists()
             or (desk is not None and desk.user_set.exists())
             or (librarians is not None and librarians.user_set.exists()))
    if lends:
        club_organisations = list(Organisation.objects.filter(kind=CLUB))
        if len(club_organisations) == 1 and not Organisation.objects.filter(kind__in=[LIBRARY, BOTH]).exists():
            library = club_organisations[0]
            library.kind = BOTH
            library.save(update_fields=["kind"])
        else:
            library = Organisation.objects.filter(kind__in=[LIBRARY, BOTH]).order_by("pk").first() or \
                Organisation.objects.create(name=settings.LUDOLOG_LIBRARY_NAME,
                                            slug=_slug(settings.LUDOLOG_LIBRARY_NAME, taken), kind=LIBRARY,
                                            language=language)
        Copy.objects.filter(organisation__isnull=True).update(organisation=library)
        Household.objects.filter(organisation__isnull=True).update(organisation=library)
        LoanRules.objects.filter(organisation__isnull=True).update(organisation=library)
        for user_id in Member.objects.exclude(user=None).values_list("user_id", flat=True):
            join(library, user_id)
        for group, role in ((desk, "desk"), (librarians, "librarian")):
            if group is not None:
                for user_id in group.user_set.values_list("pk", flat=True):
                    join(library, user_id, role)

    organisations = list(Organisation.objects.all())
    leagues = list(League.objects.select_related("club").prefetch_related("memberships"))
    members = {league.pk: {m.player_id for m in league.memberships.all()} for league in leagues}
    for record in GameRecord.objects.filter(organisation__isnull=True).prefetch_related("seats").select_related("copy"):
        seated = {seat.player_id for seat in record.seats.all()}
        fitting = {league.club.organisation_id for league in leagues
                   if seated and league.starts_on <= record.played_on <= league.ends_on and seated <= members[league.pk]}
        if len(fitting) == 1:
            organisation_id = fitting.pop()
        elif record.copy is not None and record.copy.organisation_id:
            organisation_id = record.copy.organisation_id
        elif len(organisations) == 1:
            organisation_id = organisations[0].pk
        else:
            continue
        GameRecord.objects.filter(pk=record.pk).update(organisation_id=organisation_id)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("games", "0011_copy_organisation"),
        ("records", "0022_gamerecord_organisation"),
        ("scoring", "0013_club_organisation"),
        ("loans", "0008_household_organisation_loanrules_organisation"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
