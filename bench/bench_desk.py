#!/usr/bin/env python
"""The loans desk's lend and return over HTTP with 10,000 copies and 100,000 loan events (target:
p50 <= 100 ms each).

A ludothèque of ``--copies`` copies (four per catalogue record, each record with a three-line
checklist) and 2,000 households has lent and taken back its copies for years: each copy's stream
holds ``--events`` / ``--copies`` events (lent and returned, one return in ten late with its fee),
written in bulk as the services write them and folded into the copies' states by the projection's
own rebuild (``loans.services.rebuild_copy_states``); each household's late fees were paid at the
desk (a ``late_fee_paid`` household event), so that every lend reads, as the lending rules ask, the
household's loans, its games overdue and what it owes (its returns' fees less its payments), and
lends. Then ANALYZE. Bulk inserts stand in for 100,000 desk actions because those are not what is
measured; the rows are the ones the desk writes.

Then gunicorn (production settings, 2 sync workers) answers ``--rounds`` lends then the returns of
those same copies, through ``POST /api/loans/lend/`` and ``POST /api/loans/return/`` with a desk
volunteer's token, each on a copy on the shelves chosen at random; the script prints p50, p95 and
max of each beside the target, and checks every answer was 201/200.

Usage: ``.venv/bin/python bench/bench_desk.py [--copies 10000] [--events 100000] [--rounds 200]``;
it creates and drops its own database ``ludolog_bench_desk`` on 127.0.0.1:5432 (``--keep`` keeps it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import random
import statistics
import time
from decimal import Decimal

from benchlib import (
    desk_volunteer_token, drop_database, manage, percentile, post_json, production_env, recreate_database,
    setup_django, start_gunicorn, stop,
)

DB = "ludolog_bench_desk"
PORT = 8768
TARGET_MS = 100.0
HOUSEHOLDS = 2000
COPIES_PER_RECORD = 4
LATE_FEE_A_DAY = Decimal("0.20")


def fill(copies: int, events: int) -> tuple[str, list[str], list[str]]:
    """The library, its households and its copies' past; the desk's token, the households' cards
    and the copies' barcodes."""
    from django.db import connection, transaction

    from accounts.models import Organisation
    from games.models import CatalogueRecord, Copy
    from loans import services
    from loans.models import Component, CopyEvent, Household, HouseholdEvent

    rng = random.Random(27)
    with transaction.atomic():
        library = Organisation.objects.create(name="Ludothèque du banc", slug="ludo-desk",
                                              kind=Organisation.Kind.LIBRARY, language="fr")
        _desk, token = desk_volunteer_token(library)
        records = CatalogueRecord.objects.bulk_create([CatalogueRecord(title=f"Jeu n° {n:05d}")
                                                       for n in range(copies // COPIES_PER_RECORD)])
        Component.objects.bulk_create([Component(record=record, kind=kind, count=count, position=position)
                                       for record in records for position, (kind, count) in
                                       enumerate([("tuiles", 72), ("pions", 30), ("règle du jeu", 1)])])
        all_copies = Copy.objects.bulk_create([Copy(record=record, barcode=f"LUD-{record.pk:05d}-{n}",
                                                    organisation=library)
                                               for record in records for n in range(COPIES_PER_RECORD)])
        households = Household.objects.bulk_create([
            Household(organisation=library, name=f"Foyer {n:04d}", card_number=f"CARD-{n:05d}", fee_paid=True,
                      loan_limit=3,
                      membership_starts=dt.date(2020, 1, 1), membership_ends=dt.date(2099, 12, 31))
            for n in range(HOUSEHOLDS)])
        per_copy = max(2, events // len(all_copies))
        rows = []
        fees: dict[int, Decimal] = {}
        for copy in all_copies:
            day = dt.datetime(2023, 1, 1, 10, tzinfo=dt.timezone.utc) + dt.timedelta(days=rng.randrange(30))
            seq = 0
            while seq + 2 <= per_copy:  # whole loans: the copy ends on the shelves
                household = rng.choice(households)
                lent_on = day.date()
                seq += 1
                rows.append(CopyEvent(copy=copy, seq=seq, type="lent", household=household, recorded_at=day,
                                      payload={"lent_on": lent_on.isoformat(),
                                               "due_on": (lent_on + dt.timedelta(days=21)).isoformat()}))
                kept = rng.randrange(22, 31) if rng.random() < 0.1 else rng.randrange(7, 22)  # due after 21 days
                day += dt.timedelta(days=kept)
                seq += 1
                days_late = max(0, kept - 21)
                fee = LATE_FEE_A_DAY * days_late
                rows.append(CopyEvent(copy=copy, seq=seq, type="returned", household=household, recorded_at=day,
                                      payload={"returned_on": day.date().isoformat(), "days_late": days_late,
                                               "late_fee": str(fee)}))
                if fee:
                    fees[household.pk] = fees.get(household.pk, Decimal("0")) + fee
                day += dt.timedelta(days=rng.randrange(1, 20))
        CopyEvent.objects.bulk_create(rows, batch_size=5000)
        HouseholdEvent.objects.bulk_create([
            HouseholdEvent(household_id=household_id, seq=1, type="late_fee_paid", amount=owed,
                           payload={"amount": str(owed), "method": "cash"}, happened_on=dt.date(2024, 6, 1))
            for household_id, owed in fees.items()])
    services.rebuild_copy_states()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return token, [h.card_number for h in households], [c.barcode for c in all_copies]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--database", default=DB)
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    recreate_database(options.database)
    server = None
    try:
        manage(production_env(options.database), "migrate", "-v0")
        setup_django(options.database)
        started = time.perf_counter()
        token, cards, barcodes = fill(options.copies, options.events)
        from loans.models import CopyEvent

        print(f"filled {len(barcodes):,} copies, {len(cards):,} households, {CopyEvent.objects.count():,} events "
              f"in {time.perf_counter() - started:.0f} s", flush=True)
        server = start_gunicorn(production_env(options.database), PORT, 2)
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        rng = random.Random(5)
        chosen = rng.sample(barcodes, options.rounds + 2)
        lends, returns, wrong = [], [], []
        for index, barcode in enumerate(chosen):  # the first two warm the workers up
            elapsed, status = post_json(connection, token, "/api/loans/lend/", {"copy": barcode, "household": cards[index]})
            (lends if index >= 2 else []).append(elapsed)
            wrong += [] if status == 201 else [("lend", barcode, status)]
        for index, barcode in enumerate(chosen):
            elapsed, status = post_json(connection, token, "/api/loans/return/", {"copy": barcode})
            (returns if index >= 2 else []).append(elapsed)
            wrong += [] if status == 200 else [("return", barcode, status)]
        connection.close()
        for label, values in (("lend", lends), ("return", returns)):
            p50 = statistics.median(values)
            print(f"{label:7} p50 {p50:6.1f} ms  p95 {percentile(values, 0.95):6.1f} ms  max {max(values):6.1f} ms"
                  f"   target p50 <= {TARGET_MS:.0f} ms{'' if p50 <= TARGET_MS else '  MISSED'}")
        print(f"answers not 201/200: {len(wrong)}" + (f" (first: {wrong[:3]})" if wrong else ""))
    finally:
        if server is not None:
            stop(server)
        from django.db import connections

        connections.close_all()
        if not options.keep:
            drop_database(options.database)


if __name__ == "__main__":
    main()
