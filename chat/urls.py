from django.urls import path, re_path

from chat import views

# Beside matches/{id}/ and accounts/users/{name}/ (games.urls, accounts.urls), as the
# review's are; tournaments/{id}/chat/ answers 404 until the tournaments register their
# kind of room (chat.rooms).
urlpatterns = [
    re_path(r"^matches/(?P<pk>\d+)/chat/$", views.MatchChatView.as_view(), name="match-chat"),
    re_path(r"^tournaments/(?P<pk>\d+)/chat/$", views.TournamentChatView.as_view(),
            name="tournament-chat"),
    re_path(r"^chat/(?P<pk>\d+)/report/$", views.LineReportView.as_view(),
            name="chat-line-report"),
    path("chat/options/", views.ChatOptionsView.as_view(), name="chat-options"),
    path("accounts/users/<str:username>/block/", views.BlockView.as_view(), name="user-block"),
    path("accounts/users/<str:username>/report/", views.PlayerReportView.as_view(),
         name="user-report"),
    path("moderation/reports/", views.ReportQueueView.as_view(), name="moderation-reports"),
    re_path(r"^moderation/reports/(?P<pk>\d+)/action/$", views.ReportActionView.as_view(),
            name="moderation-report-action"),
    path("moderation/panic/", views.PanicView.as_view(), name="moderation-panic"),
]
