"""Admin of clubs and players (audited writes) and their per-variant ratings (read-only: the
ratings service computes them)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from common.admin import AuditedAdmin, ReadOnlyAdmin, RoundedRatings
from players.models import Club, Player, VariantRating
from players.selectors import account


@admin.register(Club)
class ClubAdmin(AuditedAdmin[Club]):
    list_display = ["name", "city", "country", "player_count"]
    list_filter = ["country"]
    search_fields = ["name", "city"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).annotate(player_count=Count("players"))

    @admin.display(description=gettext_lazy("players"), ordering="player_count")
    def player_count(self, club: Club) -> int:
        return getattr(club, "player_count", 0)


class VariantRatingInline(RoundedRatings, admin.TabularInline[VariantRating, Player]):
    model = VariantRating
    readonly_fields = ["variant", "rating_shown", "experience", "games"]
    fields = [*readonly_fields]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(RoundedRatings, AuditedAdmin[Player]):
    list_display = ["display_name", "user", "club", "country", "rating_shown", "rating_games"]
    # "user: empty" lists the players without an account.
    list_filter = ["club", "country", ("user", admin.EmptyFieldListFilter)]
    search_fields = ["display_name", "user__username"]
    autocomplete_fields = ["user", "club"]
    list_select_related = ["user", "club"]
    # Ratings are recomputed from every result by games.services.ratings.
    exclude = ["rating"]
    readonly_fields = ["rating_shown", "rating_games", "created_at", "created_by"]
    inlines = [VariantRatingInline]

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = account(request.user)
        super().save_model(request, obj, form, change)


@admin.register(VariantRating)
class VariantRatingAdmin(RoundedRatings, ReadOnlyAdmin[VariantRating]):
    list_display = ["player", "variant", "rating_shown", "experience", "games"]
    fields = ["player", "variant", "rating_shown", "experience", "games"]
    readonly_fields = ["rating_shown"]
    list_filter = ["variant"]
    search_fields = ["player__display_name"]
    list_select_related = ["player"]
