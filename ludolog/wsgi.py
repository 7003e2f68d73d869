import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
application = get_wsgi_application()

# Each server process (gunicorn imports this module after forking) opens its broker connection
# now rather than in the request that finishes a game.
from .celery import warm_up_producer  # noqa: E402

warm_up_producer(settings.LUDOLOG_SCORING_QUEUE or None)
