"""WSGI entry point (management tools only; the site is served by Daphne/ASGI)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
application = get_wsgi_application()
