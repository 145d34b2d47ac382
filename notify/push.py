"""Sending one Web Push message (pywebpush: RFC 8291 aes128gcm encryption and a
VAPID signature, RFC 8292). Called by the task worker and the deadline job, never
in a request: a push service may take seconds to answer.

Where it connects is ``notify.endpoints``' (a browser's push service, at an
address checked public just before); how long it waits is bounded
(``PUSH_CONNECT_TIMEOUT``, ``PUSH_READ_TIMEOUT``: each socket read, so a
stalled service holds a worker a few seconds, not indefinitely)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from games import clock

from . import endpoints, vapid
from .models import PushSubscription

logger = logging.getLogger(__name__)

GONE = (404, 410)
"""What a push service answers for a subscription that no longer exists
(RFC 8030 §7.3 and the vendors' documentation): it is deleted."""


def send_push(
    subscription: PushSubscription, payload: Mapping[str, str], *, ttl: int = 86400
) -> bool:
    """Post ``payload`` (JSON, encrypted for this browser) to its push service;
    whether the service took it. A gone subscription is deleted; any other
    failure is logged (the e-mail, if chosen, still goes). An endpoint the
    site may not post to (``notify.endpoints.target``) is not connected to."""
    try:
        target = endpoints.target(subscription.endpoint)
    except endpoints.EndpointRefused as error:
        logger.warning("push to subscription %s refused: %s", subscription.pk, error)
        return False
    timeout = (settings.PUSH_CONNECT_TIMEOUT, settings.PUSH_READ_TIMEOUT)
    try:
        with endpoints.pinned_session(target) as session:
            webpush(
                subscription_info=subscription.subscription_info(),
                data=json.dumps(payload, ensure_ascii=False),
                vapid_private_key=vapid.signer(),
                # A fresh dict: pywebpush writes "aud" and "exp" into it.
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                content_encoding="aes128gcm",
                ttl=max(0, int(ttl)),
                timeout=timeout,  # requests takes (connect, read)
                headers={"Urgency": "normal"},
                requests_session=session,
            )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in GONE:
            logger.info("push subscription %s is gone (%s)", subscription.pk, status)
            PushSubscription.objects.filter(pk=subscription.pk).delete()
        else:
            logger.warning(
                "push to subscription %s failed: %s", subscription.pk, status
            )
        return False
    except (requests.RequestException, ValueError) as error:
        logger.warning("push to subscription %s failed: %s", subscription.pk, error)
        return False
    PushSubscription.objects.filter(pk=subscription.pk).update(last_used_at=clock.now())
    return True
