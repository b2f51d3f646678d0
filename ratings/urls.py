from django.urls import path

from ratings import views

urlpatterns = [
    path("leaderboards/<str:rules>/", views.LeaderboardView.as_view(), name="leaderboard"),
    path("accounts/users/<str:username>/ratings/", views.UserRatingsView.as_view(),
         name="user-ratings"),
    path("pairing/", views.PairingView.as_view(), name="pairing"),
]
