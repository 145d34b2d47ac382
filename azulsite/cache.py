"""One Redis connection pool and client per process for Django's cache.

Django keeps a cache backend instance per async context, and under ASGI every
request runs in a context of its own: each request got a new ``RedisCache``, so a
new connection pool, so a new TCP connection to Redis (with its handshake and
health check) just to read the session. With two server processes that was about
a third of each process's py-spy samples (``bench/http.py --processes 2``). This
pool class hands every backend instance of a process the same pool for the same
URL and options; redis-py's pools are thread-safe and reconnect after a fork.
``RedisCache`` (the backend settings name when ``REDIS_URL`` is set) uses it and
also keeps one ``redis.Redis`` client per pool: Django builds a new client object
for every cache call, which was half the cost of reading a session.
"""

from __future__ import annotations

import threading
from typing import Any

import redis
from django.core.cache.backends import redis as django_redis


class SharedConnectionPool(redis.ConnectionPool):
    """``from_url`` returns one pool per (URL, options) for the whole process."""

    _pools: dict[tuple[str, str], redis.ConnectionPool] = {}
    _lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Any:
        key = (url, repr(sorted(kwargs.items(), key=lambda item: item[0])))
        with cls._lock:
            pool = cls._pools.get(key)
            if pool is None:
                pool = cls._pools[key] = super().from_url(url, **kwargs)
        return pool

    def client(self) -> redis.Redis:
        """The one ``redis.Redis`` of this pool (clients are thread-safe)."""
        client: redis.Redis | None = getattr(self, "_client", None)
        if client is None:
            with self._lock:
                client = getattr(self, "_client", None)
                if client is None:
                    client = self._client = redis.Redis(connection_pool=self)
        return client


class _PooledClient(django_redis.RedisCacheClient):
    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        if isinstance(pool, SharedConnectionPool):
            return pool.client()
        return super().get_client(key, write=write)


class RedisCache(django_redis.RedisCache):
    """Django's Redis cache with the shared pool and client of this module."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = params.setdefault("OPTIONS", {})
        options.setdefault("pool_class", SharedConnectionPool)
        super().__init__(server, params)
        self._class = _PooledClient
