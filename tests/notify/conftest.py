"""A stand-in push service and browser subscriptions for the notification tests.

``push_service`` is an HTTP server in a thread that takes what pywebpush posts
(the encrypted body and its headers), answers 201 — or, for an endpoint under
``/gone/`` or ``/missing/``, 410 or 404 as a push service does for a
subscription that no longer exists (``/broken/``: 500; ``/moved/``: a 307 to
``/push/``). ``Browser`` plays a browser's part of Web Push: a P-256 key pair
and a 16-byte auth secret made with ``cryptography``, the subscription JSON a
browser gives the page, and the
decryption of a received message with ``http_ece`` (aes128gcm, RFC 8291).
``verify_vapid`` checks the ``Authorization: vapid t=…, k=…`` header (RFC 8292)
against the site's public key.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    url: str
    received: list[Received] = field(default_factory=list)

    def for_path(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]


@pytest.fixture
def push_service(settings: Any) -> Iterator[PushService]:
    """The stand-in runs on loopback over http: let in by the test-only
    ``PUSH_INSECURE_SERVICES``, its origin alone."""
    service = PushService(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802  (http.server's name)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            service.received.append(
                Received(
                    self.path, {k.lower(): v for k, v in self.headers.items()}, body
                )
            )
            status = 201
            if self.path.startswith("/gone/"):
                status = 410
            elif self.path.startswith("/missing/"):
                status = 404
            elif self.path.startswith("/broken/"):
                status = 500
            elif self.path.startswith("/moved/"):
                status = 307
            self.send_response(status)
            if status == 307:
                self.send_header("Location", self.path.replace("/moved/", "/push/"))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    settings.PUSH_INSECURE_SERVICES = [service.url]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


class Browser:
    """A browser's side of one push subscription."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)
        self.public_key = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    def subscription_json(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives the page."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {
                "p256dh": b64url(self.public_key),
                "auth": b64url(self.auth_secret),
            },
        }

    def decrypt(self, message: Received) -> dict[str, Any]:
        assert message.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            message.body,
            private_key=self.private_key,
            auth_secret=self.auth_secret,
            version="aes128gcm",
        )
        return json.loads(plain.decode("utf-8"))


@pytest.fixture
def browser_for(push_service: PushService):
    """``browser_for("binh")``: a new browser subscription whose endpoint is on
    the stand-in push service (``kind`` picks its answer: "ok", "gone", …)."""
    count = iter(range(1, 1000))

    def make(name: str, kind: str = "ok") -> Browser:
        prefix = {"ok": "push", "gone": "gone", "missing": "missing"}.get(kind, kind)
        return Browser(f"{push_service.url}/{prefix}/{name}-{next(count)}")

    return make


def verify_vapid(message: Received, public_key: str, audience: str) -> dict[str, Any]:
    """Check the VAPID header: its key is the site's, its JWT is signed by it
    (ES256) for this push service; the JWT's claims."""
    scheme, _, params = message.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header_b64, claims_b64, signature_b64 = fields["t"].split(".")
    signature = unb64url(signature_b64)
    assert len(signature) == 64
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    key = ec.EllipticCurvePublicKey.from_encoded_point(
        ec.SECP256R1(), unb64url(public_key)
    )
    # Raises InvalidSignature when the site's key did not sign it.
    key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    header = json.loads(unb64url(header_b64))
    claims = json.loads(unb64url(claims_b64))
    assert header["alg"] == "ES256"
    assert claims["aud"] == audience
    assert claims["exp"] > time.time()
    return claims


@pytest.fixture(autouse=True)
def vapid_keys(settings: Any, tmp_path: Any) -> tuple[str, str]:
    """A VAPID key pair of the tests' own; short waits for push services."""
    from notify import vapid

    private = vapid.generate_private_key()
    settings.VAPID_PRIVATE_KEY = private
    settings.VAPID_PUBLIC_KEY = vapid.public_key_of(private)
    settings.VAPID_SUBJECT = "mailto:admin@azul.test"
    settings.VAPID_KEY_FILE = tmp_path / "vapid-private-key.txt"
    settings.PUSH_CONNECT_TIMEOUT = 2
    settings.PUSH_READ_TIMEOUT = 5
    return private, settings.VAPID_PUBLIC_KEY


@pytest.fixture
def subscribe(browser_for, client_for):
    """Subscribe ``user`` through the site's view, as notify.js does; the
    browser whose messages the test then reads."""

    def make(user: Any, kind: str = "ok") -> Browser:
        browser = browser_for(user.username, kind)
        response = client_for(user).post(
            "/notify/subscribe/",
            json.dumps(browser.subscription_json()),
            content_type="application/json",
            HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile",
        )
        assert response.status_code == 201, response.content
        return browser

    return make
