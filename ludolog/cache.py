"""A Redis cache that a Redis down does not turn into 500s.

Everything Ludolog keeps in the cache can be lost (the login brake's counts, the replay's score
series, titles and counts computed again): when Redis does not answer, this process keeps them in
its own memory instead (Django's local-memory cache) and says so in the log, once per outage. It
asks Redis again every ``LUDOLOG_CACHE_RETRY_SECONDS`` and goes back to it when it answers; what
was kept in memory meanwhile is dropped (it was only ever a cache). The login brake then counts
per web process instead of across them: slower to trip with several processes, never off.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class RedisCacheWithFallback(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._memory = LocMemCache(f"ludolog-cache-fallback-{id(self)}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self._down_since: float | None = None
        self._last_try = 0.0
        self._lock = threading.Lock()

    @property
    def degraded(self) -> bool:
        """Whether this process is using its memory because Redis did not answer."""
        return self._down_since is not None

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if self._down_since is not None and time.monotonic() - self._last_try < settings.LUDOLOG_CACHE_RETRY_SECONDS:
            return getattr(self._memory, name)(*args, **kwargs)
        redis_method: Callable[..., Any] = getattr(super(), name)
        try:
            result = redis_method(*args, **kwargs)
        except UNREACHABLE as error:
            with self._lock:
                self._last_try = time.monotonic()
                if self._down_since is None:
                    self._down_since = self._last_try
                    logger.warning("the cache (Redis) does not answer (%s: %s): this process keeps its cache in "
                                   "memory until it does", type(error).__name__, error)
            return getattr(self._memory, name)(*args, **kwargs)
        if self._down_since is not None:
            with self._lock:
                if self._down_since is not None:
                    logger.warning("the cache (Redis) answers again after %.0f s", time.monotonic() - self._down_since)
                    self._down_since = None
                    self._memory.clear()
        return result

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        return self._call("clear")


def cache_state() -> str:
    """The default cache as /health/ tells it: ``ok``, ``per process`` (no shared cache is
    configured), or ``unreachable`` when Redis does not answer (this process then caches in its
    memory)."""
    from django.core.cache import caches

    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return "not shared (each process its own memory)"
    try:
        backend._cache.get_client(write=False).ping()  # noqa: SLF001 (the only way to ask Redis itself)
    except UNREACHABLE as error:
        return f"unreachable: {type(error).__name__} (each process caches in its memory)"
    return "ok"
