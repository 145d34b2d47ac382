"""One Redis connection pool per process for Django's cache (``REDIS_URL`` set).

Django keeps a cache backend instance per async context, and under ASGI every
request runs in a context of its own: each request got a new ``RedisCache``, so a
new connection pool, so a new TCP connection to Redis (with its handshake and
health check) just to read the session. With two server processes that was about
a third of each process's CPU (``bench/http.py --processes 2``, py-spy). This
pool class hands every backend instance of a process the same pool for the same
URL and options; redis-py's pools are thread-safe and reconnect after a fork.
"""

from __future__ import annotations

import threading
from typing import Any

import redis


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
