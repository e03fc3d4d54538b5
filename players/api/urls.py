"""Routes of the players API, mounted under /api/v1/ with the namespace "players"."""

from django.urls import URLPattern, URLResolver, path

from players.api import views

app_name = "players"

urlpatterns: list[URLPattern | URLResolver] = [
    path("players/", views.PlayerListCreateView.as_view(), name="player-list"),
    path("players/bulk/", views.PlayerBulkCreateView.as_view(), name="player-bulk"),
    path("players/claim/", views.PlayerClaimView.as_view(), name="player-claim"),
    path("players/<int:pk>/", views.PlayerDetailView.as_view(), name="player-detail"),
    path("players/<int:pk>/claim-code/", views.ClaimCodeCreateView.as_view(), name="claim-code"),
]
