"""Settings of the floor server in bench/api_load.py: the site's own settings, with a URLconf that
adds one benchmark-only endpoint (bench/floor_urls.py). Never used by the site itself.

    DJANGO_SETTINGS_MODULE=bench.floor_settings gunicorn config.wsgi ...
"""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.floor_urls"
