"""The site's addresses and one that fails, for the 500 page under the Content-Security-Policy."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from config.urls import handler400, handler403, handler404, handler500  # noqa: F401  (the site's error pages)


def fail(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a page that fails, for the test of the 500 page")


urlpatterns = [
    path("failing-page/", fail),
    path("", include("config.urls")),
]
