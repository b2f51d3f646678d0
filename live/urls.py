from django.urls import path, re_path

from live import views

urlpatterns = [
    re_path(r"^matches/(?P<pk>\d+)/stream/$", views.MatchStreamView.as_view(),
            name="match-stream"),
    re_path(r"^matches/(?P<pk>\d+)/events/$", views.MatchEventsView.as_view(),
            name="match-events"),
    path("stream/", views.AccountStreamView.as_view(), name="account-stream"),
]
