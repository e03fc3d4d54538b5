"""Query filters of the match list: ?player=, ?status=, ?tournament=, ?mode=, ?rated=."""

import django_filters
from django.db.models import Q, QuerySet

from common.api.serializers import MAX_ID
from games.models import Match


class MatchFilter(django_filters.FilterSet):  # type: ignore[misc]  # django-filter: untyped
    player = django_filters.NumberFilter(
        method="filter_player",
        label="player id (either side)",
        min_value=1,
        max_value=MAX_ID,  # SQLite cannot bind a larger integer
    )
    status = django_filters.ChoiceFilter(choices=Match.Status.choices)
    tournament = django_filters.CharFilter(field_name="tournament_slot")
    mode = django_filters.ChoiceFilter(choices=Match.Mode.choices)
    rated = django_filters.BooleanFilter()

    class Meta:
        model = Match
        fields = ["player", "status", "tournament", "mode", "rated"]

    def filter_player(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        return queryset.filter(Q(player_one_id=value) | Q(player_two_id=value))
