"""Which push endpoints the site posts to, and where it connects (issue #23).

A browser names its push service in its subscription's endpoint, and the task
worker posts there. Taken as given, that let any player make the worker post to
loopback, the private network or a cloud's metadata address. So an endpoint is
checked twice:

- **At subscribe** (:func:`normalised`): https on port 443, no ``user:pw@``, no
  whitespace or control character anywhere, and a DNS name (never an IP literal
  in any spelling: ``127.1``, ``2130706433``, ``0x7f000001``, ``[::1]``) that,
  lower-cased and IDNA-encoded, is one of the browsers' push services
  (``settings.PUSH_SERVICE_HOSTS``; ``*.`` stands for any name under it).
- **At send** (:func:`target`): the stored endpoint passes the same check again
  (a row stored before it, or a changed list), its name is resolved, and every
  address must be public (:func:`is_public`, which also looks inside IPv6
  spellings of IPv4 addresses). :func:`pinned_session` then connects to the
  address that was checked, not to a second lookup's (DNS rebinding), while TLS
  still sends and verifies the name (SNI, certificate) and ``Host`` carries it;
  it follows no redirect and takes no proxy or ``.netrc`` from the environment.

The tests' stand-in push service runs on loopback over http: it gets in only
through ``settings.PUSH_INSECURE_SERVICES``, a list of exact origins
(``http://127.0.0.1:8123``) for which the https, port, name and public-address
rules are waived. Production never sets it; ``check --deploy`` warns when it is
(``notify.W001``).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, urlsplit, urlunsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connectionpool import HTTPConnectionPool

MAX_LENGTH = 2000
"""``PushSubscription.endpoint``'s length."""

LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
NUMERIC_LABEL = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)")
"""A last label the URL standard reads as an IPv4 number (``0x7f``, ``1``)."""

NAT64 = (
    ipaddress.IPv6Network("64:ff9b::/96"),
    ipaddress.IPv6Network("64:ff9b:1::/48"),
)


class EndpointRefused(ValueError):
    """The site does not post to this endpoint (the reason is the message)."""


@dataclass(frozen=True)
class Target:
    """An endpoint the site may post to now, and the one address to connect to."""

    endpoint: str
    scheme: str
    hostname: str
    port: int
    address: str


def dns_name(host: str) -> bool:
    """Whether ``host`` (lower-case ASCII) is a DNS name, not an address: two
    labels or more, the last one not a number in any base."""
    labels = host.split(".")
    return (
        len(host) <= 253
        and len(labels) >= 2
        and all(LABEL.fullmatch(label) for label in labels)
        and not NUMERIC_LABEL.fullmatch(labels[-1])
    )


def host_allowed(host: str, patterns: list[str]) -> bool:
    """``host`` is one of ``patterns``: a name, or ``*.name`` for any below it."""
    for pattern in patterns:
        pattern = pattern.strip().lower()
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) and len(host) > len(pattern) - 1:
                return True
        elif host == pattern:
            return True
    return False


def _printable(value: str) -> bool:
    """No whitespace, control or format character anywhere, and no backslash
    (which some URL parsers read as a slash)."""
    return all(
        ("!" <= ch <= "~" and ch != "\\")
        or (ord(ch) > 0x7F and ch.isprintable() and not ch.isspace())
        for ch in value
    )


def _origin(scheme: str, host: str, port: int | None) -> tuple[str, str, int]:
    default = 443 if scheme == "https" else 80
    return scheme, host, port or default


def _insecure_origins() -> set[tuple[str, str, int]]:
    """``PUSH_INSECURE_SERVICES`` as (scheme, host, port)."""
    origins = set()
    for entry in getattr(settings, "PUSH_INSECURE_SERVICES", []):
        parts = urlsplit(entry.strip())
        if parts.scheme in ("http", "https") and parts.hostname:
            origins.add(_origin(parts.scheme, parts.hostname, parts.port))
    return origins


