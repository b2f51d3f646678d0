from django.urls import path

from web import views

app_name = "web"

urlpatterns = [
    path("", views.play, name="play"),
    path("session/", views.SessionView.as_view(), name="session"),
]
