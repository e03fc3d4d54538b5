"""Tournament services against the database: corrections, withdrawals, no-shows, permissions,
idempotent standings and the tasks (eager)."""

import datetime

import pytest
from django.utils import timezone

from games import services as games_services
from tests.tournaments.helpers import play_all, tournament_running
from tournaments import services, tasks
from tournaments.models import Entry, Standing, Tournament, TournamentMatch

pytestmark = pytest.mark.django_db


def row(tournament_id, key, stage="main"):
    return TournamentMatch.objects.get(tournament_id=tournament_id, stage=stage, key=key)


def test_correcting_a_result_redraws_the_next_match(org_api, players, organiser):
    pk = tournament_running(org_api, players[:4], format="single_elimination")["id"]
    first, second = row(pk, "W1-1"), row(pk, "W1-2")
    org_api.post("games:result-list", {"winner": first.entry_one.player_id, "points": 1},
                 status=201, pk=first.match_id)  # fmt: skip
    org_api.post("games:result-list", {"winner": second.entry_one.player_id, "points": 1},
                 status=201, pk=second.match_id)  # fmt: skip
    final = row(pk, "W2-1")
    assert final.entry_one_id == first.entry_one_id and final.match_id is not None
    old_match = final.match_id

    body = org_api.post(
        "tournaments:result-correct", {"winner": first.entry_two_id}, pk=pk, mid=first.pk
    )
    assert body["winner"] == first.entry_two_id
    final.refresh_from_db()
    assert final.entry_one_id == first.entry_two_id and final.match_id != old_match
    first.refresh_from_db()
    assert first.match.winner_id == first.entry_two.player_id


def test_correction_is_refused_once_the_next_match_has_started(org_api, players):
    pk = tournament_running(org_api, players[:4], format="single_elimination")["id"]
    play_all(org_api, pk)  # the final is played too
    first = row(pk, "W1-1")
    response = org_api.client.post(
        f"/api/v1/tournaments/{pk}/matches/{first.pk}/correct/",
        {"winner": first.entry_two_id},
        format="json",
    )
    assert response.status_code == 409 and "W2-1" in response.json()["detail"]


def test_withdrawal_forfeits_the_remaining_round_robin_matches(org_api, players, organiser):
    pk = tournament_running(org_api, players[:4], format="round_robin")["id"]
    quitter = Entry.objects.get(tournament_id=pk, seed=4)
    services.entry_withdraw(entry=quitter, user=organiser)
    theirs = TournamentMatch.objects.filter(tournament_id=pk, entry_two=quitter) | (
        TournamentMatch.objects.filter(tournament_id=pk, entry_one=quitter)
    )
    assert {r.status for r in theirs} == {"done"} and all(r.is_forfeit for r in theirs)
    assert all(r.winner_id != quitter.pk for r in theirs)


def test_no_shows_forfeit_after_the_deadline(org_api, players, organiser):
    pk = tournament_running(org_api, players[:4], format="swiss", swiss_rounds=2)["id"]
    tournament = Tournament.objects.get(pk=pk)
    present = [r.entry_one for r in tournament.matches.filter(round=1)]
    for entry in present:
        services.entry_check_in(entry=entry, user=organiser)
    soon = timezone.now() + datetime.timedelta(hours=1)
    services.round_deadline_set(tournament=tournament, user=organiser, number=1, deadline=soon)
    url = f"/api/v1/tournaments/{pk}/rounds/1/forfeit-no-shows/"
    assert org_api.client.post(url, {}, format="json").status_code == 409  # not passed yet
    past = timezone.now() - datetime.timedelta(minutes=1)
    services.round_deadline_set(tournament=tournament, user=organiser, number=1, deadline=past)
    body = org_api.post("tournaments:round-no-shows", {}, pk=pk, number=1)
    assert sorted(body["forfeited"]) == ["R1-1", "R1-2"]
    winners = {r.winner_id for r in tournament.matches.filter(round=1)}
    assert winners == {e.pk for e in present}


def test_only_organisers_run_a_tournament(api_as, org_api, players):
    pk = org_api.post("tournaments:tournament-list", {"name": "Cup", "format": "swiss"},
                      status=201)["id"]  # fmt: skip
    stranger = api_as(players[0])
    stranger.post("tournaments:registration-open", status=403, pk=pk)
    api_as(None).post("tournaments:start", status=401, pk=pk)
    org_api.post("tournaments:registration-open", pk=pk)
    stranger.post("tournaments:entry-list", {}, status=201, pk=pk)  # registers themself
    stranger.post("tournaments:entry-list", {"player": players[1].pk}, status=403, pk=pk)


def test_standings_recompute_is_idempotent_and_runs_as_a_task(org_api, players):
    pk = tournament_running(org_api, players[:4], format="round_robin")["id"]
    play_all(org_api, pk)
    tournament = Tournament.objects.get(pk=pk)
    before = list(Standing.objects.filter(tournament=tournament).values_list("entry", "rank"))
    tasks.standings_recompute.delay(pk)
    services.standings_recompute(tournament=tournament)
    after = list(Standing.objects.filter(tournament=tournament).values_list("entry", "rank"))
    assert before == after and len(after) == 4
    assert tasks.standings_recompute_all.delay().get() >= 1


def test_ratings_follow_results_with_history_and_variants(org_api, players):
    pk = tournament_running(org_api, players[:4], format="single_elimination")["id"]
    play_all(org_api, pk)
    champion = players[0]
    body = org_api.get("tournaments:player-ratings", pk=champion.pk)
    assert body["rating"] > 1500 and body["experience"] == 2
    overall = [h for h in body["history"] if h["variant"] == ""]
    assert [h["sequence"] for h in overall] == sorted(h["sequence"] for h in overall)
    assert {v["variant"] for v in body["variant_ratings"]} == {"tabla"}
    leaders = org_api.get("tournaments:rating-list")["results"]
    assert leaders[0]["id"] == champion.pk


def test_a_finished_friendly_match_is_not_a_tournament_match(players, organiser):
    match = games_services.match_create(
        creator=organiser, player_one=players[0], player_two=players[1], mode="over_the_board"
    )
    assert services.tournament_match_record(match=match) is None
