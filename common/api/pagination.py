"""The API's pagination: pages of 50 (``?page=N``), with a count that stops early.

An exact count of a list reads every row the list could show: the public match list of a club
with 100,000 games counted 33,000 matches on every request (bench/scale.py). The count is exact
up to COUNT_CAP rows, or to one row past the page asked for when that is further; beyond, it
says that many and ``count_capped`` is true. ``next`` is there whenever a row follows the page,
so a client pages on as before, and the first pages cost the same however long the list is.
"""

from __future__ import annotations

from functools import cached_property, partial
from typing import Any

from django.core.paginator import Paginator
from django.db.models import QuerySet
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

COUNT_CAP = 1_000


class CappedPaginator(Paginator[Any]):
    """Django's paginator whose count reads at most ``cap`` + 1 rows."""

    def __init__(self, object_list: Any, per_page: int, *, cap: int = COUNT_CAP) -> None:
        super().__init__(object_list, per_page)
        self.cap = cap

    @cached_property
    def count(self) -> int:
        items: Any = self.object_list
        if isinstance(items, QuerySet):
            # the rows' keys only: no ordering, no annotation computed for rows only counted
            return int(items.order_by().values("pk")[: self.cap + 1].count())
        return len(items)


class CappedPageNumberPagination(PageNumberPagination):
    django_paginator_class = CappedPaginator
    cap = COUNT_CAP

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        size = self.get_page_size(request) or 1
        number = request.query_params.get(self.page_query_param, "")
        asked = int(number) if number.isascii() and number.isdigit() else 1
        self.cap = max(COUNT_CAP, min(asked, 10**9 // size) * size)
        self.django_paginator_class = partial(CappedPaginator, cap=self.cap)  # type: ignore[assignment]
        return super().paginate_queryset(queryset, request, view)

    def get_paginated_response(self, data: Any) -> Response:
        assert self.page is not None
        total = self.page.paginator.count
        return Response(
            {
                "count": min(total, self.cap),
                "count_capped": total > self.cap,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        response = super().get_paginated_response_schema(schema)
        response["properties"]["count"]["description"] = (
            f"the number of items, exact up to {COUNT_CAP:,} (or to the page asked for)"
        )
        response["properties"]["count_capped"] = {
            "type": "boolean",
            "description": "true when there are more items than ``count`` says",
        }
        return response
