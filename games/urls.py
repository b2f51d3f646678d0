from django.urls import path
from rest_framework.routers import SimpleRouter

from games import views

router = SimpleRouter()
router.register("matches", views.MatchViewSet, basename="match")

urlpatterns = [
    path("analysis/legal-plays/", views.LegalPlaysView.as_view(), name="legal-plays"),
    *router.urls,
]
