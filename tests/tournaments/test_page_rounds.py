"""The tournament page of a large league (issue 19, docs/decisions.md D59): its rounds come in
pages of at most PAGE_MATCHES pairings, opening on the first unfinished round, and the page's
queries do not grow with the matches."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import PlayerFactory
from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.web import pages

pytestmark = pytest.mark.django_db


def round_robin(organiser, size: int) -> Tournament:
    players = [PlayerFactory(rating=1500.0 + i) for i in range(size)]
    tournament = services.tournament_create(user=organiser, name="League", format="round_robin")
    services.registration_open(tournament=tournament, user=organiser)
    services.entries_register_many(tournament=tournament, user=organiser, players=players)
    return services.tournament_start(tournament=tournament, user=organiser)


def shown_rounds(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-round="(\d+)"', html)]


def test_a_large_round_robin_shows_its_rounds_a_page_at_a_time(organiser, monkeypatch):
    monkeypatch.setattr(pages, "PAGE_MATCHES", 8)
    tournament = round_robin(organiser, 8)  # 7 rounds of 4 matches: 2 rounds a page
    client = Client()
    url = reverse("tournaments_web:tournament", kwargs={"pk": tournament.pk})
    html = client.get(url).content.decode()
    assert shown_rounds(html) == [1, 2]
    assert "Rounds 3–4" in html and 'href="?rounds=4#rounds"' in html
    assert "?rounds=1" in html  # the live fragment keeps the page
    assert shown_rounds(client.get(url, {"rounds": 4}).content.decode()) == [7]
    assert shown_rounds(client.get(url, {"rounds": 99}).content.decode()) == [1, 2]
    Round.objects.filter(tournament=tournament, number__lte=4).update(is_finished=True)
    assert shown_rounds(client.get(url).content.decode()) == [5, 6]  # the first unfinished
    live = reverse("tournaments_web:tournament-live", kwargs={"pk": tournament.pk})
    assert shown_rounds(client.get(live, {"rounds": 2}).content.decode()) == [3, 4]


def test_a_small_round_robin_shows_every_round_without_pages(organiser):
    tournament = round_robin(organiser, 4)
    html = Client().get(reverse("tournaments_web:tournament", kwargs={"pk": tournament.pk}))
    assert shown_rounds(html.content.decode()) == [1, 2, 3]
    assert "data-round-pages" not in html.content.decode()


def test_the_page_of_a_large_round_robin_takes_no_query_per_match(
    organiser, monkeypatch, django_assert_max_num_queries
):
    monkeypatch.setattr(pages, "PAGE_MATCHES", 8)
    client = Client()
    counts = []
    for size in (6, 10):
        tournament = round_robin(organiser, size)
        url = reverse("tournaments_web:tournament", kwargs={"pk": tournament.pk})
        with django_assert_max_num_queries(20) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
