"""Web push is no way into the private network, and cannot stall a worker
(issue #23): endpoints are a browser's push service or nothing; at send time the
name must resolve to public addresses and the worker connects to the address it
checked; a silent push service is given up on; one failing browser never stops
the next one."""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests
from urllib3.util import connection as urllib3_connection

from notify import endpoints, push
from notify.models import PushSubscription
from notify.services import notify_turn
from tests.scale.servers import self_signed_certificate

pytestmark = pytest.mark.django_db


def _post_json(client, data):
    return client.post(
        "/notify/subscribe/", json.dumps(data), content_type="application/json"
    )


def _with_endpoint(browser, endpoint):
    return {**browser.subscription_json(), "endpoint": endpoint}


def _to_move(game):
    game.refresh_from_db()
    return game.seats.get(number=game.seat_to_move).user


@pytest.fixture
def connections(monkeypatch) -> list[tuple[str, int]]:
    """Every TCP connection urllib3 opens (refused: nothing is reached)."""
    opened: list[tuple[str, int]] = []

    def create_connection(address, *args, **kwargs):
        opened.append(address)
        raise ConnectionRefusedError("no network in this test")

    monkeypatch.setattr(urllib3_connection, "create_connection", create_connection)
    return opened


# ------------------------------------------------------------------ subscribe

REFUSED = [
    # loopback, private ranges and the metadata address, in their odd spellings
    "https://127.0.0.1/push/x",
    "https://127.1/push/x",
    "https://2130706433/push/x",
    "https://0x7f000001/push/x",
    "https://0x7f.1/push/x",
    "https://017700000001/push/x",
    "https://[::1]/push/x",
    "https://[::ffff:127.0.0.1]/push/x",
    "https://[::ffff:7f00:1]/push/x",
    "https://169.254.169.254/latest/meta-data/",
    "https://10.0.0.5/push/x",
    "https://192.168.1.1/push/x",
    "https://localhost/push/x",
    "https://metadata.google.internal/computeMetadata/v1/",
    # user:pw@, and what hides another host behind it
    "https://user:pw@fcm.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com@169.254.169.254/fcm/send/x",
    "https://fcm.googleapis.com\\@10.0.0.1/fcm/send/x",
    # CR/LF, whitespace and control characters anywhere
    "https://fcm.googleapis.com/fcm/send/x\r\nHost: 10.0.0.1",
    "https://fcm.googleapis.com/fcm/send/x\n",
    " https://fcm.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com/fcm/send/a b",
    "https://fcm.googleapis.com/fcm/send/x\t",
    "https://fcm.googleapis.com/fcm/send/\x00",
    "https://fcm.googleapis.com/fcm/send/\u2028",
    # not https, not port 443
    "http://fcm.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com:8443/fcm/send/x",
    "https://fcm.googleapis.com:80/fcm/send/x",
    # not a browser's push service
    "https://example.com/push/x",
    "https://fcm.googleapis.com.example.com/fcm/send/x",
    "https://evil-fcm.googleapis.com/fcm/send/x",
    "https://push.services.mozilla.com.example/wpush/x",
    "https://fcm.googleapis.com./fcm/send/x",
    "https://fcm.googleаpis.com/fcm/send/x",  # a Cyrillic "а"
    "https://fcm.googleapis.com/fcm/send/x#fragment",
    "https://fcm.googleapis.com",
]


@pytest.mark.parametrize("endpoint", REFUSED)
def test_an_endpoint_off_the_push_services_is_refused_and_nothing_stored(
    players, client_for, browser_for, endpoint
):
    browser = browser_for("ana")
    response = _post_json(client_for(players[0]), _with_endpoint(browser, endpoint))
    assert response.status_code == 400
    assert response.json() == {"error": "That subscription could not be read."}
    assert PushSubscription.objects.count() == 0


@pytest.mark.parametrize(
    ("posted", "stored"),
    [
        ("https://fcm.googleapis.com/fcm/send/dQw4", None),
        ("https://android.googleapis.com/gcm/send/APA91b", None),
        ("https://updates.push.services.mozilla.com/wpush/v2/gAAAAA", None),
        ("https://web.push.apple.com/QGx-bPDXr2uJ", None),
        ("https://wns2-par02p.notify.windows.com/w/?token=BQYAAA%3d%3d", None),
        (
            "https://FCM.GoogleAPIs.com:443/fcm/send/dQw4",
            "https://fcm.googleapis.com/fcm/send/dQw4",
        ),
    ],
)
def test_the_browsers_push_services_are_accepted(
    players, client_for, browser_for, posted, stored
):
    browser = browser_for("ana")
    response = _post_json(client_for(players[0]), _with_endpoint(browser, posted))
    assert response.status_code == 201
    [row] = PushSubscription.objects.all()
    assert row.endpoint == (stored or posted)


