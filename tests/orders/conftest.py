"""The real services of the orders' tests: a Celery worker on Redis, the ASGI server and its streams."""

from tests.live.conftest import asgi_server, open_stream  # noqa: F401
from tests.tasks.conftest import celery_worker  # noqa: F401
