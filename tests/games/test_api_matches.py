"""Match endpoints: create, list filters, start, forfeit, dice proof, export and import."""

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from games import selectors as services_selectors
from games import services
from games.demo import match_play_random
from games.models import Game, Match, Turn

pytestmark = pytest.mark.django_db


def match_url(name: str, match_id: int) -> str:
    return reverse(f"games:{name}", kwargs={"pk": match_id})


@pytest.fixture
def finished_match(alice, bob, organiser):
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob)
    return match_play_random(match=match, rng=random.Random(4))


def test_create_validates_options_through_the_engine(alice, bob, client_for):
    response = client_for(alice).post(
        reverse("games:match-list"),
        {"player_one": alice.pk, "player_two": bob.pk, "options": {"tapa_tie": "coin"}},
        format="json",
    )
    assert response.status_code == 400 and "tapa_tie" in response.json()["detail"]


def test_create_with_a_preset_and_target(alice, bob, staff, client_for):
    response = client_for(staff).post(
        reverse("games:match-list"),
        {
            "player_one": alice.pk,
            "player_two": bob.pk,
            "target_score": 7,
            "options": {"preset": "bulgarian_nit"},
            "tournament_slot": "cup-1",
        },
        format="json",
    )
    body = response.json()
    assert response.status_code == 201
    assert body["target_score"] == 7 and body["options"]["tapa_tie"] == "one_each"
    assert body["current_game"] == body["games"][0]["id"]


@pytest.mark.parametrize(
    "body",
    [{"player_one": 1}, {"player_one": "x", "player_two": 2}, {"options": []}, "just text"],
)
def test_create_rejects_bad_input_with_400(alice, client_for, body):
    response = client_for(alice).post(reverse("games:match-list"), body, format="json")
    assert response.status_code == 400


def test_list_filters_by_player_status_and_tournament(
    online_match, finished_match, alice, client_for
):
    other = services.match_create(
        creator=alice.user,
        player_one=alice,
        player_two=online_match.player_two,
        tournament_slot="cup-1",
    )
    reader = APIClient()
    url = reverse("games:match-list")

    def ids(**params):
        return {m["id"] for m in reader.get(url, params).json()["results"]}

    assert ids(player=alice.pk) == {online_match.pk, finished_match.pk, other.pk}
    assert ids(status="finished") == {finished_match.pk}
    assert ids(tournament="cup-1") == {other.pk}
    assert reader.get(url, {"status": "nonsense"}).status_code == 400


def test_start_is_for_players_and_organiser(alice, bob, organiser, client_for):
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob, start=False)
    url = match_url("match-start", match.pk)
    assert APIClient().post(url).status_code == 401
    from tests.games.factories import UserFactory

    assert client_for(UserFactory()).post(url).status_code == 403
    assert client_for(bob).post(url).status_code == 200
    assert client_for(bob).post(url).status_code == 409


def test_forfeit_is_for_the_organiser(online_match, alice, organiser, client_for):
    url = match_url("match-forfeit", online_match.pk)
    assert client_for(alice).post(url, {"loser": alice.pk}, format="json").status_code == 403
    response = client_for(organiser).post(url, {"loser": alice.pk}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "forfeited"
    assert response.json()["winner"] == online_match.player_two_id


def test_dice_proof_verifies_a_finished_game_and_catches_a_tampered_seed(finished_match):
    game = finished_match.games.first()
    url = reverse("games:dice-proof", kwargs={"pk": game.pk})
    proof = APIClient().get(url).json()
    assert proof["verified"] is True and proof["seed"] == game.seed
    assert len(proof["rolls"]) == game.turns.filter(kind=Turn.Kind.ROLL).count()

    Game.objects.filter(pk=game.pk).update(seed="ab" * 32)

    tampered = APIClient().get(url).json()
    assert tampered["verified"] is False and "commitment" in tampered["problems"][0]


def test_dice_proof_hides_the_seed_while_the_game_is_on(game):
    proof = APIClient().get(reverse("games:dice-proof", kwargs={"pk": game.pk})).json()
    assert proof["seed"] is None and proof["verified"] is None and proof["commitment"]


def test_export_then_import_replays_every_game(finished_match, alice, bob, client_for):
    response = APIClient().get(match_url("match-export", finished_match.pk))
    assert response.status_code == 200 and response["Content-Type"].startswith(
        "application/x-ndjson"
    )
    text = response.content.decode()
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0]["type"] == "match"
    assert {line["variant"] for line in lines if line["type"] == "game"} >= {"tabla", "gul_bara"}

    imported = client_for(alice).post(
        reverse("games:match-import"),
        {"player_one": alice.pk, "player_two": bob.pk, "lines": text},
        format="json",
    )

    assert imported.status_code == 201, imported.json()
    body = imported.json()
    assert (body["score_one"], body["score_two"]) == (
        finished_match.score_one,
        finished_match.score_two,
    )
    assert body["status"] == "finished" and body["mode"] == "imported"
    again = APIClient().get(match_url("match-export", body["id"])).content.decode()
    strip = [{k: v for k, v in json.loads(x).items() if k != "match"} for x in again.splitlines()]
    assert strip[1:] == [{k: v for k, v in x.items() if k != "match"} for x in lines[1:]]


