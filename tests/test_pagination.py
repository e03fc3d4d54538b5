"""The API's pagination counts no further than it must (common/api/pagination.py): exact up to
COUNT_CAP rows or to the page asked for, ``count_capped`` beyond, and ``next`` whenever a row
follows the page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from common.api import pagination
from tests.games.factories import MatchFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(pagination, "COUNT_CAP", 5)
    monkeypatch.setattr(pagination.CappedPageNumberPagination, "page_size", 2)
    MatchFactory.create_batch(12, is_public=True)


def page(number: int) -> dict:
    response = APIClient().get(reverse("games:match-list"), {"page": number})
    assert response.status_code == 200, response.content
    return response.json()


def test_a_long_list_counts_up_to_the_cap_and_pages_on(small_pages):
    first = page(1)
    assert (first["count"], first["count_capped"], len(first["results"])) == (5, True, 2)
    assert first["next"] and first["previous"] is None
    third = page(3)  # the cap still covers the page: counted to 6, more follow
    assert (third["count"], third["count_capped"]) == (6, True) and third["next"]
    last = page(6)  # past the cap: counted exactly to the end of the list
    assert (last["count"], last["count_capped"], last["next"]) == (12, False, None)
    assert len(last["results"]) == 2
    seen = set()
    for number in range(1, 7):
        seen |= {row["id"] for row in page(number)["results"]}
    assert len(seen) == 12  # every row on exactly one page


def test_a_short_list_has_its_exact_count():
    MatchFactory.create_batch(3, is_public=True)
    body = page(1)
    assert (body["count"], body["count_capped"], body["next"]) == (3, False, None)


def test_a_page_past_the_end_is_a_404_and_odd_numbers_the_first_page(small_pages):
    response = APIClient().get(reverse("games:match-list"), {"page": 99})
    assert response.status_code == 404
    response = APIClient().get(reverse("games:match-list"), {"page": "²"})
    assert response.status_code == 404  # DRF: not a page number
