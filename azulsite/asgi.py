"""ASGI entry point: HTTP through Django, WebSockets through Channels (Daphne).

Every HTTP request passes ``BodyLimit`` (``azulsite/bodies.py``) before Django:
bodies over ``REQUEST_BODY_MAX_BYTES`` or slower than ``REQUEST_BODY_TIMEOUT`` are
refused unread. Run it with Daphne (``deploy/README.md``);
``DEADLINE_LOOP_SECONDS`` also runs the deadline job inside this server process
(``games/jobs.py``), and ``TASK_WORKER_IN_SERVER`` the task queue's worker
(``games/tasks.py``: the computer players' moves).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")

# Set Django up (and load the models) before anything imports a consumer.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from api.consumers import EventStream  # noqa: E402
from azulsite.bodies import BodyLimit  # noqa: E402
from games.routing import websocket_urlpatterns as game_sockets  # noqa: E402
from leagues.routing import websocket_urlpatterns as league_sockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        # The API's event stream is a Channels consumer: an open stream holds
        # no thread (Django's handler holds one per streaming request).
        "http": URLRouter(
            [
                path("api/stream/events", EventStream.as_asgi()),
                re_path(  # Channels' router takes an ASGI app here
                    r"",
                    BodyLimit(  # type: ignore[arg-type]
                        django_asgi_app,
                        max_bytes=settings.REQUEST_BODY_MAX_BYTES,
                        timeout=settings.REQUEST_BODY_TIMEOUT,
                    ),
                ),
            ]
        ),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(league_sockets + game_sockets))
        ),
    }
)

if settings.DEADLINE_LOOP_SECONDS > 0:
    from games.jobs import start_with_server  # noqa: E402

    start_with_server(settings.DEADLINE_LOOP_SECONDS)

if settings.TASK_WORKER_IN_SERVER:
    from games.tasks import start_worker_with_server  # noqa: E402

    start_worker_with_server()