def test_import_rejects_a_tampered_position(finished_match, alice, bob, client_for):
    text = APIClient().get(match_url("match-export", finished_match.pk)).content.decode()
    lines = [json.loads(line) for line in text.splitlines()]
    turn = next(line for line in lines if line["type"] == "turn")
    turn["position"]["off"]["w"] = 3
    body = {
        "player_one": alice.pk,
        "player_two": bob.pk,
        "lines": "\n".join(json.dumps(x) for x in lines),
    }
    response = client_for(alice).post(reverse("games:match-import"), body, format="json")
    assert response.status_code == 400 and "line 3" in response.json()["detail"]
    assert not Match.objects.filter(mode="imported").exists()


def test_import_rejects_garbage(alice, bob, client_for):
    body = {"player_one": alice.pk, "player_two": bob.pk, "lines": "not json"}
    response = client_for(alice).post(reverse("games:match-import"), body, format="json")
    assert response.status_code == 400 and "line 1" in response.json()["detail"]
    assert APIClient().post(reverse("games:match-import"), body, format="json").status_code == 401


def test_the_match_list_reads_the_games_without_their_matches(alice, bob, organiser):
    """The page's games come by their match ids in the match's order of numbers: the games' own
    default order (their match's creation time) would join each game to its match row."""
    for _ in range(3):
        services.match_create(creator=organiser, player_one=alice, player_two=bob)
    with CaptureQueriesContext(connection) as queries:
        response = APIClient().get(reverse("games:match-list"))
    assert response.status_code == 200 and len(response.json()["results"]) == 3
    games = [q["sql"] for q in queries if q["sql"].startswith('SELECT "games_game"')]
    assert len(games) == 1 and '"games_match"' not in games[0], games


def test_the_match_list_costs_the_same_queries_for_5_or_40_matches(alice, bob, organiser):
    """Each row's games with their players and its current game come in a fixed number of
    queries (the session, the count, the page, the games): not one or two a row."""
    client = APIClient()
    url = reverse("games:match-list")

    def listed(count: int) -> tuple[int, list[dict]]:
        while Match.objects.count() < count:
            match = services.match_create(creator=organiser, player_one=alice, player_two=bob)
            if Match.objects.count() in (2, 4):  # two finished matches, the rest on game 1
                match_play_random(match=match, rng=random.Random(Match.objects.count()))
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, {"page_size": 50})
        assert response.status_code == 200
        return len(queries), response.json()["results"]

    few, rows = listed(5)
    many, rows = listed(40)
    assert few == many <= 4
    assert len(rows) == 40
    for row in rows:  # the annotation agrees with the per-match read it replaces
        match = Match.objects.get(pk=row["id"])
        current = services_selectors.current_game(match)
        assert row["current_game"] == (current.pk if current else None)
        assert [g["white"]["id"] for g in row["games"]] == list(
            match.games.order_by("number").values_list("white_id", flat=True)
        )
