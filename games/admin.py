"""Admin registrations for matches, games, turns and result reports (turns are read-only)."""

from django.contrib import admin
from django.http import HttpRequest

from games.models import Game, Match, ResultReport, Turn


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "player_one", "player_two", "mode", "status", "score_one", "score_two"]
    list_filter = ["status", "mode"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "match", "number", "variant", "status", "ply"]
    list_filter = ["variant", "status"]
    exclude = ["seed"]  # secret until the game is over; the dice-proof endpoint reveals it


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    """The turn log is append-only: the admin may look, never change."""

    list_display = ["game", "ply", "side", "kind", "dice", "moves"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(ResultReport)
class ResultReportAdmin(admin.ModelAdmin):
    list_display = ["id", "match", "scope", "game_number", "winner", "kind", "points", "status"]
    list_filter = ["status"]
