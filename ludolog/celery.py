"""The Celery application.

Without ``CELERY_BROKER_URL`` the settings put Celery in eager mode: tasks run in-process, so a
first run needs no broker. With it, tasks go through the broker to ``make worker``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")

app = Celery("ludolog")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
