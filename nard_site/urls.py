from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularSwaggerSplitView

from nard_site.api.errors import handler404 as json_404
from nard_site.api.views import HealthView, SchemaView
from nard_site.metrics import metrics_view

api_v1: list[URLPattern | URLResolver] = [
    path("health/", HealthView.as_view(), name="health"),
    path("schema/", SchemaView.as_view(), name="schema"),
    # The split view serves Swagger UI's init script as a file of its own (?script), and
    # api/swagger_ui.html its style: no inline code under the page's CSP (nard_site/api/csp.py).
    path("docs/", SpectacularSwaggerSplitView.as_view(
        url_name="schema", template_name="api/swagger_ui.html"), name="docs"),
    path("accounts/", include("accounts.urls")),
    path("", include("ratings.urls")),
    path("", include("social.urls")),
    path("", include("tournaments.urls")),
    path("", include("live.urls")),
    path("", include("fairplay.urls")),
    path("", include("chat.urls")),  # before games.urls' router: matches/{id}/chat/
    path("", include("reviews.urls")),  # before games.urls' router: matches/{id}/analysis/
    path("", include("games.urls")),
    # Anything else under the API is a 404 in the error shape, whatever DEBUG says (and a
    # POST without its trailing slash is not redirected into a 500); [\s\S]: a path with
    # a newline in it (%0A) too.
    re_path(r"^[\s\S]*$", json_404),
]

urlpatterns = [
    path("", RedirectView.as_view(url="/play/", permanent=False)),
    path("play/", include("web.urls")),
    path("admin/", admin.site.urls),
    path("metrics", metrics_view, name="metrics"),  # METRICS_ALLOWED only (nard_site/metrics.py)
    path("api/v1/", include(api_v1)),
    # Third-party apps' OAuth 2 endpoints: authorize, token, revoke (accounts/oauth_urls.py).
    path("oauth/", include("accounts.oauth_urls")),
]

handler400 = "nard_site.api.errors.handler400"
handler403 = "nard_site.api.errors.handler403"
handler404 = "nard_site.api.errors.handler404"
handler500 = "nard_site.api.errors.handler500"
