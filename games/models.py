"""The ludothèque catalogue, modelled on a library system's record (PMB, Koha).

A ``CatalogueRecord`` describes a game as a published document: titles, document type, authors
with their roles, publisher, languages, classification, player counts, ages, duration, contents.
``Copy`` rows are the holdings: the physical boxes on the shelves, each with its own barcode.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from .covers import cover_upload_to, validate_cover
from .jobs import ImportJob


class Language(models.Model):
    """A language by its ISO 639-2/B code, as library records carry it (``fre``, ``cze``, ``dut``)."""

    code = models.CharField(
        _("ISO 639-2 code"),
        max_length=3,
        primary_key=True,
        validators=[RegexValidator(r"^[a-z]{3}$", _("Use a three-letter ISO 639-2 code, e.g. fre."))],
    )
    name = models.CharField(_("name"), max_length=64)

    class Meta:
        ordering = ["name"]
        verbose_name = _("language")
        verbose_name_plural = _("languages")

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class Category(models.Model):
    """A classification category: a code and a label, e.g. ``A 406`` "jeu de stratégie"."""

    class Scheme(models.TextChoices):
        LUDOTHEQUE = "ludotheque", _("game library classification")
        ESAR = "esar", _("ESAR classification")
        SUBJECT = "subject", _("subject heading")
        KEYWORD = "keyword", _("keyword")
        DEWEY = "dewey", _("Dewey decimal classification")
        OTHER = "other", _("other classification")

    code = models.CharField(_("code"), max_length=32, unique=True)
    label = models.CharField(_("label"), max_length=200)
    scheme = models.CharField(
        _("scheme"), max_length=16, choices=Scheme.choices, default=Scheme.LUDOTHEQUE,
        help_text=_("Where the category comes from: a classification (686 in UNIMARC, ESAR codes among them), "
                    "a subject heading (606), a keyword (610) or a Dewey number (676)."))

    class Meta:
        ordering = ["code"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")

    def __str__(self) -> str:
        return f"{self.code} {self.label}"


class Person(models.Model):
    """An author, illustrator or other contributor, named as the catalogue names them."""

    name = models.CharField(_("name"), max_length=200, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("person")
        verbose_name_plural = _("people")

    def __str__(self) -> str:
        return self.name


class Publisher(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("publisher")
        verbose_name_plural = _("publishers")

    def __str__(self) -> str:
        return self.name


class CatalogueRecord(models.Model):
    title = models.CharField(_("title"), max_length=300)
    document_type = models.CharField(
        _("document type"), max_length=200, blank=True, default="objet à 3 dimensions, artefacts, ..."
    )
    publisher = models.ForeignKey(
        Publisher, verbose_name=_("publisher"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="records",
    )
    publication_year = models.PositiveSmallIntegerField(_("publication year"), null=True, blank=True)
    languages = models.ManyToManyField(Language, verbose_name=_("languages"), blank=True, related_name="records")
    categories = models.ManyToManyField(
        Category, verbose_name=_("categories"), blank=True, related_name="records"
    )
    min_players = models.PositiveSmallIntegerField(
        _("minimum players"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    max_players = models.PositiveSmallIntegerField(
        _("maximum players"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    min_age = models.PositiveSmallIntegerField(_("minimum age"), null=True, blank=True)
    max_age = models.PositiveSmallIntegerField(_("maximum age"), null=True, blank=True)
    duration_minutes = models.PositiveSmallIntegerField(
        _("average duration (minutes)"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    contents = models.TextField(_("contents"), blank=True, help_text=_("The material in the box."))
    summary = models.TextField(_("summary"), blank=True)
    notes = models.TextField(_("notes"), blank=True)
    bgg_id = models.PositiveIntegerField(
        # Nullable without a default: SQLite adds the column in place. Not unique: a library may
        # catalogue two editions of one BoardGameGeek game.
        _("BoardGameGeek id"), null=True, blank=True, db_index=True,
        help_text=_("The game's id on BoardGameGeek, kept when a play history names it (plays import)."))
    added_with_a_result = models.BooleanField(
        _("added with a logged result"), default=False,
        help_text=_("Added on the spot by a club member logging a result: a librarian completes it or merges "
                    "it into another record."))
    engine_slug = models.SlugField(
        _("rules engine"),
        blank=True,
        help_text=_("Slug of the rules engine that can replay this game; empty where none exists yet."),
    )
    place = models.CharField(_("place of publication"), max_length=200, blank=True)
    series = models.CharField(_("series"), max_length=300, blank=True)
    links = models.JSONField(
        _("links"), default=list, blank=True,
        help_text=_("Web addresses about the game (UNIMARC 856), each with its note: [{\"url\": …, \"note\": …}]."))
    source = models.CharField(
        _("source"), max_length=100, blank=True,
        help_text=_("The catalogue a record was imported from (its 003, or the agency of its 801, or the name "
                    "given at import)."))
    source_id = models.CharField(
        _("identifier in its source"), max_length=100, blank=True,
        help_text=_("The record's identifier in its source catalogue (its 001): what a new import of the same "
                    "record is matched by."))
    source_record = models.JSONField(
        _("source record"), null=True, blank=True, editable=False,
        help_text=_("The record as it came, every field kept, so that exports give back what Ludolog does not "
                    "show."))
    source_digest = models.CharField(_("source record digest"), max_length=64, blank=True, editable=False)
    cover = models.ImageField(
        _("cover"), upload_to=cover_upload_to, blank=True, validators=[validate_cover],
        help_text=_("A photo or scan of the box: JPEG, PNG or WebP, at most 5 MB and 4000 × 4000 pixels."),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        ordering = ["title"]
        verbose_name = _("catalogue record")
        verbose_name_plural = _("catalogue records")
        constraints = [
            models.UniqueConstraint(
                fields=["source", "source_id"], condition=~Q(source_id=""), name="record_source_identity_unique",
                violation_error_message=_("Another record already has this identifier in this source.")),
            models.CheckConstraint(
                condition=Q(min_players__isnull=True) | Q(max_players__isnull=True)
                | Q(min_players__lte=F("max_players")),
                name="record_min_players_lte_max",
                violation_error_message=_("The minimum number of players exceeds the maximum."),
            ),
            models.CheckConstraint(
                condition=Q(min_age__isnull=True) | Q(max_age__isnull=True) | Q(min_age__lte=F("max_age")),
                name="record_min_age_lte_max",
                violation_error_message=_("The minimum age exceeds the maximum age."),
            ),
            models.CheckConstraint(
                condition=Q(duration_minutes__isnull=True) | Q(duration_minutes__gt=0),
                name="record_duration_positive",
                violation_error_message=_("The duration must be positive."),
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        # The database constraints above are the safety net; these name the field for the librarian.
        errors: dict[str, str] = {}
        if self.min_players is not None and self.max_players is not None and self.min_players > self.max_players:
            errors["max_players"] = _("The maximum number of players must be at least the minimum (%(min)s).") % {
                "min": self.min_players
            }
        if self.min_age is not None and self.max_age is not None and self.min_age > self.max_age:
            errors["max_age"] = _("The maximum age must be at least the minimum age (%(min)s).") % {
                "min": self.min_age
            }
        if self.duration_minutes is not None and self.duration_minutes <= 0:
            errors["duration_minutes"] = _("The duration must be a positive number of minutes.")
        if errors:
            raise ValidationError(errors)

    def plays_with(self, players: int) -> bool:
        return (self.min_players or 0) <= players <= (self.max_players or players)


class DeletedRecord(models.Model):
    """What is left of a deleted catalogue record for the libraries that harvest the catalogue
    (OAI-PMH ``deletedRecord`` persistent): its id, when it went, and the category codes it had,
    so an incremental harvest learns to drop it, whatever set it harvests."""

    record_id = models.PositiveBigIntegerField(_("record id"), unique=True)
    deleted_at = models.DateTimeField(_("deleted at"), default=timezone.now, db_index=True)
    category_codes = models.TextField(
        _("category codes"), blank=True, default="",
        help_text=_("The record's category codes, each between two '|' (|A 406|B 1|)."))

    class Meta:
        ordering = ["deleted_at", "record_id"]
        verbose_name = _("deleted catalogue record")
        verbose_name_plural = _("deleted catalogue records")

    def __str__(self) -> str:
        return f"{self.record_id} ({self.deleted_at:%Y-%m-%d})"

    @property
    def categories(self) -> list[str]:
        return [code for code in self.category_codes.split("|") if code]


class OtherTitle(models.Model):
    """Original, parallel or other-language titles of a record."""

    class Kind(models.TextChoices):
        ORIGINAL = "original", _("original title")
        PARALLEL = "parallel", _("parallel title")
        TRANSLATED = "translated", _("title in another language")
        VARIANT = "variant", _("variant title")
        KEY = "key", _("key title")
        ABBREVIATED = "abbreviated", _("abbreviated title")

    record = models.ForeignKey(CatalogueRecord, on_delete=models.CASCADE, related_name="other_titles",
                               verbose_name=_("record"))
    title = models.CharField(_("title"), max_length=300)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.TRANSLATED)
    language = models.ForeignKey(Language, null=True, blank=True, on_delete=models.PROTECT, verbose_name=_("language"))

    class Meta:
        verbose_name = _("other title")
        verbose_name_plural = _("other titles")
        constraints = [models.UniqueConstraint(fields=["record", "title"], name="other_title_unique")]

    def __str__(self) -> str:
        return self.title


class Contribution(models.Model):
    """A person's part in a record: author, illustrator… (PMB's "Klaus-Jürgen Wrede, Auteur")."""

    class Role(models.TextChoices):
        AUTHOR = "author", _("author")
        ILLUSTRATOR = "illustrator", _("illustrator")
        TRANSLATOR = "translator", _("translator")
        DEVELOPER = "developer", _("developer")
        OTHER = "other", _("other")

    record = models.ForeignKey(CatalogueRecord, on_delete=models.CASCADE, related_name="contributions",
                               verbose_name=_("record"))
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="contributions", verbose_name=_("person"))
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.AUTHOR)
    position = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = _("contribution")
        verbose_name_plural = _("contributions")
        constraints = [
            models.UniqueConstraint(fields=["record", "person", "role"], name="contribution_unique")
        ]

    def __str__(self) -> str:
        return f"{self.person}, {self.get_role_display()}"


class Identifier(models.Model):
    class Scheme(models.TextChoices):
        EAN = "ean", "EAN-13"
        ISBN = "isbn", "ISBN"
        ISSN = "issn", "ISSN"
        OTHER = "other", _("other")

    record = models.ForeignKey(CatalogueRecord, on_delete=models.CASCADE, related_name="identifiers",
                               verbose_name=_("record"))
    scheme = models.CharField(_("scheme"), max_length=8, choices=Scheme.choices)
    value = models.CharField(_("value"), max_length=32)

    class Meta:
        verbose_name = _("identifier")
        verbose_name_plural = _("identifiers")
        constraints = [models.UniqueConstraint(fields=["scheme", "value"], name="identifier_unique")]

    def __str__(self) -> str:
        return f"{self.get_scheme_display()} {self.value}"


class Copy(models.Model):
    """A holding: one physical box with its barcode, shelf and state."""

    class Status(models.TextChoices):
        AVAILABLE = "available", _("available")
        ON_LOAN = "on_loan", _("on loan")
        MISSING_PARTS = "missing_parts", _("missing parts")
        WITHDRAWN = "withdrawn", _("withdrawn")

    record = models.ForeignKey(CatalogueRecord, on_delete=models.PROTECT, related_name="copies",
                               verbose_name=_("record"))
    organisation = models.ForeignKey(
        "accounts.Organisation", null=True, blank=True, on_delete=models.PROTECT, related_name="copies",
        verbose_name=_("owned by"), help_text=_("The game library that owns the box and lends it."))
    barcode = models.CharField(_("barcode"), max_length=32, unique=True)
    shelf_location = models.CharField(_("shelf / location"), max_length=100, blank=True)
    location = models.CharField(
        _("section"), max_length=100, blank=True,
        help_text=_("The part of the library the box belongs to (Koha's shelving location, 995 $e)."))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.AVAILABLE)
    acquired_on = models.DateField(_("acquisition date"), null=True, blank=True)
    missing_pieces = models.TextField(_("notes on missing pieces"), blank=True)

    class Meta:
        ordering = ["barcode"]
        verbose_name = _("copy")
        verbose_name_plural = _("copies")

    def __str__(self) -> str:
        return f"{self.barcode} ({self.record})"


class MapFile(models.Model):
    """A Carcassonne Maps map a staff member loaded (an exact one, say, in place of the approximate
    Benelux map shipped): its JSON, checked against the engine's map schema on upload. Records
    pin a map by name and version; a version once loaded never changes (load a new version)."""

    name = models.SlugField(_("name"), max_length=60)
    version = models.CharField(_("version"), max_length=60)
    title = models.CharField(_("title"), max_length=200)
    approximate = models.BooleanField(_("approximate"), default=False)
    data = models.JSONField(_("map file"))
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("uploaded by"))
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("map file")
        verbose_name_plural = _("map files")
        constraints = [models.UniqueConstraint(fields=["name", "version"], name="map_file_unique")]

    def __str__(self) -> str:
        return f"{self.title} ({self.version})"


class UnimarcImport(ImportJob):
    """A UNIMARC file uploaded in the admin, imported by a Celery task (``games.tasks``): read
    whole first (a record that cannot be taken is refused alone, with its reason), then
    stored in chunks. Its report counts the records new to the catalogue, updated, unchanged, the
    duplicates within the file and the records refused, each with its reason."""

    source = models.CharField(
        _("source"), max_length=100, blank=True,
        help_text=_("The catalogue the file comes from; empty: read from each record (003 or 801)."))
    mapping = models.JSONField(
        _("mapping"), default=dict, blank=True,
        help_text=_("How the file's fields map to Ludolog's (games.unimarc.ImportMapping as data); empty: the "
                    "PMB preset."))
    organisation = models.ForeignKey(
        "accounts.Organisation", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("organisation"),
        help_text=_("Whose copies the file's are (the librarian's on the catalogue's import page); empty: the "
                    "installation's only library."))
    dry_run = models.BooleanField(
        _("dry run"), default=False,
        help_text=_("Only checked: the report says what storing the file would do, and nothing is stored."))

    class Meta(ImportJob.Meta):
        verbose_name = _("UNIMARC import")
        verbose_name_plural = _("UNIMARC imports")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_status_display()})"
