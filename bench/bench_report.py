#!/usr/bin/env python
"""An organisation's yearly report on a year of a busy ludothèque (target: ≤ 1 s on PostgreSQL).

A municipal ludothèque of ``--records`` catalogue records (one copy each, every fifth a second
copy; each record classed under one or two ESAR codes, a tenth unclassified) and ``--households``
households (a town each, two thirds in the ludothèque's own; one to five members with their years
of birth, one in ten unknown) lent its copies ``--loans`` times through 2026, each loan a ``lent``
and a ``returned`` event (``--loans`` 15,000: 30,000 events), written in bulk in each copy's
stream order, so that ``CopyEvent.objects.bulk_create`` chains their hashes as the desk does
(``loans.integrity``); a tenth of the records is never lent. Then ANALYZE.

Then it times :func:`reports.selectors.yearly_report` (median of ``--runs``, after one run that
warms the connection), the CSV and the PDF made from it, and prints them beside the target.

The agenda's 300 sessions and 20,000 counts at the door are added by :func:`fill_agenda` once the
agenda app is merged (its sections are empty until then: see ``reports.selectors``).

Usage: ``.venv/bin/python bench/bench_report.py [--households 2000] [--records 2500] [--loans 15000]``;
it creates and drops its own database ``ludolog_bench_report`` on 127.0.0.1:5432 (``--keep`` keeps it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time

from benchlib import BENCH_SECRET_KEY, PG, ROOT, drop_database, manage, production_env, recreate_database

sys.path.insert(0, str(ROOT))
DB = "ludolog_bench_report"
YEAR = 2026
TARGET_S = 1.0
TOWNS = ["Villeurbanne"] * 8 + ["Lyon", "Vaulx-en-Velin", "Bron", ""]
"""Two thirds of the households in the ludothèque's own town, a twelfth with no town written."""


def setup_django(database: str) -> None:
    os.environ.update(DATABASE_URL=PG + database, SECRET_KEY=BENCH_SECRET_KEY, DEBUG="0", ALLOWED_HOSTS="127.0.0.1")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
    import django

    django.setup()


def fill(households: int, records: int, loans: int):
    """The ludothèque, its catalogue, households and year of loans; returns the organisation."""
    from django.db import transaction

    from accounts.models import Organisation
    from games.models import CatalogueRecord, Category, Copy
    from loans.models import CopyEvent, Household, Member

    rng = random.Random(39)
    with transaction.atomic():
        library = Organisation.objects.create(name="Ludothèque de Villeurbanne", slug="ludo-villeurbanne",
                                              kind=Organisation.Kind.LIBRARY, language="fr")
        codes = Category.objects.bulk_create([
            Category(code=f"{group} {number}", label=f"ESAR {group} {number}", scheme=Category.Scheme.ESAR)
            for group in "ABCD" for number in range(101, 111)])
        catalogue = CatalogueRecord.objects.bulk_create([CatalogueRecord(title=f"Jeu n° {n:05d}")
                                                         for n in range(records)])
        classes = CatalogueRecord.categories.through
        classes.objects.bulk_create([
            classes(cataloguerecord_id=record.pk, category_id=category.pk)
            for index, record in enumerate(catalogue) if index % 10
            for category in rng.sample(codes, 1 + (index % 3 == 0))])
        copies = Copy.objects.bulk_create([
            Copy(record=record, barcode=f"LUD-{record.pk:05d}-{n}", organisation=library)
            for index, record in enumerate(catalogue) for n in range(1 + (index % 5 == 0))])
        families = Household.objects.bulk_create([
            Household(organisation=library, name=f"Foyer {n:04d}", card_number=f"CARD-{n:05d}", fee_paid=True,
                      town=rng.choice(TOWNS), membership_starts=dt.date(2026, 1, 1),
                      membership_ends=dt.date(2026, 12, 31))
            for n in range(households)])
        Member.objects.bulk_create([
            Member(household=family, display_name=f"Membre {n}",
                   birth_year=None if rng.random() < 0.1 else rng.choice([rng.randrange(1945, 2000),
                                                                          rng.randrange(2008, 2026)]))
            for family in families for n in range(rng.randrange(1, 6))])
        lent = [copy for copy in copies if copy.record_id % 10]  # a tenth of the records is never lent
        per_copy: dict[int, list[tuple[dt.date, object]]] = {}
        for _ in range(loans):
            copy = rng.choice(lent)
            per_copy.setdefault(copy.pk, []).append(
                (dt.date(YEAR, 1, 1) + dt.timedelta(days=rng.randrange(365)), rng.choice(families)))
        events = []
        for copy_id, days in per_copy.items():
            seq = 0
            for lent_on, family in sorted(days, key=lambda day: day[0]):
                returned_on = lent_on + dt.timedelta(days=rng.randrange(0, 21))
                at = dt.datetime.combine(lent_on, dt.time(10), tzinfo=dt.timezone.utc)
                events += [
                    CopyEvent(copy_id=copy_id, seq=seq + 1, type="lent", household=family, recorded_at=at,
                              payload={"lent_on": lent_on.isoformat(),
                                       "due_on": (lent_on + dt.timedelta(days=21)).isoformat()}),
                    CopyEvent(copy_id=copy_id, seq=seq + 2, type="returned", household=family,
                              recorded_at=at + dt.timedelta(days=(returned_on - lent_on).days, hours=1),
                              payload={"returned_on": returned_on.isoformat(), "days_late": 0, "late_fee": "0"}),
                ]
                seq += 2
        CopyEvent.objects.bulk_create(events, batch_size=5000)
        fill_agenda(library, rng)
    return library


