"""ASGI entry point: HTTP through Django, WebSockets through Channels (Daphne)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")

from azulsite.handlers import get_asgi_application  # noqa: E402

# The sync middleware and views run in one thread hop per request (handlers.py).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
