"""Query filters of the player list: ?search=, ?club=, ?has_account=."""

import django_filters
from django.db.models import QuerySet

from common.api.serializers import MAX_ID
from players.models import Player


class PlayerFilter(django_filters.FilterSet):  # type: ignore[misc]  # django-filter: untyped
    search = django_filters.CharFilter(
        field_name="display_name",
        lookup_expr="icontains",
        max_length=80,
        label="part of the display name, letter case ignored",
    )
    club = django_filters.NumberFilter(
        field_name="club_id",
        label="club id",
        min_value=1,
        max_value=MAX_ID,  # SQLite cannot bind a larger integer
    )
    has_account = django_filters.BooleanFilter(
        method="filter_has_account", label="whether the player has a user account"
    )

    class Meta:
        model = Player
        fields = ["search", "club", "has_account"]

    def filter_has_account(
        self, queryset: QuerySet[Player], name: str, value: bool
    ) -> QuerySet[Player]:
        return queryset.filter(user__isnull=not value)
