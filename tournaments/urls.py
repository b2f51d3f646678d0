from django.urls import path, re_path

from tournaments import views

ID = r"^tournaments/(?P<pk>\d{1,18})/"

urlpatterns = [
    path("tournaments/", views.TournamentsView.as_view(), name="tournaments"),
    re_path(ID + r"$", views.TournamentView.as_view(), name="tournament"),
    re_path(ID + r"join/$", views.JoinView.as_view(), name="tournament-join"),
    re_path(ID + r"withdraw/$", views.WithdrawView.as_view(), name="tournament-withdraw"),
    re_path(ID + r"pause/$", views.PauseView.as_view(), name="tournament-pause"),
    re_path(ID + r"start/$", views.StartView.as_view(), name="tournament-start"),
    re_path(ID + r"events/$", views.TournamentEventsView.as_view(), name="tournament-events"),
    re_path(ID + r"stream/$", views.TournamentStreamView.as_view(), name="tournament-stream"),
]
