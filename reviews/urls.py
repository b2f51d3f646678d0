from django.urls import path

from reviews import views

# Beside matches/{id}/ and accounts/users/{name}/ (games.urls, accounts.urls): the same
# prefixes and names as when the review lived in games.
urlpatterns = [
    path("accounts/users/<str:username>/review/", views.PlayerReviewView.as_view(),
         name="user-review"),
    path("matches/<int:pk>/analysis/", views.MatchAnalysisView.as_view(),
         name="match-analysis"),
]
