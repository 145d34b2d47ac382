"""The site's VAPID key pair (RFC 8292): push services accept a message only when
it is signed by the key the browser subscribed with.

Production sets ``VAPID_PRIVATE_KEY`` (base64url of the raw 32-byte P-256 key,
or of its DER form), ``VAPID_PUBLIC_KEY`` (base64url of the uncompressed point,
the browser's ``applicationServerKey``) and ``VAPID_SUBJECT`` (a ``mailto:`` or
``https:`` contact for push services); ``manage.py vapid_keys`` prints a fresh
pair. Without them (a local run) a key is generated once and kept in
``VAPID_KEY_FILE`` (beside the SQLite database, gitignored), so the
subscriptions a browser made stay valid across restarts.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid
from py_vapid.utils import b64urlencode


def generate_private_key() -> str:
    """A new private key, base64url of its raw 32 bytes."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64urlencode(key.private_numbers().private_value.to_bytes(32, "big"))


def public_key_of(private_key: str) -> str:
    """The ``applicationServerKey`` of ``private_key``: base64url of the
    uncompressed P-256 point."""
    point = Vapid.from_string(private_key).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64urlencode(point)


def _from_file(path: Path) -> str:
    """The key kept in ``path``, written there first if there is none (created
    exclusively: of two processes starting at once, one writes, both read it)."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(descriptor, "w") as file:
            file.write(generate_private_key() + "\n")
    return path.read_text().strip()


@functools.cache
def _keys(private: str, public: str, key_file: str) -> tuple[str, str]:
    if not private:
        private = _from_file(Path(key_file))
    derived = public_key_of(private)
    if public and public != derived:
        raise ImproperlyConfigured(
            "VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY."
        )
    return private, derived


def keys() -> tuple[str, str]:
    """(private, public) key, base64url, from the settings or the key file."""
    return _keys(
        settings.VAPID_PRIVATE_KEY,
        settings.VAPID_PUBLIC_KEY,
        str(settings.VAPID_KEY_FILE),
    )


def public_key() -> str:
    return keys()[1]


def signer() -> Vapid:
    """The signer pywebpush puts the ``Authorization: vapid t=…, k=…`` header with."""
    return Vapid.from_string(keys()[0])
