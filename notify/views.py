"""The installable site and push subscriptions (issue #18).

- ``/manifest.webmanifest``: the web app manifest, its names in the page's
  language (``?lang=``, as ``base.html`` links it).
- ``/sw.js``: the service worker, served from the site's root so its scope is
  every page (``Service-Worker-Allowed: /``); it shows pushes, opens the game on
  a click, and answers a page load with the offline page when the network fails.
- ``/offline/``: that page (no player data in it: the worker keeps a copy).
- ``/notify/subscribe/`` and ``/notify/unsubscribe/``: a signed-in player's
  browser adds or removes its push subscription (JSON, CSRF-protected); the
  settings page removes one by its id (a plain form). Only a browser's own push
  service is accepted as the endpoint (``notify.endpoints``, issue #23); the
  body is read within bounds (``azulsite.jsonbody``).
"""

from __future__ import annotations

import base64
import binascii
import logging
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from azulsite.jsonbody import BadBody, read_json

from . import endpoints
from .services import (
    SubscriptionTaken,
    push_subscription_delete,
    push_subscription_save,
)

logger = logging.getLogger(__name__)

THEME_COLOUR = "#1d2330"
BACKGROUND_COLOUR = "#f7f4ee"


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    language = request.GET.get("lang", "")
    if language not in dict(settings.LANGUAGES):
        language = translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(language):
        data = {
            "id": "/",
            "name": _("Azul by correspondence"),
            "short_name": _("Azul"),
            "description": _(
                "Play Azul and Azul: Summer Pavilion by correspondence, one move "
                "at a time."
            ),
            "lang": language,
            "dir": "rtl" if translation.get_language_bidi() else "ltr",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOUR,
            "background_color": BACKGROUND_COLOUR,
            "icons": [
                {
                    "src": static(f"img/icon-{size}.png"),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "any maskable",
                }
                for size in (192, 512)
            ],
        }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    script = render_to_string(
        "notify/sw.js",
        {
            "offline_url": reverse("offline"),
            "icon_url": static("img/icon-192.png"),
            "badge_url": static("img/badge-96.png"),
            "precache": [
                reverse("offline"),
                static("css/site.css"),
                static("img/icon-192.png"),
            ],
        },
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # A new version of the worker is picked up at the next page load.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "notify/offline.html")


# ------------------------------------------------------------- subscriptions


def _key(value: Any, length: int) -> str | None:
    """A base64url key of ``length`` bytes (padding optional), else None."""
    if not isinstance(value, str) or len(value) > 200:
        return None
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None
    return value.rstrip("=") if len(raw) == length else None


def _endpoint(value: Any) -> str | None:
    """A browser's push service address, as stored (``notify.endpoints``)."""
    try:
        return endpoints.normalised(value)
    except endpoints.EndpointRefused as error:
        logger.info("push endpoint refused: %s", error)
        return None


def _browser_label(user_agent: str) -> str:
    """ "Firefox on Android": enough for a player to tell their devices apart."""
    browsers = (
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("SamsungBrowser", "Samsung Internet"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Chromium/", "Chromium"),
        ("Safari/", "Safari"),
    )
    systems = (
        ("Android", "Android"),
        ("iPhone", "iOS"),
        ("iPad", "iPadOS"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    )
    browser = next((name for mark, name in browsers if mark in user_agent), "")
    system = next((name for mark, name in systems if mark in user_agent), "")
    if browser and system:
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return browser or system or _("A browser")


SUBSCRIPTION_MAX_BYTES = 16 * 1024
"""A browser's ``PushSubscription.toJSON()`` is well under 1 kB."""


def _json_body(request: HttpRequest) -> dict[str, Any]:
    """The body's JSON object, or :class:`BadBody` (400 for any other value)."""
    data = read_json(request, max_bytes=SUBSCRIPTION_MAX_BYTES)
    if not isinstance(data, dict):
        raise BadBody(400, "not a JSON object")
    return data


def _refused(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """Store this browser's subscription (``PushSubscription.toJSON()``) for the
    signed-in player (``services.push_subscription_save``: the same endpoint
    again updates it; another account's moves only with its own keys, the same
    browser signed in as someone else; the oldest beyond the cap go)."""
    if not request.user.is_authenticated:
        return _refused(_("Log in to turn on notifications."), 403)
    unreadable = _("That subscription could not be read.")
    try:
        data = _json_body(request)
    except BadBody as error:
        return _refused(unreadable, error.status)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        return _refused(unreadable, 400)
    endpoint = _endpoint(data.get("endpoint"))
    p256dh = _key(keys.get("p256dh"), 65)
    auth = _key(keys.get("auth"), 16)
    if endpoint is None or p256dh is None or auth is None:
        return _refused(unreadable, 400)
    label = _browser_label(request.headers.get("User-Agent", "")[:500])
    try:
        subscription, created = push_subscription_save(
            user=request.user,
            endpoint=endpoint,
            p256dh=p256dh,
            auth=auth,
            device=label[:200],
        )
    except SubscriptionTaken:
        return _refused(
            _("This browser's notifications are turned on for another account."),
            409,
        )
    return JsonResponse(
        {"id": subscription.pk, "device": subscription.user_agent},
        status=201 if created else 200,
    )


@require_POST
def unsubscribe(request: HttpRequest) -> HttpResponse:
    """Remove a subscription of the signed-in player: the browser's own (JSON
    ``{"endpoint": …}``) or, from the settings page, one by its id."""
    if not request.user.is_authenticated:
        return _refused(_("Log in to change your notifications."), 403)
    if request.content_type == "application/json":
        unreadable = _("That subscription could not be read.")
        try:
            endpoint = _json_body(request).get("endpoint")
        except BadBody as error:
            return _refused(unreadable, error.status)
        if not isinstance(endpoint, str) or len(endpoint) > 2000:
            return _refused(unreadable, 400)
        # As stored; one the site no longer accepts is looked up as it came.
        stored = _endpoint(endpoint) or endpoint
        deleted = push_subscription_delete(
            user=request.user, endpoints={endpoint, stored}
        )
        return JsonResponse({"deleted": deleted})
    number = request.POST.get("subscription", "")
    if number.isascii() and number.isdigit() and len(number) < 19:
        deleted = push_subscription_delete(
            user=request.user, subscription_id=int(number)
        )
    else:
        deleted = 0
    if deleted:
        messages.success(request, _("That device will get no more notifications."))
    else:
        messages.error(request, _("That device was not found."))
    return redirect("settings")