def test_the_stand_in_push_service_is_let_in_by_its_own_origin_only(
    players, client_for, browser_for, push_service, settings
):
    browser = browser_for("ana")
    other_port = push_service.url.rsplit(":", 1)[0] + ":1"
    refused = _post_json(
        client_for(players[0]), _with_endpoint(browser, f"{other_port}/push/x")
    )
    assert refused.status_code == 400
    assert _post_json(client_for(players[0]), browser.subscription_json()).status_code
    assert PushSubscription.objects.get().endpoint == browser.endpoint


def test_the_service_list_can_be_changed_in_settings(
    players, client_for, browser_for, settings
):
    settings.PUSH_SERVICE_HOSTS = ["*.push.example.net"]
    browser = browser_for("ana")
    client = client_for(players[0])
    ok = _post_json(client, _with_endpoint(browser, "https://eu.push.example.net/1"))
    assert ok.status_code == 201
    fcm = "https://fcm.googleapis.com/fcm/send/x"
    assert _post_json(client, _with_endpoint(browser, fcm)).status_code == 400
    bare = "https://push.example.net/1"  # "*." needs a name below it
    assert _post_json(client, _with_endpoint(browser, bare)).status_code == 400


# ----------------------------------------------------------------- send time

FCM = "https://fcm.googleapis.com/fcm/send/dQw4"


def _stored(user, browser, endpoint=FCM):
    keys = browser.subscription_json()["keys"]
    return PushSubscription.objects.create(
        user=user, endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"]
    )


@pytest.mark.parametrize(
    "addresses",
    [
        ["127.0.0.1"],
        ["10.0.0.7"],
        ["172.16.5.4"],
        ["192.168.0.10"],
        ["169.254.169.254"],
        ["100.64.0.1"],
        ["0.0.0.0"],
        ["::1"],
        ["::"],
        ["fd00::1"],
        ["fe80::1"],
        ["::ffff:127.0.0.1"],
        ["::ffff:169.254.169.254"],
        ["2002:7f00:1::1"],  # 6to4 around 127.0.0.1
        ["64:ff9b::a00:1"],  # NAT64 around 10.0.0.1
        ["ff02::1"],
        ["142.250.185.74", "10.0.0.7"],  # one private answer is enough
    ],
)
def test_a_host_that_resolves_privately_is_never_connected_to(
    players, browser_for, monkeypatch, connections, addresses
):
    lookups = []

    def resolve(host, port):
        lookups.append((host, port))
        return addresses

    monkeypatch.setattr(endpoints, "resolve", resolve)
    subscription = _stored(players[0], browser_for("ana"))

    assert push.send_push(subscription, {"title": "x"}) is False

    assert lookups == [("fcm.googleapis.com", 443)]
    assert connections == []
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()


def test_the_worker_connects_to_the_address_it_checked(
    players, browser_for, monkeypatch, connections
):
    """DNS rebinding: a second lookup would say loopback; there is none."""
    answers = iter([["142.250.185.74"], ["127.0.0.1"]])
    monkeypatch.setattr(endpoints, "resolve", lambda host, port: next(answers))
    subscription = _stored(players[0], browser_for("ana"))

    assert push.send_push(subscription, {"title": "x"}) is False  # refused here

    assert connections == [("142.250.185.74", 443)]


def test_a_stored_endpoint_the_site_no_longer_accepts_is_not_posted_to(
    players, browser_for, push_service, connections
):
    """Rows stored before the checks: ``user:pw@``, another port, plain http."""
    host = push_service.url.removeprefix("http://")
    browser = browser_for("ana")
    for endpoint in (
        f"http://user:pw@{host}/push/a",
        f"http://{host.split(':')[0]}:1/push/b",
        "http://fcm.googleapis.com/fcm/send/c",
        "https://10.0.0.7/push/d",
    ):
        subscription = _stored(players[0], browser, endpoint)
        assert push.send_push(subscription, {"title": "x"}) is False
    assert connections == []
    assert push_service.received == []


def test_a_redirect_from_a_push_service_is_not_followed(
    players, browser_for, push_service, settings
):
    subscription = _stored(
        players[0], browser_for("ana"), f"{push_service.url}/moved/ana"
    )
    assert push.send_push(subscription, {"title": "x"}) is False
    assert [r.path for r in push_service.received] == ["/moved/ana"]


# --------------------------------------------------- the pin keeps TLS intact


@pytest.fixture
def tls_push_service(tmp_path) -> Iterator[dict[str, Any]]:
    """An https server on loopback whose certificate is for ``push.test``; it
    records the names clients ask for (SNI) and the ``Host`` they send."""
    cert_file, key_file = map(str, self_signed_certificate(tmp_path, "push.test"))
    seen: dict[str, Any] = {"sni": [], "hosts": [], "ca": cert_file}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            seen["hosts"].append(self.headers.get("Host"))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    context.sni_callback = lambda sock, name, ctx: seen["sni"].append(name)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    seen["port"] = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield seen
    finally:
        server.shutdown()
        server.server_close()


def _target(name: str, port: int) -> endpoints.Target:
    return endpoints.Target(
        endpoint=f"https://{name}:{port}/push/x",
        scheme="https",
        hostname=name,
        port=port,
        address="127.0.0.1",
    )


