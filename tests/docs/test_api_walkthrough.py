"""The API walkthrough of docs/api.md, run from the document's own text against a live server:
each command prints what its "# prints:" line says, so the newcomer's first session never rots."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def walkthrough() -> str:
    text = API_DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- api-walkthrough -->\s*```sh\n(.*?)```\s*<!-- /api-walkthrough -->", text, re.S)
    assert found, "docs/api.md keeps its API walkthrough between <!-- api-walkthrough --> markers"
    return found[1]


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
@pytest.mark.django_db(transaction=True)
def test_the_api_walkthrough_runs_as_written(live_server):
    get_user_model().objects.create_superuser("admin", password="ludolog-demo")
    script = walkthrough()
    assert script.startswith("BASE=http://127.0.0.1:8000\n")
    expected = [line.removeprefix("# prints: ") for line in script.splitlines() if line.startswith("# prints: ")]
    assert len(expected) >= 6
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script.replace("BASE=http://127.0.0.1:8000", f"BASE={live_server.url}", 1)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == expected
