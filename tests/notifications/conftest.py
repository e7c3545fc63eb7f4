"""The real Celery worker and the local webhook receiver of the task tests serve here too."""

from tests.tasks.conftest import Receiver, celery_worker, reset_broker_connections, webhook_receiver

__all__ = ["Receiver", "celery_worker", "reset_broker_connections", "webhook_receiver"]
