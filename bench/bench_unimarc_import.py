#!/usr/bin/env python
"""An admin UNIMARC import of 5,000 records, as a librarian does it, on a production-like server.

gunicorn with the deployment's configuration (its workers are killed after 30 s on a request),
PostgreSQL, Redis and one Celery worker. The script writes a UNIMARC file of ``--records``
records with pymarc (a title, an author, a publisher and year, a language, a player count and a
copy each, as PMB exports them), logs in to the admin, uploads the file on the catalogue's import
page, and follows the job's page as the admin's htmx does until the import is done.

It prints how long the upload took to answer (the request no longer imports anything), the
progress seen on the job's page, the import's time and records per second, and checks that
every record is in the catalogue. Before imports ran as tasks, the upload did the whole import
in the request: 5,000 records take well over a minute, and gunicorn killed the worker at 30 s
with nothing imported (the transaction rolled back).

It first times the dry run (``import_unimarc --dry-run``: every record read, mapped, checked and
looked up, nothing stored). Targets (issue 36): 10,000 records stored in at most 60 s, their dry
run in at most 20 s.

Usage: ``.venv/bin/python bench/bench_unimarc_import.py [--records 10000] [--chunk 500]``
It creates (and drops) its own database ``ludolog_bench_unimarc`` on 127.0.0.1:5432 and uses Redis
database 11 on 127.0.0.1:6379, on a queue of its own.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pymarc
import requests

from benchlib import ROOT, drop_database, manage, production_env, recreate_database, start_gunicorn, stop

DB = "ludolog_bench_unimarc"
BROKER = "redis://127.0.0.1:6379/11"
PORT = 8771
PASSWORD = "bench-librarian-password-1"


def unimarc_file(count: int) -> bytes:
    records = []
    for number in range(1, count + 1):
        record = pymarc.Record(leader="00000nrm a2200000   4500", force_utf8=True)
        record.add_field(
            pymarc.Field(tag="101", indicators=["0", " "], subfields=[pymarc.Subfield("a", "fre")]),
            pymarc.Field(tag="200", indicators=["1", " "], subfields=[
                pymarc.Subfield("a", f"Jeu {number:05d}"), pymarc.Subfield("b", "Jeu de société")]),
            pymarc.Field(tag="210", indicators=[" ", " "], subfields=[
                pymarc.Subfield("c", f"Éditeur {number % 50}"), pymarc.Subfield("d", "2019")]),
            pymarc.Field(tag="700", indicators=[" ", "1"], subfields=[
                pymarc.Subfield("a", f"Auteur{number % 300}"), pymarc.Subfield("b", "Anne"),
                pymarc.Subfield("4", "070")]),
            pymarc.Field(tag="900", indicators=[" ", " "], subfields=[
                pymarc.Subfield("a", "2"), pymarc.Subfield("n", "nb_joueurs_min")]),
            pymarc.Field(tag="995", indicators=[" ", " "], subfields=[
                pymarc.Subfield("f", f"LUD{number:06d}"), pymarc.Subfield("k", "Étagère A")]),
        )
        records.append(record.as_marc())
    return b"".join(records)


class Browser:
    """A logged-in admin session over plain HTTP, presented as nginx passes it on (HTTPS)."""

    def __init__(self, base: str) -> None:
        self.base, self.session = base, requests.Session()
        self.session.headers.update({"X-Forwarded-Proto": "https"})

    def _send(self, method: str, path: str, **kwargs) -> requests.Response:
        headers = {"Referer": "https://127.0.0.1:%d%s" % (PORT, path), **kwargs.pop("headers", {})}
        answer = self.session.request(method, self.base + path, headers=headers, allow_redirects=False,
                                      timeout=600, **kwargs)
        for cookie in self.session.cookies:  # Secure cookies, sent back over the plain connection
            cookie.secure = False
        return answer

    def csrf(self, path: str) -> str:
        page = self._send("GET", path).text
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]

    def login(self, username: str, password: str) -> None:
        token = self.csrf("/admin/login/")
        answer = self._send("POST", "/admin/login/", data={"csrfmiddlewaretoken": token, "username": username,
                                                          "password": password, "next": "/admin/"})
        assert answer.status_code == 302, answer.text[:500]

    def post(self, path: str, **kwargs) -> requests.Response:
        return self._send("POST", path, data={"csrfmiddlewaretoken": self.csrf(path)}, **kwargs)

    def get(self, path: str, **kwargs) -> requests.Response:
        return self._send("GET", path, **kwargs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=10000)
    parser.add_argument("--chunk", type=int, default=500)
    args = parser.parse_args()

    queue = f"ludolog-bench-imports-{uuid.uuid4().hex[:8]}"
    imports = Path(tempfile.mkdtemp(prefix="ludolog-bench-imports-"))
    env = production_env(DB, CELERY_BROKER_URL=BROKER, LUDOLOG_IMPORT_QUEUE=queue,
                         LUDOLOG_IMPORTS_ROOT=str(imports), LUDOLOG_IMPORT_CHUNK=str(args.chunk),
                         DJANGO_SUPERUSER_PASSWORD=PASSWORD)
    recreate_database(DB)
    server = worker = None
    try:
        manage(env, "migrate", "--noinput", quiet=True)
        # DEBUG off serves the hashed static files whitenoise finds in STATIC_ROOT, as in production.
        manage(env, "collectstatic", "--noinput", "-v0")
        manage(env, "createsuperuser", "--noinput", "--username", "librarian", "--email", "l@example.org",
               quiet=True)
        server = start_gunicorn(env, PORT, workers=2)
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "ludolog", "worker", "--pool=solo", "-Q", queue,
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        data = unimarc_file(args.records)
        print(f"UNIMARC file: {args.records} records, {len(data) / 1e6:.1f} MB (ISO 2709, written by pymarc)")
        # The dry run first, as a librarian does it: read, map, check and look every record up.
        with tempfile.NamedTemporaryFile(suffix=".mrc") as file:
            file.write(data)
            file.flush()
            start = time.perf_counter()
            said = subprocess.run([sys.executable, "manage.py", "import_unimarc", file.name, "--dry-run"], cwd=ROOT,
                                  env=env, capture_output=True, text=True, check=True).stdout.splitlines()[-1]
            print(f"dry run (import_unimarc --dry-run, Django's start included): "
                  f"{time.perf_counter() - start:.1f} s: {said}")

        browser = Browser(f"http://127.0.0.1:{PORT}")
        browser.login("librarian", PASSWORD)
        start = time.perf_counter()
        answer = browser.post("/admin/games/cataloguerecord/import-unimarc/",
                              files={"file": ("pmb.mrc", data, "application/marc")})
        answered = time.perf_counter() - start
        assert answer.status_code == 302, (answer.status_code, answer.text[:500])
        job_page = answer.headers["Location"]
        print(f"upload answered {answer.status_code} in {answered:.2f} s (gunicorn's limit: 30 s) -> {job_page}")

        seen, status, page = [], "", ""
        while status not in ("done", "refused", "failed"):
            time.sleep(2)  # as the page asks, every 2 s
            page = browser.get(job_page, headers={"HX-Request": "true"}).text
            status = re.search(r'data-status="(\w+)"', page)[1]
            progress = re.search(r"(\d+) of (\d+)", page)
            seen.append(f"{status} {progress[1]}/{progress[2]}" if progress else status)
        elapsed = time.perf_counter() - start
        print("job page, every 2 s:", ", ".join(seen if len(seen) <= 8 else seen[:4] + ["…"] + seen[-4:]))
        assert status == "done", page
        imported = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c",
             "from games.models import CatalogueRecord as R; print(R.objects.count())"],
            cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout.split()[-1]
        assert int(imported) == args.records, imported
        report = re.search(r"\d+ records? new to the catalogue,\s+\d+ updated", page)[0]
        print(f"import done in {elapsed:.1f} s: {args.records / elapsed:.0f} records/s; "
              f"{imported} records in the catalogue; the job's report: {' '.join(report.split())}")
    finally:
        for process in (worker, server):
            if process is not None:
                stop(process)
        drop_database(DB)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
