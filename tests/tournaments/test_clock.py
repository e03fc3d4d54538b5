"""A tournament's time rules: its clock and claim_after_hours are settings checked like the
others, passed to every match it creates; a time-out is recorded as a match played and lost, a
claim as a forfeit."""

import pytest
from django.test import Client
from django.urls import reverse

from games import selectors as games_selectors
from games import services as games_services
from games import tasks as games_tasks
from games.models import Match
from tests.tournaments.helpers import tournament_running
from tournaments.models import Standing, Tournament, TournamentMatch

pytestmark = pytest.mark.django_db

STANDARD = {"preset": "standard", "per_point_seconds": 120, "delay_seconds": 12}


def create(api, status=201, **fields):
    body = {"name": "Blitz cup", "format": "single_elimination", "match_length": 3, **fields}
    return api.post("tournaments:tournament-list", body, status=status)


def patch(api, pk, data, status):
    response = api.client.patch(
        reverse("tournaments:tournament-detail", args=[pk]), data, format="json"
    )
    assert response.status_code == status, response.content
    return response.json()


def test_the_clock_is_stored_as_its_settings(org_api):
    tournament = create(org_api, match_mode="online", clock={"preset": "standard"})
    assert tournament["clock"] == STANDARD
    assert tournament["claim_after_hours"] == 24
    custom = create(org_api, match_mode="online", clock={"preset": "relaxed", "delay_seconds": 5})
    assert custom["clock"] == {"per_point_seconds": 180, "delay_seconds": 5}
    assert create(org_api)["clock"] == {}  # none by default


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"clock": {"preset": "standard"}}, "a clock needs online matches"),
        ({"match_mode": "online", "clock": {"preset": "bullet"}}, "not a valid choice"),
        ({"match_mode": "online", "clock": {"per_point_seconds": 5000}}, "less than or equal"),
        ({"match_mode": "online", "clock": {"delay_seconds": 3}}, "per_point_seconds is missing"),
        ({"claim_after_hours": 0}, "greater than or equal to 1"),
        ({"claim_after_hours": 721}, "less than or equal to 720"),
    ],
)
def test_bad_time_settings_are_refused_with_a_400(org_api, fields, words):
    assert words in str(create(org_api, status=400, **fields))


def test_an_edit_to_over_the_board_is_checked_against_the_stored_clock(org_api):
    pk = create(org_api, match_mode="online", clock={"preset": "standard"})["id"]
    answer = patch(org_api, pk, {"match_mode": "over_the_board"}, 400)
    assert "a clock needs online matches" in answer["detail"]
    assert patch(org_api, pk, {"clock": None}, 200)["clock"] == {}
    patch(org_api, pk, {"match_mode": "over_the_board"}, 200)


def test_every_match_of_the_tournament_gets_its_clock_and_claim_time(org_api, players):
    pk = tournament_running(
        org_api,
        players[:4],
        format="single_elimination",
        match_length=3,
        match_mode="online",
        clock={"preset": "relaxed"},
        claim_after_hours=6,
    )["id"]
    matches = Match.objects.filter(tournament_slot=f"tournament-{pk}")
    assert matches.count() == 2
    for match in matches:
        assert (match.clock_bank_seconds, match.clock_delay_seconds) == (540, 15)
        assert match.clock_one_ms == match.clock_two_ms == 540_000
        assert match.claim_after_hours == 6
        assert match.clock_running == ""  # not started yet: the clock waits for the start


def started_rows(org_api, players, organiser, **fields):
    pk = tournament_running(
        org_api, players[:4], format="single_elimination", match_mode="online", **fields
    )["id"]
    rows = list(TournamentMatch.objects.filter(tournament_id=pk, round=1).order_by("index"))
    for row in rows:
        games_services.match_start(match=row.match, user=organiser)
    return pk, rows


def test_a_time_out_is_recorded_as_a_match_played_and_lost(
    org_api, players, organiser, fake_clock, django_capture_on_commit_callbacks
):
    pk, rows = started_rows(org_api, players, organiser, clock={"preset": "standard"})
    row = rows[0]
    match = Match.objects.get(pk=row.match_id)
    loser = games_selectors.player_to_move(games_selectors.current_game(match))
    fake_clock.advance(12 + 120 * 5)  # the match_length is 1: a 120 s bank
    with django_capture_on_commit_callbacks(execute=True):
        assert games_tasks.match_time_out(match.pk) is True
    row.refresh_from_db()
    assert row.status == TournamentMatch.Status.DONE
    assert row.winner.player_id != loser.pk and row.is_forfeit is False
    final = TournamentMatch.objects.get(tournament_id=pk, round=2)
    assert row.winner_id in (final.entry_one_id, final.entry_two_id)
    assert Standing.objects.get(tournament_id=pk, entry__player=loser).forfeits == 0


def test_a_claim_is_recorded_as_a_forfeit_after_the_tournaments_hours(
    org_api, players, organiser, fake_clock, api_as
):
    pk, rows = started_rows(org_api, players, organiser)
    match = Match.objects.get(pk=rows[0].match_id)
    assert match.claim_after_hours == 24
    to_move = games_selectors.player_to_move(games_selectors.current_game(match))
    waiting = match.player_two if to_move == match.player_one else match.player_one
    claimer = api_as(waiting)
    fake_clock.advance(23 * 3600)
    claimer.post("games:match-claim", status=409, pk=match.pk)
    # The game started after the fake clock was set (by as long as starting the tournament
    # took: over a second on a busy machine), so a minute more than the 24 hours.
    fake_clock.advance(3600 + 60)
    claimer.post("games:match-claim", status=200, pk=match.pk)
    rows[0].refresh_from_db()
    assert rows[0].winner.player_id == waiting.pk and rows[0].is_forfeit is True


def test_the_admin_takes_the_clock_and_refuses_a_bad_one(django_user_model):
    superuser = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    admin_client = Client()
    admin_client.force_login(superuser)
    url = reverse("admin:tournaments_tournament_add")
    data = {
        "name": "Admin Blitz", "format": "swiss", "match_length": 3, "match_mode": "online",
        "options": "", "tiebreak_order": "[]", "consolation_rounds": 1, "groups": 1,
        "knockout_per_group": 0, "bye_points": 1.0, "late_entry_until_round": 0,
        "seed_method": "rating", "organisers": [superuser.pk], "clock": '{"preset": "relaxed"}',
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0,
        "rounds-TOTAL_FORMS": 0, "rounds-INITIAL_FORMS": 0,
    }  # fmt: skip
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    tournament = Tournament.objects.get(name="Admin Blitz")
    assert tournament.clock == {"preset": "relaxed", "per_point_seconds": 180, "delay_seconds": 15}
    assert tournament.claim_after_hours == 24

    bad = {**data, "name": "Admin Bad", "match_mode": "over_the_board"}
    response = admin_client.post(url, bad)
    assert response.status_code == 200
    assert "needs online matches" in str(response.context["adminform"].form.errors["clock"])
