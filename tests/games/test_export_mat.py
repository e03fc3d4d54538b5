"""The .mat export of a stored match: through the route and the command, read back by GNU
Backgammon, whose boards must be the positions stored after every turn."""

import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import services
from games.demo import match_play_random
from games.engine import Position, start_position
from games.models import Game, Match
from tests.games.helpers import run
from tests.mat import gnubg_board, gnubg_import, parse_mat
from tests.tournaments.factories import TournamentFactory
from tournaments.models import TournamentMatch

pytestmark = pytest.mark.django_db


def export_url(match_id: int) -> str:
    return reverse("games:match-export", kwargs={"pk": match_id}) + "?format=mat"


@pytest.fixture
def finished_match(alice, bob, organiser) -> Match:
    alice.rating, bob.rating = 1612.5, 1480.0
    alice.save(), bob.save()
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob)
    return match_play_random(match=match, rng=random.Random(4))


def positions_before_each_turn(game: Game) -> list[Position]:
    position = start_position(game.variant, "w")
    before = []
    for turn in game.turns.order_by("ply"):
        before.append(position)
        position = Position.from_json(turn.position_after)
    return before


def gnubg_step(word: str) -> tuple[int, int]:
    source, target = word.split("/")
    return (25 if source == "bar" else int(source), 0 if target == "off" else int(target))


def test_export_mat_is_a_text_attachment_with_the_players_and_the_event(finished_match):
    response = APIClient().get(export_url(finished_match.pk))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="tabla-match-{finished_match.pk}.mat"'
    )
    parsed = parse_mat(response.content.decode())
    assert parsed.length == finished_match.target_score
    assert parsed.tags["Player 1"] == "Alice" and parsed.tags["Player 2"] == "Bob"
    assert (parsed.tags["Player 1 Elo"], parsed.tags["Player 2 Elo"]) == ("1612.50/0", "1480.00/0")
    assert parsed.tags["Event"] == "Tabla match"
    assert parsed.tags["Match ID"] == str(finished_match.pk)


def test_gnubg_rebuilds_the_stored_position_before_every_turn(
    finished_match, gnubg, tmp_path, capfd
):
    text = APIClient().get(export_url(finished_match.pk)).content.decode()
    imported, final_boards = gnubg_import(gnubg, text, tmp_path)
    assert "WARNING" not in capfd.readouterr().out

    games = list(finished_match.games.filter(variant="tabla").order_by("number"))
    assert len(games) >= 2 and len(imported["games"]) == len(games)
    for game_import, game, final in zip(imported["games"], games, final_boards, strict=True):
        player_one_colour = "w" if game.white_id == finished_match.player_one_id else "b"
        records = [r for r in game_import["game"] if r["action"] == "move"]
        turns = list(game.turns.order_by("ply"))
        assert len(records) == len(turns)
        for record, turn, before in zip(
            records, turns, positions_before_each_turn(game), strict=True
        ):
            assert record["player"] == ("X" if turn.side == player_one_colour else "O")
            assert record["dice"] == tuple(turn.dice)
            assert sorted(record["move"]) == sorted(gnubg_step(word) for word in turn.moves)
            assert record["board"] == gnubg.positionid(gnubg_board(before, turn.side))
        end = Position.from_json(game.position)
        assert final == gnubg_board(end, end.turn)
        info = game_import["info"]
        winner_is_one = game.result_winner_id == finished_match.player_one_id
        assert info["winner"] == ("X" if winner_is_one else "O")


def test_gnubg_reads_the_running_match_score_before_each_game(finished_match, gnubg, tmp_path):
    text = APIClient().get(export_url(finished_match.pk)).content.decode()
    imported, _ = gnubg_import(gnubg, text, tmp_path)

    score = [0, 0]
    expected = []
    for game in finished_match.games.order_by("number"):
        if game.variant == "tabla":
            expected.append(tuple(score))
        winner = 0 if game.result_winner_id == finished_match.player_one_id else 1
        score[winner] += game.result_points or 0
    got = [(g["info"]["score-X"], g["info"]["score-O"]) for g in imported["games"]]
    assert got == expected


def test_export_mat_of_a_private_match_is_404_for_others(alice, bob, organiser, client_for):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, is_public=False
    )

    assert APIClient().get(export_url(match.pk)).status_code == 404
    assert client_for(alice).get(export_url(match.pk)).status_code == 200


def test_match_export_command_writes_the_same_mat_file(finished_match):
    text = run("match_export", str(finished_match.pk), "--format", "mat")

    assert text == APIClient().get(export_url(finished_match.pk)).content.decode()


def test_a_tournament_match_names_its_tournament_and_round(online_match):
    tournament = TournamentFactory(name="Skopje Open")
    TournamentMatch.objects.create(
        tournament=tournament, key="R2-1", round=2, index=1, match=online_match
    )

    tags = parse_mat(APIClient().get(export_url(online_match.pk)).content.decode()).tags

    assert (tags["Event"], tags["Round"]) == ("Skopje Open", "Round 2")
