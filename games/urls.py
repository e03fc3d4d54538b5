"""Routes of the web pages, mounted at the site root with the namespace "web"."""

from django.urls import URLPattern, path

from games import views

app_name = "web"

urlpatterns: list[URLPattern] = [
    path("", views.home, name="home"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/live/", views.match_live, name="match-live"),
    path("matches/<int:pk>/state.json", views.match_state, name="match-state"),
    path("players/<int:pk>/", views.player_detail, name="player"),
]
