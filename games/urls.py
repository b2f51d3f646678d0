from django.urls import path
from rest_framework.routers import SimpleRouter

from games import computer_views, rules_views, views

router = SimpleRouter()
router.register("matches", views.MatchViewSet, basename="match")

urlpatterns = [
    path("analysis/legal-plays/", views.LegalPlaysView.as_view(), name="legal-plays"),
    # Beside accounts/users/{name}/ (accounts.urls): the dice are the games' business.
    path("accounts/users/<str:username>/dice/", views.PlayerDiceView.as_view(),
         name="user-dice"),
    path("computer/", computer_views.ComputerLevelsView.as_view(), name="computer-levels"),
    path("rules/", rules_views.RuleSetsView.as_view(), name="rule-sets"),
    path("rules/<str:name>/", rules_views.RuleSetView.as_view(), name="rule-set"),
    *router.urls,
]