def test_the_pinned_connection_keeps_the_name_for_sni_the_certificate_and_host(
    tls_push_service,
):
    port = tls_push_service["port"]
    target = _target("push.test", port)  # push.test does not resolve: pinned
    with endpoints.pinned_session(target) as session:
        response = session.post(
            target.endpoint, data=b"hi", verify=tls_push_service["ca"], timeout=5
        )
    assert response.status_code == 201
    assert tls_push_service["sni"] == ["push.test"]
    assert tls_push_service["hosts"] == [f"push.test:{port}"]


def test_the_pinned_connection_still_checks_the_certificate_against_the_name(
    tls_push_service,
):
    target = _target("other.test", tls_push_service["port"])
    with endpoints.pinned_session(target) as session:
        with pytest.raises(requests.exceptions.SSLError):
            session.post(target.endpoint, verify=tls_push_service["ca"], timeout=5)
        with pytest.raises(requests.exceptions.InvalidURL):
            session.post("https://push.test/elsewhere", timeout=5)
    assert tls_push_service["hosts"] == []


# ------------------------------------------------------------------ timeouts


@pytest.fixture
def silent_service(settings) -> Iterator[dict[str, Any]]:
    """A push service that accepts, reads the request and never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    seen: dict[str, Any] = {"bytes": b"", "done": threading.Event()}
    held: list[socket.socket] = []

    def serve() -> None:
        while not seen["done"].is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)
            conn.settimeout(10)
            with contextlib.suppress(OSError):
                seen["bytes"] += conn.recv(65536)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    seen["url"] = f"http://127.0.0.1:{listener.getsockname()[1]}"
    settings.PUSH_INSECURE_SERVICES = [seen["url"]]
    try:
        yield seen
    finally:
        seen["done"].set()
        listener.close()
        for conn in held:
            conn.close()


def test_a_push_service_that_never_answers_is_given_up_on(
    players, browser_for, silent_service, settings, monkeypatch
):
    settings.PUSH_CONNECT_TIMEOUT = 1
    settings.PUSH_READ_TIMEOUT = 0.5
    waits = []
    real_webpush = push.webpush

    def webpush(**kwargs):
        waits.append(kwargs["timeout"])
        return real_webpush(**kwargs)

    monkeypatch.setattr(push, "webpush", webpush)
    subscription = _stored(
        players[0], browser_for("ana"), f"{silent_service['url']}/push/ana"
    )

    assert push.send_push(subscription, {"title": "x"}) is False

    assert waits == [(1, 0.5)]
    assert silent_service["bytes"].startswith(b"POST /push/ana HTTP/1.1\r\n")
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()


# --------------------------------------------------- one failure, not all


def test_a_bad_subscription_first_does_not_stop_the_good_ones_after_it(
    players, start_game, subscribe, push_service, browser_for
):
    game = start_game(players[:2])
    mover = _to_move(game)
    host = push_service.url.removeprefix("http://")
    _stored(mover, browser_for("bad"), f"http://user:pw@{host}/push/bad")
    good = [subscribe(mover), subscribe(mover)]

    sent = notify_turn(user=mover, game=game)

    assert sent.pushes == 2
    assert sorted(r.path for r in push_service.received) == sorted(
        b.endpoint.removeprefix(push_service.url) for b in good
    )


def test_a_send_that_raises_does_not_stop_the_next_browser(
    players, start_game, subscribe, push_service, monkeypatch
):
    import notify.services

    game = start_game(players[:2])
    mover = _to_move(game)
    first = subscribe(mover)
    second = subscribe(mover)
    real_send = notify.services.send_push

    def send_push(subscription, payload, **kwargs):
        if subscription.endpoint == first.endpoint:
            raise RuntimeError("a bug, or a library's surprise")
        return real_send(subscription, payload, **kwargs)

    monkeypatch.setattr(notify.services, "send_push", send_push)

    assert notify_turn(user=mover, game=game).pushes == 1
    [message] = push_service.received
    assert message.path == second.endpoint.removeprefix(push_service.url)


# ------------------------------------------------------------------ checks


def test_check_deploy_warns_of_insecure_push_services(settings):
    from notify.checks import push_insecure_services_unset

    settings.PUSH_INSECURE_SERVICES = []
    assert push_insecure_services_unset() == []
    settings.PUSH_INSECURE_SERVICES = ["http://127.0.0.1:8123"]
    [warning] = push_insecure_services_unset()
    assert warning.id == "notify.W001"


@pytest.mark.parametrize("pattern", ["10.0.0.1", "*.com", "*", "localhost", "a..b"])
def test_check_refuses_a_push_service_that_is_no_host_name(settings, pattern):
    from notify.checks import push_service_hosts_are_names

    settings.PUSH_SERVICE_HOSTS = ["fcm.googleapis.com", pattern]
    [error] = push_service_hosts_are_names()
    assert error.id == "notify.E004" and pattern in error.msg
