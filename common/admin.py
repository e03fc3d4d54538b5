"""Admin bases every app's admin uses: audited writes, read-only computed rows, and ratings
shown rounded."""

from __future__ import annotations

from typing import Any, TypeVar

from auditlog.context import set_actor
from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext_lazy

from common.errors import GameServiceError

_M = TypeVar("_M", bound=Model)


class AuditedAdmin(admin.ModelAdmin[_M]):
    """Rows the admin writes itself are logged under the signed-in user, as the services do
    with ``set_actor``; a service error (``service_errors``) becomes a message instead of a
    500."""

    service_errors: tuple[type[Exception], ...] = (GameServiceError,)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except self.service_errors as error:  # the transaction of the form is rolled back
            self.message_user(request, str(error), messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        with set_actor(request.user):
            super().save_model(request, obj, form, change)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        with set_actor(request.user):
            super().save_related(request, form, formsets, change)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with set_actor(request.user):
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[_M]) -> None:
        with set_actor(request.user):
            super().delete_queryset(request, queryset)


class ReadOnlyAdmin(admin.ModelAdmin[_M]):
    """Rows computed by the services: the admin may look, never change."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class RoundedRatings:
    """``rating_shown`` and ``change_shown``, to name in ``list_display``, ``fields`` and
    ``readonly_fields`` instead of the stored floats, which the admin would print with all
    their decimals (1482.6794919243112): one decimal, as the rows' own names give them."""

    @admin.display(description=gettext_lazy("rating"), ordering="rating")
    def rating_shown(self, row: Any) -> str:
        return floatformat(row.rating, 1)

    @admin.display(description=gettext_lazy("change"), ordering="change")
    def change_shown(self, row: Any) -> str:
        return ("+" if row.change > 0 else "") + floatformat(row.change, 1)
