from django.urls import path, re_path

from live import views

urlpatterns = [
    re_path(r"^matches/(?P<pk>\d+)/stream/$", views.MatchStreamView.as_view(),
            name="match-stream"),
    path("stream/", views.AccountStreamView.as_view(), name="account-stream"),
]
