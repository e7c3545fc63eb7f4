import os

from celery import Celery
from celery.signals import task_postrun, task_success

from config import health

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("slowhand")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_postrun.connect
def _note_worker_answered(**_kwargs) -> None:
    """/healthz tells a working worker from a silent one by when it last finished a task."""
    health.note_worker_answered()


@task_success.connect
def _note_timeouts_swept(sender=None, **_kwargs) -> None:
    if sender is not None and sender.name == health.TIMEOUT_SWEEP_TASK:
        health.note_timeouts_swept()
