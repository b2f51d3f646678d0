from django.urls import path
from rest_framework.routers import SimpleRouter

from games import analysis_views, computer_views, views

router = SimpleRouter()
router.register("matches", views.MatchViewSet, basename="match")

urlpatterns = [
    path("analysis/legal-plays/", views.LegalPlaysView.as_view(), name="legal-plays"),
    path("computer/", computer_views.ComputerLevelsView.as_view(), name="computer-levels"),
    path("matches/<int:pk>/analysis/", analysis_views.MatchAnalysisView.as_view(),
         name="match-analysis"),
    *router.urls,
]
