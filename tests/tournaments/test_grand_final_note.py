"""Before a double elimination's grand final is played, the bracket and the desk say that a
reset match follows if the losers' bracket player wins it (docs/decisions.md D32)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import higher_seed, match_win, open_matches, tournament_running


@pytest.mark.django_db
def test_the_grand_final_warns_of_the_reset_before_it_is_played(org_api, organiser, players):
    pk = tournament_running(org_api, players[:4], format="double_elimination")["id"]
    ready = open_matches(org_api, pk)
    while not any(m["key"] == "GF" for m in ready):
        for match in ready:
            match_win(org_api, match["match_id"], higher_seed(match))
        ready = open_matches(org_api, pk)
    final = next(m for m in ready if m["key"] == "GF")
    challenger = final["players"][1]["name"]
    note = f"If {challenger}, from the losers&#x27; bracket, wins this final, a reset match"

    page = Client().get(reverse("tournaments_web:tournament", args=[pk])).content.decode()
    assert page.count(note) == 1

    desk = Client()
    desk.force_login(organiser)
    results = desk.get(f"/tournaments/{pk}/desk/?tab=results").content.decode()
    assert note in results.split('data-key="GF"', 1)[1].split("</li>", 1)[0]

    match_win(org_api, final["match_id"], final["players"][0]["player"])  # no reset needed
    page = Client().get(reverse("tournaments_web:tournament", args=[pk])).content.decode()
    assert "a reset match" not in page
