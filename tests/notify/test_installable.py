"""The installable site: manifest, service worker, offline page, icons, CSP."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "static"


def test_every_page_links_the_manifest_and_its_script(players, client_for):
    for client in (Client(), client_for(players[0])):
        page = client.get("/").content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest?lang=en">' in page
        assert 'data-service-worker="/sw.js"' in page
        assert "js/notify.js" in page


def test_the_manifest_says_how_to_install_the_site():
    response = Client().get("/manifest.webmanifest?lang=en")
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["name"] == "Azul by correspondence"
    assert data["short_name"] == "Azul"
    assert (data["start_url"], data["scope"], data["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert data["theme_color"] == "#1d2330"
    sizes = {icon["sizes"]: icon["src"] for icon in data["icons"]}
    assert set(sizes) == {"192x192", "512x512"}
    for size, src in sizes.items():
        png = (STATIC / src.removeprefix("/static/")).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert f"{width}x{height}" == size


def test_the_manifest_speaks_the_pages_language():
    data = Client().get("/manifest.webmanifest?lang=vi").json()
    assert data["lang"] == "vi"
    with translation.override("vi"):
        assert data["name"] == translation.gettext("Azul by correspondence")
    # an unknown language is the request's own
    assert Client().get("/manifest.webmanifest?lang=xx\x00").json()["lang"] == "en"


def test_the_service_worker_is_served_from_the_root_for_every_page():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    script = response.content.decode()
    for event in ("push", "notificationclick", "fetch", "install"):
        assert f'addEventListener("{event}"' in script
    assert '"/offline/"' in script
    assert Client().post("/sw.js").status_code == 405


def test_the_offline_page_says_there_is_no_offline_play():
    page = Client().get("/offline/").content.decode()
    assert "You are offline" in page and "no play offline" in page


def test_the_policy_allows_the_sites_own_manifest_and_worker():
    policy = Client().get("/")["Content-Security-Policy"]
    assert "manifest-src 'self'" in policy
    assert "worker-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_a_local_run_makes_its_vapid_key_once(settings, tmp_path):
    from notify import vapid

    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_KEY_FILE = tmp_path / "vapid-private-key.txt"
    first = vapid.keys()
    assert settings.VAPID_KEY_FILE.read_text().strip() == first[0]
    vapid._keys.cache_clear()
    assert vapid.keys() == first  # read back, not made again
    assert vapid.public_key_of(first[0]) == first[1]
    assert len(vapid.signer().sign({"sub": "mailto:a@b.c", "aud": "https://x.y"})) == 1


def test_the_check_refuses_a_vapid_pair_that_does_not_match(settings):
    from notify import vapid
    from notify.checks import vapid_keys_match

    assert vapid_keys_match() == []  # the tests' own pair
    settings.VAPID_PUBLIC_KEY = vapid.public_key_of(vapid.generate_private_key())
    assert [e.id for e in vapid_keys_match()] == ["notify.E003"]
    settings.VAPID_PRIVATE_KEY = "not a key"
    assert [e.id for e in vapid_keys_match()] == ["notify.E002"]
    settings.VAPID_PRIVATE_KEY = ""
    assert [e.id for e in vapid_keys_match()] == ["notify.E001"]
