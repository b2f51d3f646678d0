from django.urls import path

from social import views

urlpatterns = [
    path("accounts/users/<str:username>/follow/", views.FollowView.as_view(), name="follow"),
    path("accounts/me/following/", views.FollowingView.as_view(), name="following"),
]
