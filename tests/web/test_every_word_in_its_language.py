"""Every word of the demo's pages in the reader's language: French, Dutch and Czech.

Each page of the demo, as an anonymous visitor, a member, an organiser and a librarian see it, is
read as a person reads it (its text, and the words of its ``aria-label``, ``title``, ``alt`` and
``placeholder``; not what an experts' disclosure folds away) and searched for:

* English words left: a word of the English messages (their msgids) that the language's own
  catalogue never uses, and that is not a name of the demo's (a player, a game's title, a town);
* notation and identifiers: a tile laid as the engines write it (``IC01@13,1r90``), a payload's
  ``key=value``, a ``snake_case`` key, a chip as ``chip:violet:1``.

A word that offends is listed with its page, so that the failure says what to translate. The
catalogues are also held whole: every message translated, none fuzzy, the placeholders kept.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, TestCase

from tests.languages import FOLDED, catalogue, english_only_words, offending, words_of

pytestmark = pytest.mark.django_db

LANGUAGES = ["fr", "nl", "cs"]
VIEWERS = ["anonymous", "famille-martin", "organisateur", "bibliothecaire"]

class ReadText(HTMLParser):
    """The words a person reads on a page, and those a screen reader reads from its attributes."""

    SKIPPED = {"script", "style", "template", "svg", "kbd"}
    """Not read as the page's words: code, drawings (their own text alternatives are tested with
    each game), and what a person types at a command line (``kbd``)."""
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self, language: str = "") -> None:
        super().__init__(convert_charrefs=True)
        self.language = language
        self.stack: list[tuple[str, bool]] = []
        self.words: list[str] = []

    def _hidden(self) -> bool:
        return any(hidden for _tag, hidden in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        classes = (values.get("class") or "").split()
        # Text marked as written in another language (a record's notes as its library wrote them,
        # a language's own name in the menu) is that language's, not a slip of the page's.
        other_language = bool(values.get("lang")) and not (values.get("lang") or "").startswith(self.language)
        # A library's own text (a record's contents, summary and notes, ``data-own-text``) is as
        # it catalogued it, typos and all: the platform's words are what is held here.
        hidden = (tag in self.SKIPPED or (tag == "details" and any(name in classes for name in FOLDED))
                  or (other_language and tag != "html") or "data-own-text" in values)
        if not hidden and not self._hidden():
            for name in ("aria-label", "title", "alt", "placeholder"):
                if values.get(name):
                    self.words.append(values[name] or "")
            if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
                self.words.append(values["value"] or "")
        if tag not in self.VOID:
            self.stack.append((tag, hidden))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data: str) -> None:
        if not self._hidden() and data.strip():
            self.words.append(data)


def read(html: str, language: str = "") -> str:
    parser = ReadText(language)
    parser.feed(html)
    return " ".join(parser.words)


def demo_names() -> set[str]:
    """The demo's own names: players, accounts, organisations, leagues, places, the catalogue's
    titles, people and publishers: a name is the same in every language."""
    from accounts.models import Organisation
    from games.models import CatalogueRecord, OtherTitle, Person, Publisher
    from loans.models import Household
    from records.models import GameRecord, Player
    from scoring.models import League

    names: set[str] = set()
    sources: Iterable[Iterable[str]] = (
        Player.objects.values_list("display_name", flat=True),
        get_user_model().objects.values_list("username", flat=True),
        get_user_model().objects.values_list("first_name", flat=True),
        get_user_model().objects.values_list("last_name", flat=True),
        Organisation.objects.values_list("name", flat=True),
        Organisation.objects.values_list("town", flat=True),
        League.objects.values_list("name", flat=True),
        GameRecord.objects.values_list("location", flat=True),
        CatalogueRecord.objects.values_list("title", flat=True),
        OtherTitle.objects.values_list("title", flat=True),
        Person.objects.values_list("name", flat=True),
        Publisher.objects.values_list("name", flat=True),
        Household.objects.values_list("name", flat=True),
    )
    for values in sources:
        for value in values:
            names |= words_of(value or "")
    return names


@pytest.fixture(scope="module")
def demo(module_transaction, django_db_blocker):
    """The demo, small (one game of each engine game), loaded once for the module."""
    from ludolog.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_db_blocker.unblock(), TestCase.captureOnCommitCallbacks(execute=True):
            call_command("load_demo", "--games", "2", "--stone-age-games", "1", "--carcassonne-games", "1",
                         "--maps-games", "1", stdout=io.StringIO())
            call_command("load_demo_loans", stdout=io.StringIO())
    finally:
        app.conf.task_always_eager = eager
    with django_db_blocker.unblock():
        yield demo_names()


def pages_for(viewer: str) -> list[str]:
    from games.models import CatalogueRecord
    from records.models import GameRecord
    from scoring.models import League

    finished = {record.game_slug: record for record in GameRecord.objects.filter(status="finished").order_by("pk")}
    pages = ["/", "/games/", "/players/", "/leagues/", "/statistics/", "/catalogue/"]
    for slug, record in sorted(finished.items()):
        pages += [f"/games/{record.pk}/", f"/games/{record.pk}/replay/", f"/games/{record.pk}/replay/?at=3",
                  f"/statistics/{slug}/"]
    pages += [f"/leagues/{league.pk}/" for league in League.objects.order_by("pk")[:1]]
    pages += [f"/catalogue/{record.pk}/" for record in CatalogueRecord.objects.exclude(engine_slug="").order_by("pk")]
    if viewer != "anonymous":
        pages += ["/scorekeeping/", "/scorekeeping/result/", "/account/", "/history/import/"]
        pages += [f"/scorekeeping/{record.pk}/"
                  for record in GameRecord.objects.filter(status="in_progress").order_by("pk")[:2]]
    if viewer == "bibliothecaire":
        pages += ["/desk/", "/desk/usage/", "/library/households/", "/library/lending-rules/", "/library/volunteers/",
                  "/catalogue/import/", "/catalogue/new/"]
        pages += [f"/catalogue/{record.pk}/edit/"
                  for record in CatalogueRecord.objects.exclude(engine_slug="").order_by("pk")[:1]]
    return pages


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_of_the_demo_speaks_the_readers_language(demo, language):
    english = english_only_words(language)
    offences: dict[str, list[str]] = {}
    for viewer in VIEWERS:
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        if viewer != "anonymous":
            client.force_login(get_user_model().objects.get(username=viewer))
        for path in pages_for(viewer):
            answer = client.get(path, follow=True)
            assert answer.status_code in (200, 403), (viewer, path, answer.status_code)
            assert answer.headers.get("Content-Language") == language, (viewer, path)
            found = offending(read(answer.content.decode(), language), english, demo)
            if found:
                offences[f"{viewer} {path}"] = sorted(set(found))
    assert offences == {}, "\n".join(f"{page}: {' '.join(words)}" for page, words in offences.items())


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_is_whole(language):
    """Every message translated, none fuzzy, the placeholders of each translation the msgid's."""
    po = catalogue(language)
    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []
    placeholders = re.compile(r"%\(\w+\)[sdif]|\{\w*\}")
    wrong = []
    for entry in po.translated_entries():
        wanted = set(placeholders.findall(entry.msgid)) | set(placeholders.findall(entry.msgid_plural or ""))
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            if text and set(placeholders.findall(text)) - wanted:
                wrong.append(entry.msgid)
    assert wrong == []


