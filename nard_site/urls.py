from django.contrib import admin
from django.http import HttpRequest, HttpResponse
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

# The site's icon, a die: browsers ask for /favicon.ico on every page without an icon of
# its own (the admin's), which was a 404 in the server's log and the console.
FAVICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
           b'<rect x="2" y="2" width="28" height="28" rx="6" fill="#f7efe0" stroke="#7a3e12" '
           b'stroke-width="2"/><g fill="#7a3e12"><circle cx="10" cy="10" r="3"/>'
           b'<circle cx="16" cy="16" r="3"/><circle cx="22" cy="22" r="3"/></g></svg>')


def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(FAVICON, content_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})


urlpatterns = [
    path("", RedirectView.as_view(url="/play/", permanent=False)),
    path("favicon.ico", favicon, name="favicon"),
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
