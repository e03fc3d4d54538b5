"""What the open desk follows (``/tournaments/N/desk/state/``, docs/decisions.md D103): its
version changes with a report made from a phone, not only with results; it answers 304 while
nothing changed, counts the reports waiting, and is for the organisers only. The Results tab's
fragment is the tab alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services as games_services
from tests.tournaments.factories import UserFactory
from tests.web.test_desk_play import row, running

pytestmark = pytest.mark.django_db


def state(client: Client, pk: int, etag: str | None = None) -> Any:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(reverse("tournaments_web:desk-state", kwargs={"pk": pk}), **headers)


def test_a_report_changes_the_desks_version_and_its_badge() -> None:
    cup = running(4, format="single_elimination")
    client = Client()
    client.force_login(cup.created_by)
    first = state(client, cup.pk)
    assert first.status_code == 200 and first.json()["waiting"] == 0
    assert state(client, cup.pk, first["ETag"]).status_code == 304

    match = row(cup, "W1-1")
    games_services.result_report(
        match=match.match, user=match.entry_one.player.user, scope="match", score_one=3,
        score_two=1,
    )  # fmt: skip
    second = state(client, cup.pk, first["ETag"])
    assert second.status_code == 200 and second.json()["waiting"] == 1
    assert second["ETag"] != first["ETag"]
    page = client.get(reverse("tournaments_web:desk", kwargs={"pk": cup.pk}), {"tab": "rounds"})
    assert b'data-desk-badge title="reported results waiting">' in page.content


def test_the_fragment_is_the_results_tab_alone_and_the_state_for_organisers_only() -> None:
    cup = running(4, format="single_elimination")
    client = Client()
    client.force_login(cup.created_by)
    url = reverse("tournaments_web:desk", kwargs={"pk": cup.pk})
    fragment = client.get(url, {"tab": "results", "fragment": "results"}).content.decode()
    assert 'class="card desk-open"' in fragment and "<html" not in fragment

    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))
    assert state(stranger, cup.pk).status_code == 403
    assert state(Client(), cup.pk).status_code == 403
