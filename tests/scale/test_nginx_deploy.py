"""deploy/ works as written: nginx with ``deploy/nginx.conf`` in front of two
Daphne processes started with ``deploy/supervisord.conf``'s command line.

Only what an installation changes is substituted (the listen ports, the
certificate, the upstream's ports: ``servers.deploy_nginx_conf``); the site runs
as production does (``DEBUG`` off, the public name its only allowed host, Redis).
Through the proxy, over HTTPS and ``wss``, players sign up and in, a move is
played and the sockets hear their doorbells; the site must see the public name,
``https``, and the address nginx saw, whatever the client writes in
``X-Forwarded-For`` (issue #23: a forged header defeated every per-address limit).
Skipped without nginx unless ``AZUL_REQUIRE_NGINX`` is set (``.ci/run`` sets it).
"""

from __future__ import annotations

import http.client
import json
import pickle
import tempfile
from contextlib import ExitStack
from pathlib import Path

import pytest

from accounts.models import User
from games import selectors
from tests.games.helpers import move_post_data

from . import servers

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "tile-pattern-wall-93"


@pytest.fixture
def proxied():
    """nginx (deploy/) in front of two Daphne processes (deploy/) on Redis."""
    servers.require_nginx()
    servers.require_redis()
    env = servers.production_env()
    with ExitStack() as stack:
        daphnes = [stack.enter_context(servers.daphne(env)) for _ in range(2)]
        proxy = stack.enter_context(servers.deploy_nginx([d.port for d in daphnes]))
        yield proxy, daphnes, env
        for daphne in daphnes:
            assert servers.errors_in(daphne.stderr()) == []


def _sign_up(proxy: servers.Proxy, username: str, **headers: str) -> servers.Response:
    browser = servers.Browser(proxy)
    return browser.post(
        "/accounts/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        headers=headers,
    )


def _signed_up(proxy: servers.Proxy, username: str) -> servers.Browser:
    browser = servers.Browser(proxy)
    answer = browser.post(
        "/accounts/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert answer.status == 302, answer.body[:500]
    return browser


def _sign_in(
    browser: servers.Browser,
    username: str,
    password: str,
    headers: dict[str, str] | None = None,
) -> servers.Response:
    return browser.post(
        "/accounts/login/",
        {"username": username, "password": password},
        headers=headers,
    )


def test_deploy_nginx_conf_passes_nginx_t():
    servers.require_nginx()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        certificate, key = servers.self_signed_certificate(work, servers.PUBLIC_NAME)
        site = servers.deploy_nginx_conf(
            https_port=servers.free_port(),
            http_port=servers.free_port(),
            upstream_ports=servers.daphne_ports(),
            certificate=certificate,
            key=key,
        )
        conf = work / "nginx.conf"
        conf.write_text(servers.nginx_main_conf(work, site))
        checked = servers.nginx_test(conf, work)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_players_sign_in_play_and_hear_the_doorbell_through_the_proxy(
    proxied, start_game
):
    proxy, _, env = proxied
    # Plain HTTP is sent to HTTPS under the public name; nginx names no version.
    plain = http.client.HTTPConnection("127.0.0.1", proxy.http_port, timeout=10)
    plain.request("GET", "/games/?page=2", headers={"Host": proxy.name})
    redirect = plain.getresponse()
    plain.close()
    assert redirect.status == 301
    assert redirect.headers["Location"] == f"https://{proxy.name}/games/?page=2"
    assert redirect.headers["Server"] == "nginx"

    ana = _signed_up(proxy, "ana")
    binh = _signed_up(proxy, "binh")
    # Ana signs in again in another browser: the log-in form's POST, CSRF-checked
    # against the public name over https.
    ana = servers.Browser(proxy)
    signed_in = _sign_in(ana, "ana", PASSWORD)
    assert signed_in.status == 302, signed_in.body[:500]
    home = ana.get("/")
    assert home.status == 200
    # The site took the request for https (else SECURE_SSL_REDIRECT would send
    # it round again, and no HSTS header goes out on plain http) ...
    assert "max-age=" in home.headers["Strict-Transport-Security"]
    assert home.headers["Server"] == "nginx"

    users = {u.username: u for u in User.objects.filter(username__in=["ana", "binh"])}
    game = start_game([users["ana"], users["binh"]])
    mover_name = game.seats.get(number=game.seat_to_move).user.username
    mover, watcher = (ana, binh) if mover_name == "ana" else (binh, ana)
    move = selectors.game_engine(game).legal_moves()[0]

    with (
        watcher.socket(f"/ws/games/{game.pk}/") as game_socket,
        watcher.socket("/ws/user/") as user_socket,
    ):
        hello = json.loads(game_socket.recv(timeout=10))
        assert hello == {"type": "game", "ply": game.ply, "status": "active"}
        page = mover.get(f"/games/{game.pk}/")
        assert page.status == 200
        played = mover.post(
            f"/games/{game.pk}/move/",
            move_post_data(move, game.ply),
            headers={"HX-Request": "true"},
        )
        assert played.status == 200, played.body[:500]
        rung = json.loads(game_socket.recv(timeout=10))
        told = json.loads(user_socket.recv(timeout=10))
    game.refresh_from_db()
    assert game.ply > hello["ply"]
    assert rung == {"type": "game", "ply": game.ply, "status": "active"}
    assert told["type"] == "user" and told["game"] == game.pk

    # ... under the public name (Host), without the test's port: the address
    # e-mails link to, recorded from those POSTs (azulsite/site_url.py).
    import redis

    key = f"{env['CHANNEL_LAYER_PREFIX']}-cache:1:azul:site-url"
    recorded = redis.Redis.from_url(servers.REDIS_URL).get(key)
    assert recorded is not None
    assert pickle.loads(recorded) == f"https://{proxy.name}/"


def test_a_forged_forwarded_address_does_not_escape_the_login_lockout(proxied):
    from axes.models import AccessAttempt

    proxy, _, _ = proxied
    _signed_up(proxy, "eve")
    attacker = servers.Browser(proxy)
    for n in range(6):
        forged = {"X-Forwarded-For": f"203.0.113.{n + 1}"}
        answer = _sign_in(attacker, "eve", "wrong-guess", headers=forged)
        assert answer.status in (200, 429)
    # The right password, from "yet another address": still locked.
    locked = _sign_in(
        attacker, "eve", PASSWORD, headers={"X-Forwarded-For": "198.51.100.7"}
    )
    assert locked.status == 429
    assert attacker.get("/accounts/settings/").status == 302  # not signed in
    # The site counted the address nginx saw, never the one the client wrote.
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {
        "127.0.0.1"
    }


def test_a_forged_forwarded_address_does_not_escape_the_sign_up_limit(proxied):
    answers = [
        _sign_up(proxy=proxied[0], username=f"spam{n}", **{"X-Forwarded-For": ip})
        for n, ip in enumerate(f"192.0.2.{n + 1}" for n in range(6))
    ]
    assert [a.status for a in answers] == [302] * 5 + [429]
    assert User.objects.filter(username__startswith="spam").count() == 5