def _split(value: object) -> tuple[SplitResult, str, int | None]:
    """The endpoint's parts, its lower-case ASCII host and its port, or
    :class:`EndpointRefused`."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_LENGTH:
        raise EndpointRefused("not a URL of at most 2000 characters")
    if not _printable(value):
        raise EndpointRefused("whitespace or a control character")
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        raise EndpointRefused("not a URL") from None
    if "@" in parts.netloc or parts.username is not None:
        raise EndpointRefused("a user name or password")
    if parts.fragment or "#" in value:
        raise EndpointRefused("a fragment")
    if not (parts.path + parts.query).isascii() or not parts.path.startswith("/"):
        raise EndpointRefused("no path, or one that is not ASCII")
    host = parts.hostname or ""
    if not host:
        raise EndpointRefused("no host")
    if not parts.netloc.startswith("["):
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            raise EndpointRefused("a host name that is not one") from None
    return parts, host, port


def normalised(value: object) -> str:
    """The endpoint as the site stores it (its host lower-case and
    IDNA-encoded, no default port), or :class:`EndpointRefused`."""
    parts, host, port = _split(value)
    if _origin(parts.scheme, host, port) in _insecure_origins():
        netloc = parts.netloc.lower()
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
    if parts.scheme != "https":
        raise EndpointRefused("not https")
    if port not in (None, 443):
        raise EndpointRefused("a port other than 443")
    if not dns_name(host) or _is_address(host):
        raise EndpointRefused("an address, not a host name")
    if not host_allowed(host, settings.PUSH_SERVICE_HOSTS):
        raise EndpointRefused(f"{host} is not a browser's push service")
    return urlunsplit(("https", host, parts.path, parts.query, ""))


def _is_address(host: str) -> bool:
    """What the C library (``inet_aton``) would read as an IPv4 address."""
    try:
        socket.inet_aton(host)
    except OSError:
        return False
    return True


def _public_v4(address: ipaddress.IPv4Address) -> bool:
    return address.is_global and not (address.is_reserved or address.is_multicast)


def is_public(text: str) -> bool:
    """Whether an address a name resolved to is on the public internet: never
    loopback, private, link-local (169.254.169.254), shared, reserved or
    multicast, nor any of those written as IPv6 (``::ffff:127.0.0.1``, 6to4,
    NAT64)."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv4Address):
        return _public_v4(address)
    if any(address in network for network in NAT64):
        return _public_v4(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    embedded = address.ipv4_mapped or address.sixtofour
    if embedded is not None:
        return _public_v4(embedded)
    return address.is_global and not (
        address.is_reserved
        or address.is_multicast
        or address.is_site_local
        or address.is_link_local
    )


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to, in the order to try them (only the
    families this machine has an address of)."""
    infos = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_ADDRCONFIG
    )
    return [str(info[4][0]) for info in infos]


def target(endpoint: str) -> Target:
    """Where to post ``endpoint``'s message: checked again, resolved, every
    address public; or :class:`EndpointRefused`."""
    if normalised(endpoint) != endpoint:
        raise EndpointRefused("not as the site stores endpoints")
    parts, host, port = _split(endpoint)
    scheme, host, port = _origin(parts.scheme, host, port)
    insecure = (scheme, host, port) in _insecure_origins()
    try:
        addresses = resolve(host, port)
    except (OSError, UnicodeError) as error:
        raise EndpointRefused(f"{host} does not resolve ({error})") from None
    if not addresses:
        raise EndpointRefused(f"{host} does not resolve")
    private = [a for a in addresses if not is_public(a)]
    if private and not insecure:
        raise EndpointRefused(f"{host} resolves to {', '.join(private)}")
    return Target(endpoint, scheme, host, port, addresses[0])


class PinnedAdapter(HTTPAdapter):
    """Connects every request to ``target.address``: the pool is the address's,
    with the name kept for TLS (``server_hostname``: SNI;
    ``assert_hostname``: the certificate) and in ``Host``. A request for any
    other host is refused."""

    def __init__(self, target: Target, **kwargs: Any) -> None:
        self.target = target
        super().__init__(max_retries=0, **kwargs)

    def _check(self, request: requests.PreparedRequest) -> None:
        parts = urlsplit(request.url or "")
        if (parts.scheme, parts.hostname, parts.port or self.target.port) != (
            self.target.scheme,
            self.target.hostname,
            self.target.port,
        ):
            raise requests.exceptions.InvalidURL(
                f"{request.url} is not the checked endpoint's host"
            )

    def get_connection_with_tls_context(
        self,
        request: requests.PreparedRequest,
        verify: Any,
        proxies: dict[str, str] | None = None,
        cert: Any = None,
    ) -> HTTPConnectionPool:
        self._check(request)
        host_params, pool_kwargs = self.build_connection_pool_key_attributes(
            request, verify, cert
        )
        host_params = {**host_params, "host": self.target.address}
        if self.target.scheme == "https":
            pool_kwargs = {
                **pool_kwargs,
                "server_hostname": self.target.hostname,
                "assert_hostname": self.target.hostname,
            }
        return self.poolmanager.connection_from_host(
            **host_params, pool_kwargs=pool_kwargs
        )

    def add_headers(self, request: requests.PreparedRequest, **kwargs: Any) -> None:
        default = 443 if self.target.scheme == "https" else 80
        host = self.target.hostname
        if ":" in host:
            host = f"[{host}]"
        if self.target.port != default:
            host = f"{host}:{self.target.port}"
        request.headers["Host"] = host


def pinned_session(target: Target) -> requests.Session:
    """A session that reaches ``target`` only, at its checked address: no
    redirects, no proxies or credentials from the environment."""
    session = requests.Session()
    session.trust_env = False
    session.max_redirects = 0
    adapter = PinnedAdapter(target)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session
