"""Redis down is a slower day (issue 37): with the shared cache unreachable, people sign in (the
login brake counts in the process's memory meanwhile, and still brakes), the desk lends and
places holds, a password reset is mailed, and ``/health/`` answers 200 saying the cache is
degraded; none of it answers a 5xx. The cache goes back to Redis when Redis answers again."""

from __future__ import annotations

import logging

import pytest
from django.core import mail
from django.core.cache import cache, caches

from accounts.roles import Role
from games.models import CatalogueRecord
from outbox.models import Message
from tests.brokers import CLOSED, OwnRedis, broker_at
from tests.factories import PASSWORD, give_role, make_copies, make_household

pytestmark = pytest.mark.django_db


def redis_cache_at(settings, url: str) -> None:
    settings.CACHES = {"default": {"BACKEND": "ludolog.cache.RedisCacheWithFallback", "LOCATION": url,
                                   "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}


@pytest.fixture
def record(db) -> CatalogueRecord:
    return CatalogueRecord.objects.create(title="Carcassonne à la préhistoire")


@pytest.fixture
def cache_down(settings, caplog):
    redis_cache_at(settings, CLOSED)
    caplog.set_level(logging.WARNING, logger="ludolog.cache")
    yield caplog


@pytest.fixture
def redis_down(cache_down):
    """One Redis for the cache and the broker, as in production, and it does not answer."""
    with broker_at(CLOSED):
        yield cache_down


def test_sign_in_and_the_desk_work_with_the_cache_unreachable(client, redis_down, django_user_model, record,
                                                              django_capture_on_commit_callbacks):
    volunteer = give_role(django_user_model.objects.create_user("benevole", password=PASSWORD), Role.DESK)
    household = make_household("Martin", membership_ends="2099-12-31")
    copy, _on_the_shelf = make_copies(record, 2, prefix="CACHE")  # the second one set aside for the hold
    answer = client.post("/login/", {"username": volunteer.username, "password": PASSWORD})
    assert answer.status_code == 302, answer.status_code
    assert int(client.session["_auth_user_id"]) == volunteer.pk
    assert "the cache (Redis) does not answer" in redis_down.text
    assert client.get("/desk/").status_code == 200
    assert client.get(f"/desk/copies/{copy.barcode}/").status_code == 200
    lent = client.post("/api/loans/lend/", {"copy": copy.barcode, "household": household.card_number},
                       content_type="application/json")
    assert lent.status_code == 201, lent.content
    other = make_household("Dubois", membership_ends="2099-12-31", email="dubois@example.org")
    with django_capture_on_commit_callbacks(execute=True):  # the broker is asked once the hold commits
        held = client.post("/api/loans/holds/", {"record": record.pk, "household": other.card_number},
                           content_type="application/json")
    assert held.status_code == 201, held.content
    assert "the outbox sweep will deliver it" in redis_down.text  # the hold's mail waits for the sweep
    assert Message.objects.get().sent_at is None
    for page in ("/", "/catalogue/", "/account/", f"/catalogue/{record.pk}/"):
        assert client.get(page).status_code < 500, page


def test_the_login_brake_still_brakes_with_the_cache_unreachable(client, cache_down, settings, make_person):
    make_person("nadia", "nadia@example.org")
    for _ in range(settings.LUDOLOG_LOGIN_FAILURES):
        assert client.post("/login/", {"username": "nadia", "password": "wrong"}).status_code == 200
    braked = client.post("/login/", {"username": "nadia", "password": PASSWORD})
    assert braked.status_code == 429 and braked["X-Ludolog-Reason"] == "too_many_logins"


def test_a_password_reset_is_mailed_with_the_cache_and_the_broker_down(client, cache_down, make_person):
    make_person("nadia", "nadia@example.org")
    with broker_at(CLOSED):
        answer = client.post("/password/reset/", {"email": "nadia@example.org"})
    assert answer.status_code == 302 and answer["Location"] == "/password/reset/sent/"
    sent, = mail.outbox  # Django's form mails it itself, no broker involved
    assert sent.to == ["nadia@example.org"]


def test_health_says_the_cache_is_degraded_and_answers_200(client, cache_down, celery_eager):
    answer = client.get("/health/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "degraded" and body["degraded"] == ["cache"]
    assert body["cache"].startswith("unreachable") and body["database"] == "ok"


@pytest.mark.redis
@pytest.mark.slow(seconds=3)
def test_the_cache_goes_back_to_redis_when_it_answers_again(settings, tmp_path):
    redis = OwnRedis(tmp_path)
    redis.start()
    try:
        redis_cache_at(settings, redis.url)
        settings.LUDOLOG_CACHE_RETRY_SECONDS = 0
        cache.set("shared", "in redis")
        redis.kill()
        assert cache.get("shared") is None  # unreachable: this process's memory, empty
        cache.set("meanwhile", "in memory")
        assert cache.get("meanwhile") == "in memory" and caches["default"].degraded
        redis.start()  # a new, empty Redis
        assert cache.get("meanwhile") is None and not caches["default"].degraded
        cache.set("shared", "in redis again")
        assert cache.get("shared") == "in redis again"
    finally:
        redis.stop()
