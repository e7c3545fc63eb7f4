"""Settings for the broker-only case of bench/fault_redis_down.py: the site's own settings, with the
cache (same backend and options) on a Redis of its own (BENCH_CACHE_URL) instead of REDIS_URL's,
so that stopping the broker's Redis stops only the broker. Never used by the site itself.
"""

import os

from config.settings import *  # noqa: F403
from config.settings import CACHES

CACHES = {"default": {**CACHES["default"], "LOCATION": os.environ["BENCH_CACHE_URL"]}}
