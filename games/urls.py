"""Routes of the match and player pages and of the rules pages (games/rules_pages.py), mounted
at the site root in the namespace "web" that config/urls.py builds with the home page
(tournaments.urls.home_urlpatterns)."""

from django.urls import URLPattern, path

from games import report_code_views, rules_pages, views
from games.web import lobby, notifications

urlpatterns: list[URLPattern] = [
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/live/", views.match_live, name="match-live"),
    path("matches/<int:pk>/state.json", views.match_state, name="match-state"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    # A result slip's code (games/report_code_views.py): short, to be typed from paper.
    path("r/<str:code>/", report_code_views.report_code, name="report-code"),
    path("rules/", rules_pages.rules_index, name="rules"),
    path("rules/presets/", rules_pages.rules_presets, name="rules-presets"),
    path("rules/faq/", rules_pages.rules_faq, name="rules-faq"),
    path("rules/<slug:game>/", rules_pages.rules_game, name="rules-game"),
]

# The lobby and challenges (games/web/lobby.py).
urlpatterns += [
    path("lobby/", lobby.lobby_page, name="lobby"),
    path("lobby/live/", lobby.lobby_live, name="lobby-live"),
    path("lobby/ping.json", lobby.ping, name="lobby-ping"),
    path("lobby/challenges/", lobby.challenge_post, name="challenge-post"),
    path("lobby/practice/", lobby.practice_start, name="practice-start"),
    path("lobby/challenges/<int:pk>/take/", lobby.challenge_take, name="challenge-take"),
    path(
        "lobby/challenges/<int:pk>/withdraw/", lobby.challenge_withdraw, name="challenge-withdraw"
    ),
    path(
        "lobby/matches/<int:pk>/accept/",
        lobby.match_answer,
        {"answer": "accept"},
        name="challenge-accept",
    ),
    path(
        "lobby/matches/<int:pk>/decline/",
        lobby.match_answer,
        {"answer": "decline"},
        name="challenge-decline",
    ),
    path("players/<int:pk>/challenge/", lobby.challenge_player, name="player-challenge"),
]

# A signed-in user's notifications (games/web/notifications.py).
urlpatterns += [
    path("notifications/", notifications.notifications_page, name="notifications"),
    path("notifications/read/", notifications.notifications_read, name="notifications-read"),
    path("notifications/<int:pk>/", notifications.notification_open, name="notification-open"),
]
