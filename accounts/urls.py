from django.urls import path

from . import views

urlpatterns = [
    path("register/", views.RegisterView.as_view(), name="register"),
    path("token/", views.TokenView.as_view(), name="token"),
    path("guest/", views.GuestView.as_view(), name="guest"),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/notifications/", views.NotificationsView.as_view(), name="notifications"),
    path("tokens/", views.PersonalTokensView.as_view(), name="personal-tokens"),
    path("tokens/<str:token_id>/", views.PersonalTokenView.as_view(), name="personal-token"),
    path("bot/upgrade/", views.BotUpgradeView.as_view(), name="bot-upgrade"),
    path("users/<str:username>/", views.PublicProfileView.as_view(), name="user-profile"),
]
