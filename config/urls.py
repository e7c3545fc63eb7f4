from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.language import switch_language
from accounts.login_views import AdminLoginForm

from .health import healthz

api_v1 = [
    path("", include("accounts.api.urls")),
    path("", include("stats.api.urls")),
    path("", include("games.api.urls")),
    path("", include("notifications.api.urls")),
    path("", include("live.urls")),
    path("", include("tournaments.api.urls")),
    path("", include("orders.api.urls")),
    path("", include("social.api.urls")),
]

# The admin's login counts failed passwords like the site's (accounts.login_limits).
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The page's start-up script comes from its own address (?script), not inline, for the site's
    # Content-Security-Policy; Swagger UI's stylesheet draws its icons as data: images.
    path(
        "api/docs/",
        csp_update({"img-src": ["data:"]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="frontend/api_docs.html")
        ),
        name="api-docs",
    ),
    path("accounts/", include("accounts.urls")),
    # /settings/; then /users/<username>/ and /leaderboard/
    path("", include("accounts.site_urls")),
    path("", include("stats.site_urls")),
    path("", include("games.site_urls")),
    path("", include("notifications.site_urls")),
    path("i18n/setlang/", switch_language, name="set_language"),
    path("", include("tournaments.urls")),
    path("", include("social.site_urls")),
    path("", include("frontend.urls")),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
