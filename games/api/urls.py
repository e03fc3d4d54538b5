"""Routes of the games API, mounted under /api/v1/ with the namespace "games"."""

from django.urls import URLPattern, URLResolver, path

from games.api import views

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = [
    path("matches/", views.MatchListCreateView.as_view(), name="match-list"),
    path("matches/import/", views.MatchImportView.as_view(), name="match-import"),
    path("matches/<int:pk>/", views.MatchDetailView.as_view(), name="match-detail"),
    path("matches/<int:pk>/start/", views.MatchStartView.as_view(), name="match-start"),
    path("matches/<int:pk>/accept/", views.MatchAcceptView.as_view(), name="match-accept"),
    path("matches/<int:pk>/decline/", views.MatchDeclineView.as_view(), name="match-decline"),
    path("matches/<int:pk>/forfeit/", views.MatchForfeitView.as_view(), name="match-forfeit"),
    path("matches/<int:pk>/claim/", views.MatchClaimView.as_view(), name="match-claim"),
    path("matches/<int:pk>/resign/", views.MatchResignView.as_view(), name="match-resign"),
    path("matches/<int:pk>/export/", views.MatchExportView.as_view(), name="match-export"),
    path("matches/<int:pk>/chances/", views.MatchChancesView.as_view(), name="match-chances"),
    path("matches/<int:pk>/hint/", views.MatchHintView.as_view(), name="match-hint"),
    path("matches/<int:pk>/review/", views.MatchReviewView.as_view(), name="match-review"),
    path("matches/<int:pk>/results/", views.ResultListCreateView.as_view(), name="result-list"),
    path(
        "matches/<int:pk>/results/<int:rid>/confirm/",
        views.ResultConfirmView.as_view(),
        name="result-confirm",
    ),
    path(
        "matches/<int:pk>/results/<int:rid>/dispute/",
        views.ResultDisputeView.as_view(),
        name="result-dispute",
    ),
    path(
        "matches/<int:pk>/results/<int:rid>/override/",
        views.ResultOverrideView.as_view(),
        name="result-override",
    ),
    path("games/<int:pk>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:pk>/roll/", views.DiceRollView.as_view(), name="dice-roll"),
    path("games/<int:pk>/plays/", views.PlaySubmitView.as_view(), name="play-submit"),
    path("games/<int:pk>/resign/", views.GameResignView.as_view(), name="game-resign"),
    path("games/<int:pk>/double/", views.CubeDoubleView.as_view(), name="cube-double"),
    path("games/<int:pk>/take/", views.CubeTakeView.as_view(), name="cube-take"),
    path("games/<int:pk>/drop/", views.CubeDropView.as_view(), name="cube-drop"),
    path("games/<int:pk>/hint/", views.GameHintView.as_view(), name="game-hint"),
    path("practice/", views.PracticeCreateView.as_view(), name="practice-create"),
    path("games/<int:pk>/dice-proof/", views.DiceProofView.as_view(), name="dice-proof"),
    path("me/", views.MeView.as_view(), name="me"),
    path("notifications/", views.NotificationListView.as_view(), name="notification-list"),
    path("notifications/read/", views.NotificationsReadView.as_view(), name="notifications-read"),
    path("challenges/", views.OpenChallengeListCreateView.as_view(), name="challenge-list"),
    path("challenges/<int:pk>/", views.OpenChallengeDetailView.as_view(), name="challenge-detail"),
    path("challenges/<int:pk>/take/", views.OpenChallengeTakeView.as_view(), name="challenge-take"),
    path(
        "challenges/<int:pk>/withdraw/",
        views.OpenChallengeWithdrawView.as_view(),
        name="challenge-withdraw",
    ),
]
