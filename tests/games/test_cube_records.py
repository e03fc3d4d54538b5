"""The cube in records: JSON-lines export and import, the .mat export (read back by GNU
Backgammon), and over-the-board reports whose points count the cube."""

import json
import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import selectors, services
from games.engine import Options, legal_plays, start_position
from games.models import Game, Match, ResultReport
from tests.games.factories import MatchFactory
from tests.games.helpers import play_cube_match
from tests.mat import gnubg_import, parse_mat

pytestmark = pytest.mark.django_db


@pytest.fixture
def cube_match(alice, bob, organiser) -> Match:
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, options={"cube": "tabla_only"}
    )
    played = play_cube_match(match, random.Random(7))
    tabla = played.games.filter(variant="tabla")
    assert any(g.cube_value > 1 for g in tabla) and tabla.filter(ended_by="drop").exists()
    return played


def export_text(match: Match) -> str:
    url = reverse("games:match-export", kwargs={"pk": match.pk})
    return APIClient().get(url).content.decode()


def import_lines(client, alice, bob, lines: list[dict]):
    body = {
        "player_one": alice.pk,
        "player_two": bob.pk,
        "lines": "\n".join(json.dumps(line) for line in lines),
    }
    return client.post(reverse("games:match-import"), body, format="json")


def test_a_cube_match_exports_and_imports_with_its_cube_actions(cube_match, alice, bob, client_for):
    lines = [json.loads(line) for line in export_text(cube_match).splitlines()]
    kinds = {line.get("kind") for line in lines if line["type"] == "turn"}
    assert {"roll", "double", "take", "drop"} <= kinds

    imported = import_lines(client_for(alice), alice, bob, lines)

    assert imported.status_code == 201, imported.json()
    body = imported.json()
    assert (body["score_one"], body["score_two"]) == (cube_match.score_one, cube_match.score_two)
    copy = Match.objects.get(pk=body["id"])
    for original, game in zip(cube_match.games.all(), copy.games.all(), strict=True):
        assert (game.cube_value, game.cube_owner, game.result_points, game.ended_by) == (
            original.cube_value,
            original.cube_owner,
            original.result_points,
            original.ended_by,
        )
        assert selectors.game_replay_problems(game) == []


def test_an_import_whose_cube_does_not_replay_is_refused(cube_match, alice, bob, client_for):
    lines = [json.loads(line) for line in export_text(cube_match).splitlines()]
    take = next(line for line in lines if line.get("kind") == "take")
    take["kind"] = "double"  # the answer turned into a second double
    response = import_lines(client_for(alice), alice, bob, lines)
    assert response.status_code == 400 and "may not double" in response.json()["detail"]

    lines = [json.loads(line) for line in export_text(cube_match).splitlines()]
    end = next(line for line in lines if line["type"] == "end" and line["cube"] > 1)
    end["cube"] = 1
    response = import_lines(client_for(alice), alice, bob, lines)
    assert response.status_code == 400 and "cube 1" in response.json()["detail"]
    assert not Match.objects.filter(mode="imported").exists()


def test_the_mat_export_writes_the_cube_actions_as_gnubg_does(cube_match):
    url = reverse("games:match-export", kwargs={"pk": cube_match.pk}) + "?format=mat"
    text = APIClient().get(url).content.decode()
    assert parse_mat(text).tags["CubeLimit"] == "1024"
    assert "Doubles => 2" in text and " Takes" in text and " Drops" in text


def test_gnubg_reads_the_cube_and_the_points_of_every_tabla_game(cube_match, tmp_path, gnubg):
    url = reverse("games:match-export", kwargs={"pk": cube_match.pk}) + "?format=mat"
    imported, _ = gnubg_import(gnubg, APIClient().get(url).content.decode(), tmp_path)

    games = list(cube_match.games.filter(variant="tabla").order_by("number"))
    assert len(imported["games"]) == len(games)
    for game_import, game in zip(imported["games"], games, strict=True):
        actions = [r["action"] for r in game_import["game"]]
        stored = [str(t.kind) for t in game.turns.order_by("ply") if t.kind != "roll"]
        assert [a for a in actions if a in ("double", "take", "drop")] == stored
        assert game_import["info"]["points-won"] == game.result_points
        assert game_import["info"]["resigned"] is (game.ended_by == "resignation")


@pytest.fixture
def otb_cube_match(alice, bob, organiser) -> Match:
    options = Options.from_json({"cube": "all_games"}).to_json()
    return MatchFactory(player_one=alice, player_two=bob, organiser=organiser, options=options)


def results_url(match: Match) -> str:
    return reverse("games:result-list", kwargs={"pk": match.pk})


def test_an_over_the_board_result_counts_the_cube(otb_cube_match, alice, organiser, client_for):
    response = client_for(organiser).post(
        results_url(otb_cube_match), {"winner": alice.pk, "kind": "mars", "points": 4}
    )
    assert response.status_code == 201, response.json()
    game = ResultReport.objects.get(pk=response.json()["id"]).game
    assert (game.cube_value, game.result_points) == (2, 4)
    otb_cube_match.refresh_from_db()
    assert (otb_cube_match.score_one, otb_cube_match.score_two) == (4, 0)

    response = client_for(organiser).post(
        results_url(otb_cube_match), {"winner": alice.pk, "kind": "single", "points": 3}
    )
    assert response.status_code == 400
    assert "times a cube value" in response.json()["detail"]


def test_a_reported_cube_must_match_the_move_record(otb_cube_match, alice, bob, client_for):
    rng = random.Random(3)
    position = start_position("tabla", "w")
    record: list[dict] = [{"kind": "double"}, {"kind": "take"}]
    while True:
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        outcome = rng.choice(legal_plays("tabla", position, dice))
        record.append({"dice": dice, "moves": outcome.play.to_json()})
        position = outcome.position
        if outcome.result is not None:
            break
    winner = alice if outcome.result.winner == "w" else bob
    body = {
        "winner": winner.pk,
        "kind": outcome.result.kind,
        "starter": alice.pk,
        "record": record,
    }
    single = {**body, "points": outcome.result.points}
    response = client_for(alice).post(results_url(otb_cube_match), single, format="json")
    assert response.status_code == 400 and "cube at 2" in response.json()["detail"]

    doubled = {**body, "points": outcome.result.points * 2}
    response = client_for(alice).post(results_url(otb_cube_match), doubled, format="json")
    assert response.status_code == 201, response.json()
    rid = response.json()["id"]
    confirm = reverse("games:result-confirm", kwargs={"pk": otb_cube_match.pk, "rid": rid})
    assert client_for(bob).post(confirm).status_code == 200
    game = Game.objects.get(match=otb_cube_match)
    assert (game.cube_value, game.cube_owner) == (2, "b")
    assert selectors.game_replay_problems(game) == []
