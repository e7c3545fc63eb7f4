"""Settings of the bare floor in bench/move_floor.py: the site's settings with nothing in front of one
benchmark-only view but Django's CommonMiddleware (bench/bare_floor_urls.py). Never used by the site.

    DJANGO_SETTINGS_MODULE=bench.bare_floor_settings gunicorn config.wsgi ...
"""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bare_floor_urls"
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
