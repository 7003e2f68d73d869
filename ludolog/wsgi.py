import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludolog.settings")
application = get_wsgi_application()

# Each server process (gunicorn imports this module after forking) gets ready now rather than in
# its first requests: the URLs and every view module they import, the rules engines' data, and
# the broker connection the request that finishes a game would otherwise open. A first request
# took about a second before (2026-12-02, 2 cores, a state read: 0.9-1.15 s, then 13-25 ms).
# The games' web modules and their tile pictures too: the first replay of a Carcassonne game with
# the expansions in a new process took 0.5-0.8 s more than the next (issue 25).
from django.urls import get_resolver  # noqa: E402

from games.registry import load_engines  # noqa: E402
from ludolog.web.games import load_web_games  # noqa: E402

from .celery import warm_up_producer  # noqa: E402

get_resolver().url_patterns  # noqa: B018 (importing the URLconf is the point)
load_engines()
load_web_games()
warm_up_producer(settings.LUDOLOG_SCORING_QUEUE or None)
