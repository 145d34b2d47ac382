"""Django's Redis cache keeps one connection pool per process (azulsite/cache.py).

Under ASGI each request gets its own cache backend instance; without the shared
pool each of them opened a new Redis connection. Needs Redis (the PostgreSQL pass
of ``.ci/run`` requires it).
"""

from __future__ import annotations

import os
import uuid

import pytest
import redis
from django.core.cache.backends.redis import RedisCache

from .test_two_servers import REDIS_URL, _redis_up


@pytest.fixture
def redis_url() -> str:
    if not _redis_up():
        if os.environ.get("AZUL_REQUIRE_REDIS"):
            pytest.fail(f"Redis is not reachable at {REDIS_URL}")
        pytest.skip(f"Redis is not reachable at {REDIS_URL}")
    return REDIS_URL


def _connections_named(name: str) -> int:
    probe = redis.Redis.from_url(REDIS_URL)
    try:
        return sum(1 for client in probe.client_list() if client["name"] == name)
    finally:
        probe.close()


def _backends_in_use(url: str, name: str, pool_class: str | None) -> list[RedisCache]:
    """30 backend instances, as 30 requests' contexts make, each used once."""
    options = {"client_name": name}
    if pool_class:
        options["pool_class"] = pool_class
    backends = []
    for number in range(30):
        backend = RedisCache(url, {"OPTIONS": options, "KEY_PREFIX": name})
        backend.set(f"key-{number}", number, 30)
        assert backend.get(f"key-{number}") == number
        backends.append(backend)
    return backends


def test_each_backend_instance_would_open_its_own_connection(redis_url):
    """The problem, shown with Django's default pool class."""
    name = f"azul-default-{uuid.uuid4().hex[:12]}"
    backends = _backends_in_use(redis_url, name, None)
    assert _connections_named(name) == len(backends)


def test_backends_of_one_process_share_one_connection(redis_url):
    name = f"azul-shared-{uuid.uuid4().hex[:12]}"
    backends = _backends_in_use(redis_url, name, "azulsite.cache.SharedConnectionPool")
    assert _connections_named(name) == 1
    pools = {id(b._cache._get_connection_pool(write=True)) for b in backends}
    assert len(pools) == 1
    # Another URL (or other options) gets a pool of its own.
    other = RedisCache(
        redis_url.rsplit("/", 1)[0] + "/1",
        {
            "OPTIONS": {
                "client_name": name,
                "pool_class": "azulsite.cache.SharedConnectionPool",
            }
        },
    )
    assert other._cache._get_connection_pool(write=True) is not next(
        iter(b._cache._get_connection_pool(write=True) for b in backends)
    )


def test_settings_use_the_shared_pool_with_redis():
    import subprocess
    import sys

    from .test_two_servers import ROOT

    env = dict(os.environ, REDIS_URL="redis://127.0.0.1:6379/0")
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE',"
            " 'azulsite.settings'); django.setup();"
            " from django.conf import settings;"
            " from django.core.cache import cache;"
            " print(settings.CACHES['default']['BACKEND']);"
            " print(type(cache._cache._get_connection_pool(True)).__name__)",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split() == [
        "azulsite.cache.RedisCache",
        "SharedConnectionPool",
    ], result.stderr


def test_the_site_backend_reuses_one_client_per_pool(redis_url):
    from azulsite.cache import RedisCache as SiteRedisCache

    name = f"azul-client-{uuid.uuid4().hex[:12]}"
    backends = [
        SiteRedisCache(
            redis_url, {"OPTIONS": {"client_name": name}, "KEY_PREFIX": name}
        )
        for _ in range(5)
    ]
    for number, backend in enumerate(backends):
        backend.set("key", number, 30)
        assert backend.get("key") == number
    clients = {id(b._cache.get_client(write=True)) for b in backends}
    assert len(clients) == 1
    assert _connections_named(name) == 1
