"""Routes of the tournament web pages, mounted at /tournaments/ with the namespace
"tournaments_web"."""

from django.urls import URLPattern, path

from tournaments import desk, views

app_name = "tournaments_web"

urlpatterns: list[URLPattern] = [
    path("", views.tournament_index, name="index"),
    path("new/", desk.tournament_new, name="new"),
    path("<int:pk>/", views.tournament_detail, name="tournament"),
    path("<int:pk>/live/", views.tournament_live, name="tournament-live"),
    path("<int:pk>/state.json", views.tournament_state, name="tournament-state"),
    path("<int:pk>/desk/", desk.tournament_desk, name="desk"),
    path("<int:pk>/desk/state/", desk.desk_state, name="desk-state"),
    path("<int:pk>/desk/print/round/<int:number>/", desk.round_print, name="desk-print-round"),
]

# The home page lists matches and tournaments: config/urls.py mounts it at the site root in the
# namespace "web", with games.urls.
home_urlpatterns: list[URLPattern] = [
    path("", views.home, name="home"),
]
