from django.urls import path

from fairplay import views

urlpatterns = [
    path("moderation/fairplay/", views.FairplayQueueView.as_view(), name="moderation-fairplay"),
    path("moderation/fairplay/<str:username>/decision/", views.FairplayDecisionView.as_view(),
         name="moderation-fairplay-decision"),
    path("accounts/me/fairplay/appeal/", views.FairplayAppealView.as_view(),
         name="fairplay-appeal"),
]
