"""The ASGI application: the site with its live event streams (live/).

gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker     (production)
uvicorn config.asgi:application                                     (make run)
"""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SLOWHAND_SERVER", "asgi")  # settings: psycopg's connection pool
django_application = get_asgi_application()

from config.collector import freeze_loaded  # noqa: E402 (needs the settings loaded)
from config.concurrency import SyncRequestLimit  # noqa: E402
from config.direct_asgi import DirectViews  # noqa: E402

# The event streams past the middleware (config.direct_asgi); the synchronous views taking turns.
application = DirectViews(SyncRequestLimit(django_application, settings.ASGI_SYNC_REQUESTS))
freeze_loaded()  # what the process has loaded is never collected (config.collector)
