"""Turning push on and off per browser, through the site's views."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from notify.models import PushSubscription

pytestmark = pytest.mark.django_db


def _post_json(client: Client, path: str, data: object, **extra):
    body = data if isinstance(data, (str, bytes)) else json.dumps(data)
    return client.post(path, body, content_type="application/json", **extra)


def test_a_browser_subscribes_and_the_settings_page_lists_it(
    players, client_for, browser_for
):
    ana = players[0]
    client = client_for(ana)
    browser = browser_for("ana")
    response = _post_json(
        client,
        "/notify/subscribe/",
        browser.subscription_json(),
        HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Firefox/128.0",
    )
    assert response.status_code == 201
    [row] = PushSubscription.objects.all()
    assert (row.user, row.endpoint) == (ana, browser.endpoint)
    assert row.p256dh == browser.subscription_json()["keys"]["p256dh"]
    assert row.user_agent == "Firefox on Linux"
    page = client.get("/accounts/settings/").content.decode()
    assert "Firefox on Linux" in page
    assert f'data-device="{row.pk}"' in page
    # The same browser again (say, after logging in as someone else) updates it.
    binh = players[1]
    again = _post_json(
        client_for(binh), "/notify/subscribe/", browser.subscription_json()
    )
    assert again.status_code == 200
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [binh.pk]


def test_the_settings_page_gives_the_browser_the_sites_public_key(
    players, client_for, vapid_keys
):
    page = client_for(players[0]).get("/accounts/settings/").content.decode()
    assert f'data-vapid-key="{vapid_keys[1]}"' in page


def test_unsubscribing_removes_only_that_browser(players, client_for, subscribe):
    ana, binh = players[:2]
    kept = subscribe(ana)
    gone = subscribe(ana)
    other = subscribe(binh)
    # Someone else's endpoint is not theirs to remove.
    response = _post_json(
        client_for(ana), "/notify/unsubscribe/", {"endpoint": other.endpoint}
    )
    assert response.json() == {"deleted": 0}
    response = _post_json(
        client_for(ana), "/notify/unsubscribe/", {"endpoint": gone.endpoint}
    )
    assert response.status_code == 200 and response.json() == {"deleted": 1}
    assert sorted(
        PushSubscription.objects.values_list("endpoint", flat=True)
    ) == sorted([kept.endpoint, other.endpoint])


def test_the_settings_page_removes_a_device_by_its_button(
    players, client_for, subscribe
):
    ana, binh = players[:2]
    subscribe(ana)
    subscribe(binh)
    mine = PushSubscription.objects.get(user=ana)
    theirs = PushSubscription.objects.get(user=binh)
    client = client_for(ana)
    refused = client.post("/notify/unsubscribe/", {"subscription": str(theirs.pk)})
    assert refused.status_code == 302
    assert PushSubscription.objects.filter(pk=theirs.pk).exists()
    response = client.post(
        "/notify/unsubscribe/", {"subscription": str(mine.pk)}, follow=True
    )
    assert "That device will get no more notifications." in response.content.decode()
    assert not PushSubscription.objects.filter(pk=mine.pk).exists()


def test_subscribing_needs_a_login_and_the_csrf_token(players, browser_for):
    browser = browser_for("x")
    anonymous = _post_json(Client(), "/notify/subscribe/", browser.subscription_json())
    assert anonymous.status_code == 403
    client = Client(enforce_csrf_checks=True)
    client.force_login(players[0])
    forged = _post_json(client, "/notify/subscribe/", browser.subscription_json())
    assert forged.status_code == 403
    client.get("/accounts/settings/")  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    ok = _post_json(
        client,
        "/notify/subscribe/",
        browser.subscription_json(),
        HTTP_X_CSRFTOKEN=token,
    )
    assert ok.status_code == 201
    assert Client().get("/notify/subscribe/").status_code == 405
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize(
    "body",
    [
        "",
        "not json",
        "[]",
        '"text"',
        "\x00",
        "{}",
        '{"endpoint": 5, "keys": {}}',
        '{"endpoint": "https://push.example/1", "keys": []}',
        '{"endpoint": "https://push.example/1", "keys": {"p256dh": "x", "auth": "y"}}',
        json.dumps(
            {"endpoint": "ftp://push.example/1", "keys": {"p256dh": "BA", "auth": "AA"}}
        ),
        json.dumps({"endpoint": "https://" + "a" * 3000, "keys": {}}),
        b"\xff\xfe",
    ],
)
def test_an_odd_subscription_is_refused_with_400(players, client_for, body):
    client = client_for(players[0])
    response = _post_json(client, "/notify/subscribe/", body)
    assert response.status_code == 400
    unsubscribe = _post_json(client, "/notify/unsubscribe/", body)
    assert unsubscribe.status_code in (200, 302, 400)  # "": no body, a form
    assert PushSubscription.objects.count() == 0


def test_plain_http_push_services_are_refused_in_production(
    players, client_for, browser_for, settings
):
    settings.PUSH_INSECURE_SERVICES = []
    browser = browser_for("ana")  # http://127.0.0.1:…
    response = _post_json(
        client_for(players[0]), "/notify/subscribe/", browser.subscription_json()
    )
    assert response.status_code == 400
    https = {**browser.subscription_json(), "endpoint": "https://fcm.googleapis.com/x"}
    ok = _post_json(client_for(players[0]), "/notify/subscribe/", https)
    assert ok.status_code == 201


@pytest.mark.parametrize(
    "value", ["", "²", "9" * 5000, "-1", "\x00", "1e9", str(2**63)]
)
def test_an_odd_device_number_is_no_server_error(players, client_for, value):
    response = client_for(players[0]).post(
        "/notify/unsubscribe/", {"subscription": value}
    )
    assert response.status_code == 302


def test_another_accounts_subscription_stays_with_it(players, client_for, subscribe):
    """Its endpoint with other keys is a forgery, or another browser's copy:
    refused, and the owner keeps hearing."""
    ana, binh = players[:2]
    browser = subscribe(ana)
    forged = {
        **browser.subscription_json(),
        "keys": type(browser)(browser.endpoint).subscription_json()["keys"],
    }
    response = _post_json(client_for(binh), "/notify/subscribe/", forged)
    assert response.status_code == 409
    assert response.json() == {
        "error": "This browser's notifications are turned on for another account."
    }
    [row] = PushSubscription.objects.all()
    assert row.user == ana
    assert (row.p256dh, row.auth) == (
        browser.subscription_json()["keys"]["p256dh"],
        browser.subscription_json()["keys"]["auth"],
    )
    page = client_for(binh).get("/accounts/settings/").content.decode()
    assert "data-device=" not in page


def test_an_account_keeps_its_newest_subscriptions_only(
    players, client_for, subscribe, settings
):
    ana, binh = players[:2]
    assert settings.PUSH_MAX_SUBSCRIPTIONS == 5
    theirs = subscribe(binh)
    browsers = [subscribe(ana) for _ in range(6)]
    mine = PushSubscription.objects.filter(user=ana)
    assert sorted(mine.values_list("endpoint", flat=True)) == sorted(
        b.endpoint for b in browsers[1:]
    )
    page = client_for(ana).get("/accounts/settings/").content.decode()
    assert page.count("data-device=") == 5
    # binh's own subscription is no part of ana's count
    assert PushSubscription.objects.get(user=binh).endpoint == theirs.endpoint
    # a browser moved over from another account counts as the newest one
    moved = _post_json(
        client_for(ana), "/notify/subscribe/", theirs.subscription_json()
    )
    assert moved.status_code == 200
    assert mine.count() == 5
    assert mine.filter(endpoint=theirs.endpoint).exists()
    assert not mine.filter(endpoint=browsers[1].endpoint).exists()