def test_the_reader_helper_reads_what_a_person_reads():
    html = ('<p title="Go">Bonjour <b>Léa</b><script>var x = "hidden";</script></p>'
            '<details class="expert"><summary>IC01@1,2r90</summary><code>dice=6</code></details><img alt="Plateau">')
    assert read(html).split() == ["Go", "Bonjour", "Léa", "Plateau"]
    assert offending("Bastien places IC01@13,1r90 dice=6 clay_pit", {"places"}, {"bastien"}) == [
        "IC01@13,1", "dice=6", "clay_pit", "places"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pdfs_speak_the_readers_language(demo, language):
    """The copies' labels and the households' member cards, printed by the librarian."""
    import pypdf

    from games.models import Copy
    from loans.models import Household

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(get_user_model().objects.get(username="bibliothecaire"))
    pdfs = {
        "labels": client.get("/catalogue/labels.pdf", {"copy": list(Copy.objects.values_list("pk", flat=True)[:6])}),
        "cards": client.get("/desk/cards.pdf", {"card": list(Household.objects.values_list("card_number", flat=True))}),
    }
    english = english_only_words(language)
    for name, answer in pdfs.items():
        assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf", name
        text = " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(answer.content)).pages)
        assert text.strip(), name
        assert offending(text, english, demo) == [], name


@pytest.mark.slow(seconds=20)
def test_makemessages_finds_no_message_left_untranslated(tmp_path):
    """The catalogues as ``makemessages`` would make them from today's code: a message added to the
    code and not translated (or changed, and so fuzzy) fails here, not on a reader's page."""
    import shutil
    import subprocess
    import sys

    root = Path(settings.BASE_DIR)
    tracked = subprocess.run(["git", "ls-files", "*.py", "*.html", "*.txt", "locale/*.po"], cwd=root,
                             capture_output=True, text=True, check=True).stdout.split()
    for name in tracked:
        if name.startswith(("tests/", "bench/")):
            continue
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, tmp_path / name)
    made = subprocess.run([sys.executable, "manage.py", "makemessages", "--no-obsolete", "-i", "tests/*", "-i", "bench/*",
                           *[arg for language in LANGUAGES for arg in ("-l", language)]],
                          cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert made.returncode == 0, made.stderr
    left = {}
    for language in LANGUAGES:
        po = polib.pofile(str(tmp_path / "locale" / language / "LC_MESSAGES" / "django.po"))
        left[language] = [entry.msgid for entry in [*po.untranslated_entries(), *po.fuzzy_entries()]]
    assert left == {language: [] for language in LANGUAGES}
