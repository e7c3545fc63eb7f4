"""Settings of the floor project (bench/floor_project): DRF's own TokenAuthentication, only
CommonMiddleware, one view (views.py), PostgreSQL. Not Slowhand's settings in any part.

    DJANGO_SETTINGS_MODULE=bench.floor_project.settings FLOOR_DATABASE_URL=postgres://... \
        gunicorn bench.floor_project.wsgi
"""

import os

import dj_database_url

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "floor-only-secret-key-not-for-production-0123456789")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "rest_framework.authtoken",
    "bench.floor_project",
]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
ROOT_URLCONF = "bench.floor_project.urls"
WSGI_APPLICATION = "bench.floor_project.wsgi.application"
# The site's own connection policy (config/settings.py): persistent connections, checked when reused.
DATABASES = {
    "default": dj_database_url.parse(os.environ["FLOOR_DATABASE_URL"], conn_max_age=60, conn_health_checks=True)
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.TokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_THROTTLE_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
}
