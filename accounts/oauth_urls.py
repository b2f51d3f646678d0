"""``/oauth/``: the OAuth 2 endpoints of django-oauth-toolkit that third-party apps use
(authorize, token, revoke) and the log-in before authorizing (``accounts.oauth``)."""

from django.urls import path
from oauth2_provider import views as oauth

from . import oauth as accounts_oauth

app_name = "oauth2_provider"  # the toolkit's views and templates name their URLs so

urlpatterns = [
    path("authorize/", oauth.AuthorizationView.as_view(), name="authorize"),
    path("token/", oauth.TokenView.as_view(), name="token"),
    path("revoke/", oauth.RevokeTokenView.as_view(), name="revoke-token"),
    path("login/", accounts_oauth.LoginView.as_view(), name="login"),
]
