"""ASGI entry point: HTTP through Django, WebSockets through Channels (Daphne)."""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")

from azulsite.handlers import get_asgi_application  # noqa: E402

# The sync middleware and views run in one thread hop per request (handlers.py).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Sessions and users only where needed: see games/routing.py.
        "websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns)),
    }
)

if settings.DEADLINE_LOOP_SECONDS > 0:
    # The deadline job lives and dies with the server: no second process to start
    # or forget. It is idempotent, so several server processes may each run it.
    from games.jobs import start_in_background  # noqa: E402

    start_in_background(settings.DEADLINE_LOOP_SECONDS)

# Everything loaded so far lives as long as the process: move it out of the
# collector's reach, so later collections walk only request-time objects and the
# pauses they cause stay short (the p99 of bench/ws.py and bench/http.py).
gc.collect()
gc.freeze()
