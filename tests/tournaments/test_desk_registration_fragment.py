"""The Registration tab's fragment (``?tab=registration&fragment=registration``), which the open
desk swaps in after each of the tab's actions instead of reloading (docs/decisions.md D149): the
tab alone, with what the desk's header shows as of now (status, public link, socket), for the
organisers only; the page without ``fragment`` stays the whole desk, which a swap that cannot
fetch its fragment loads instead. After a start the Results tab's fragment has round 1."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FRAGMENT = {"tab": "registration", "fragment": "registration"}


@pytest.fixture
def draft(organiser) -> Tournament:
    return services.tournament_create(
        user=organiser,
        name="Club night",
        format="single_elimination",
        match_length=3,
        match_mode="over_the_board",
    )


@pytest.fixture
def desk(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def url(tournament: Tournament) -> str:
    return reverse("tournaments_web:desk", kwargs={"pk": tournament.pk})


def button(html: str, label: str) -> str:
    """The opening tag of the button reading ``label``."""
    found = re.search(r"<button [^>]*>" + re.escape(label) + "</button>", html)
    assert found, f"no button {label!r}"
    return found.group(0)


def test_the_fragment_is_the_registration_tab_alone(desk, draft) -> None:
    response = desk.get(url(draft), FRAGMENT)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and "desk-tabs" not in html
    assert 'id="desk-registration"' in html and "0 players entered" in html
    assert 'data-status-now="draft"' in html and 'data-socket-url=""' in html
    assert "not public until registration opens" in html
    opening = button(html, "Open registration")
    assert 'data-next="tab" data-focus="#add-players input[type=search]"' in opening
    start = button(html, "Start the tournament")
    assert 'data-next="tab"' in start and 'data-tab="results"' in start
    # The page itself is the whole desk: the swap's fallback, and a reload.
    page = desk.get(url(draft), {"tab": "registration"}).content.decode()
    assert "<html" in page and 'data-desk="registration"' in page and "desk-tabs" in page
    assert '<span data-desk-public><span class="muted">not public' in page


def test_the_fragment_follows_the_actions(desk, draft, organiser, settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    services.registration_open(tournament=draft, user=organiser)
    html = desk.get(url(draft), FRAGMENT).content.decode()
    assert "Registration is open." in html and 'data-status-now="registration"' in html
    assert f'data-socket-url="/ws/tournaments/{draft.pk}/"' in html
    assert f'<template data-public-now><a href="/tournaments/{draft.pk}/">Public page</a>' in html
    for rating in (1500, 1700, 1600, 1400):
        player = PlayerFactory(display_name=f"Rated {rating}", rating=rating)
        services.entry_register(tournament=draft, user=organiser, player=player)
    services.entries_seed(tournament=draft, user=organiser, method="rating")
    html = desk.get(url(draft), FRAGMENT).content.decode()
    assert "4 players entered" in html
    names = re.findall(r'<td class="name">(Rated \d+)', html)
    assert names == ["Rated 1700", "Rated 1600", "Rated 1500", "Rated 1400"]
    assert 'data-next="tab" data-focus="[data-start]"' in button(html, "By rating")

    services.tournament_start(tournament=draft, user=organiser)
    results = desk.get(url(draft), {"tab": "results", "fragment": "results"}).content.decode()
    assert "<html" not in results and 'data-status-now="running"' in results
    assert results.count(" data-score ") == 2  # the two semi-finals' score forms
    assert "Round 1" in results


def test_a_fragment_of_another_tab_than_asked_is_the_whole_page(desk, draft) -> None:
    html = desk.get(url(draft), {"tab": "registration", "fragment": "results"}).content.decode()
    assert "<html" in html
    html = desk.get(url(draft), {"tab": "settings", "fragment": "registration"}).content.decode()
    assert "<html" in html


def test_the_fragment_is_for_the_organisers_only(draft) -> None:
    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))
    assert stranger.get(url(draft), FRAGMENT).status_code == 403
    anonymous = Client().get(url(draft), FRAGMENT)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
