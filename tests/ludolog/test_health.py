"""``/health/`` tells an uptime check whether the database and the broker answer."""

from __future__ import annotations

import pytest

from ludolog.celery import app


@pytest.mark.django_db
def test_health_answers_ok_when_the_database_answers_and_tasks_run_in_process(client, celery_eager):
    answer = client.get("/health/")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "database": "ok", "broker": "not used (tasks run in-process)",
                             "cache": "not shared (each process its own memory)"}
    assert "no-cache" in answer["Cache-Control"]


@pytest.mark.redis
@pytest.mark.django_db
def test_health_checks_the_real_broker(client):
    assert client.get("/health/").json()["broker"] == "ok"


@pytest.mark.django_db
def test_a_broker_that_does_not_answer_makes_health_fail_with_503(client, monkeypatch):
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setitem(app.conf, "broker_url", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")  # Celery reads it before its settings
    answer = client.get("/health/")
    assert answer.status_code == 503
    assert answer.json()["status"] == "failing" and answer.json()["broker"].startswith("unreachable")
    assert answer.json()["database"] == "ok" and answer.json()["degraded"] == ["broker"]
