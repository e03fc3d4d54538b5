"""Admin registrations for players and clubs."""

from django.contrib import admin

from tournaments.models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "country"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "club", "country", "rating"]
    search_fields = ["display_name", "user__username"]
