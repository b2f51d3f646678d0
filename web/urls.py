from django.urls import path
from django.views.i18n import JavaScriptCatalog

from web import views

app_name = "web"

urlpatterns = [
    path("", views.play, name="play"),
    path("verify/", views.verify, name="verify"),
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/<int:pk>/", views.tournaments, name="tournament"),
    path("session/", views.SessionView.as_view(), name="session"),
    # The JS modules' texts (djangojs.po of web/locale) in the page's language.
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["web"], domain="djangojs"),
         name="jsi18n"),
]
