"""Routes of the player web pages, mounted at /players/ with the namespace "players_web" (a
player's own page, /players/N/, is games.urls "web:player")."""

from django.urls import URLPattern, path

from players import views

app_name = "players_web"

urlpatterns: list[URLPattern] = [
    path("claim/", views.player_claim, name="claim"),
]
