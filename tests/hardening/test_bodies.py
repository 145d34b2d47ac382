"""Request bodies are bounded before Django reads them (azulsite/bodies.py).

Raw ASGI calls count every ``receive()``: a body announced too large is refused
with 413 having read none of it, a chunked one once it passes the limit, a slow
one with 408 after the time limit; the site's own application does the same.
"""

from __future__ import annotations

import asyncio
import itertools

import pytest
from channels.testing import HttpCommunicator

from azulsite.bodies import BodyLimit

LIMIT = 1024 * 1024
CHUNK = b"x" * 65536


class Inner:
    """Django's place: records what reaches it."""

    def __init__(self):
        self.bodies: list[bytes] = []

    async def __call__(self, scope, receive, send):
        message = await receive()
        self.bodies.append(message["body"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


class Client:
    """The server's side of one request: a body source that counts its reads."""

    def __init__(self, messages):
        self.messages = iter(messages)
        self.reads = 0
        self.sent: list[dict] = []

    async def receive(self):
        self.reads += 1
        message = next(self.messages)
        if message is None:  # a client that stops sending
            await asyncio.sleep(3600)
        return message

    async def send(self, message):
        self.sent.append(message)

    @property
    def status(self):
        return self.sent[0]["status"]


def scope(headers=()):
    return {
        "type": "http",
        "method": "POST",
        "path": "/games/import/",
        "headers": list(headers),
    }


def chunks(n, more=True):
    return [{"type": "http.request", "body": CHUNK, "more_body": more}] * n


@pytest.mark.asyncio
async def test_announced_large_body_is_refused_unread():
    inner, client = Inner(), Client(chunks(1600))
    app = BodyLimit(inner, max_bytes=LIMIT, timeout=5)
    headers = [(b"content-length", str(100 * 1024 * 1024).encode())]
    await app(scope(headers), client.receive, client.send)
    assert client.status == 413
    assert client.reads == 0 and inner.bodies == []


@pytest.mark.asyncio
async def test_endless_chunked_body_is_refused_once_over_the_limit():
    endless = itertools.repeat(
        {"type": "http.request", "body": CHUNK, "more_body": True}
    )
    inner, client = Inner(), Client(endless)
    await BodyLimit(inner, max_bytes=LIMIT, timeout=5)(
        scope(), client.receive, client.send
    )
    assert client.status == 413
    assert client.reads == LIMIT // len(CHUNK) + 1
    assert inner.bodies == []


@pytest.mark.asyncio
async def test_slow_body_is_refused_after_the_time_limit():
    inner, client = Inner(), Client([*chunks(2), None])
    loop = asyncio.get_running_loop()
    started = loop.time()
    await BodyLimit(inner, max_bytes=LIMIT, timeout=0.3)(
        scope(), client.receive, client.send
    )
    assert client.status == 408
    assert loop.time() - started < 2
    assert inner.bodies == []


@pytest.mark.asyncio
@pytest.mark.parametrize("length", [b"12x", b"-1", b"1" * 40])
async def test_unreadable_content_length_is_a_bad_request(length):
    inner, client = Inner(), Client(chunks(1, more=False))
    await BodyLimit(inner, max_bytes=LIMIT, timeout=5)(
        scope([(b"content-length", length)]), client.receive, client.send
    )
    assert client.status == 400 and inner.bodies == []


@pytest.mark.asyncio
async def test_body_within_the_limit_reaches_the_application_whole():
    inner, client = Inner(), Client([*chunks(15), *chunks(1, more=False)])
    await BodyLimit(inner, max_bytes=LIMIT, timeout=5)(
        scope(), client.receive, client.send
    )
    assert client.status == 200
    assert inner.bodies == [CHUNK * 16]


@pytest.mark.asyncio
async def test_client_gone_before_the_end_gets_no_answer():
    inner, client = Inner(), Client([*chunks(2), {"type": "http.disconnect"}])
    await BodyLimit(inner, max_bytes=LIMIT, timeout=5)(
        scope(), client.receive, client.send
    )
    assert client.sent == [] and inner.bodies == []


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_the_site_refuses_an_announced_100_mb_import():
    from azulsite.asgi import application

    comm = HttpCommunicator(
        application,
        "POST",
        "/games/import/",
        body=b"--x\r\n",
        headers=[
            (b"content-type", b"multipart/form-data; boundary=x"),
            (b"content-length", str(100 * 1024 * 1024).encode()),
        ],
    )
    response = await comm.get_response(timeout=5)
    assert response["status"] == 413


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_the_site_still_serves_ordinary_requests():
    from azulsite.asgi import application

    comm = HttpCommunicator(
        application, "GET", "/rules/classic/", headers=[(b"host", b"localhost")]
    )
    response = await comm.get_response(timeout=10)
    assert response["status"] == 200


def test_settings_match_the_limits():
    from django.conf import settings

    from games.services import RECORD_MAX_BYTES

    assert RECORD_MAX_BYTES + 4096 <= settings.REQUEST_BODY_MAX_BYTES
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE >= RECORD_MAX_BYTES
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= settings.REQUEST_BODY_MAX_BYTES
    nginx = (settings.BASE_DIR / "deploy" / "nginx.conf").read_text()
    assert "client_max_body_size 1m;" in nginx  # 1 MiB, as REQUEST_BODY_MAX_BYTES
    assert settings.REQUEST_BODY_MAX_BYTES == 1024 * 1024
