from django.urls import path

from . import views

urlpatterns = [
    path("register/", views.RegisterView.as_view(), name="register"),
    path("token/", views.TokenView.as_view(), name="token"),
    path("guest/", views.GuestView.as_view(), name="guest"),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/notifications/", views.NotificationsView.as_view(), name="notifications"),
    path("users/<str:username>/", views.PublicProfileView.as_view(), name="user-profile"),
]
