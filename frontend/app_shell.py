"""What makes the site an installable app on a phone: the web app manifest, the service worker (served
from the site's root, so that it controls every page) and the page it shows when the network is gone."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

THEME_COLOR = "#1f5f45"  # the felt of site.css
BACKGROUND_COLOR = "#fbfaf6"  # its paper
# Bumped when the offline page or what it needs changes, so that old caches are dropped.
SHELL_VERSION = "1"


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": "Slowhand",
        "short_name": "Slowhand",
        "description": _("Correspondence Scat and Scattle: one move at a time, over hours or days."),
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": static("frontend/icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("frontend/icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {
                "src": static("frontend/icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = HttpResponse(json.dumps(body, ensure_ascii=False), content_type="application/manifest+json")
    response["Vary"] = "Cookie, Accept-Language"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    icon = static("frontend/icons/icon-192.png")
    response = render(
        request,
        "frontend/sw.js",
        {
            "version": SHELL_VERSION,
            "precache": json.dumps(["/offline/", static("frontend/site.css"), static("frontend/favicon.svg"), icon]),
            "icon": json.dumps(icon),
        },
        content_type="text/javascript; charset=utf-8",
    )
    # Browsers look for a new worker at every navigation; no cache in between.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/offline.html")


@require_GET
@cache_control(max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    # Browsers ask for /favicon.ico on pages that name no icon (the admin's); without it each such
    # page logged a 404 in the console.
    return redirect(static("frontend/favicon.svg"))