def fill_agenda(library, rng: random.Random) -> None:
    """The year's 300 sessions and their 20,000 counts at the door: added here by the lead once the
    agenda app is merged (``agenda.models``), so that ``yearly_report`` counts them too."""


def timed(function, runs: int) -> tuple[float, object]:
    """The median seconds of ``runs`` calls of ``function`` (after one that warms up), and its answer."""
    answer = function()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        answer = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--households", type=int, default=2000)
    parser.add_argument("--records", type=int, default=2500)
    parser.add_argument("--loans", type=int, default=15_000, help="each a lent and a returned event")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database", default=DB)
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    recreate_database(options.database)
    try:
        manage(production_env(options.database), "migrate", "-v0")
        setup_django(options.database)
        import logging

        logging.getLogger("fontTools").setLevel(logging.WARNING)  # fpdf2's font subsetting speaks at INFO
        from django.db import connection

        from loans.models import CopyEvent, Household, Member
        from reports.exports import report_csv, report_pdf
        from reports.selectors import yearly_report

        started = time.perf_counter()
        library = fill(options.households, options.records, options.loans)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"filled {Household.objects.count():,} households ({Member.objects.count():,} members), "
              f"{options.records:,} records, {CopyEvent.objects.count():,} copy events "
              f"in {time.perf_counter() - started:.0f} s", flush=True)
        seconds, report = timed(lambda: yearly_report(library, YEAR), options.runs)
        loans = report.loans
        print(f"yearly_report({YEAR}): median of {options.runs} {seconds * 1000:.0f} ms   target <= "
              f"{TARGET_S:.0f} s{'' if seconds <= TARGET_S else '  MISSED'}")
        print(f"  {loans.loans:,} loans, {loans.households_borrowing:,} households borrowing, "
              f"{len(loans.games_never_lent):,} games never lent, by ESAR group "
              + ", ".join(f"{line.key} {line.loans:,}" for line in loans.by_category))
        csv_seconds, csv_file = timed(lambda: report_csv(report), options.runs)
        pdf_seconds, pdf_file = timed(lambda: report_pdf(report), options.runs)
        print(f"CSV from the report: {csv_seconds * 1000:.0f} ms ({len(csv_file) / 1024:.0f} kB); "
              f"PDF: {pdf_seconds * 1000:.0f} ms ({len(pdf_file) / 1024:.0f} kB)")
    finally:
        from django.db import connections

        connections.close_all()
        if not options.keep:
            drop_database(options.database)


if __name__ == "__main__":
    main()
