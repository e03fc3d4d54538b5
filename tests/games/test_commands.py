"""Management commands: verify_games, verify_dice, demo_setup, export and import."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError

from games.demo import game_play_random
from games.models import Game, Match
from players.models import Player
from tests.games.helpers import run

pytestmark = pytest.mark.django_db


def test_verify_games_passes_for_played_games_and_finds_a_tampered_position(game):
    game_play_random(game=game, rng=random.Random(2), max_decisions=10)
    assert "all match their replay" in run("verify_games")

    position = dict(game.turns.last().position_after)
    position["off"] = {"w": 1, "b": 0}
    Game.objects.filter(pk=game.pk).update(position=position)

    with pytest.raises(CommandError, match="1 of 1 games differ"):
        run("verify_games")


def test_verify_dice_checks_finished_games_and_catches_a_tampered_seed(game):
    game = game_play_random(game=game, rng=random.Random(2))
    assert "dice match commitments" in run("verify_dice", str(game.pk))
    Game.objects.filter(pk=game.pk).update(seed="00" * 32)
    with pytest.raises(CommandError, match="fail the dice check"):
        run("verify_dice", str(game.pk))


def test_demo_setup_is_idempotent():
    run("demo_setup")
    counts = (Player.objects.count(), Match.objects.count(), Game.objects.count())
    statuses = set(Match.objects.values_list("status", flat=True))
    assert statuses == {"finished", "in_progress"}

    assert "demo already loaded" in run("demo_setup")
    assert (Player.objects.count(), Match.objects.count(), Game.objects.count()) == counts
    assert "all match their replay" in run("verify_games")
    # The demo organiser runs rated tournaments and enters players without accounts.
    organiser = get_user_model().objects.get(username="organiser")
    assert organiser.has_perm("tournaments.run_rated_tournament")
    assert organiser.has_perm("players.add_player")


def test_match_export_and_import_commands_round_trip(game, tmp_path, alice, bob):
    game_play_random(game=game, rng=random.Random(2))
    path = tmp_path / "match.jsonl"
    path.write_text(run("match_export", str(game.match_id)))
    assert "imported match" in run("match_import", str(path), str(alice.pk), str(bob.pk))
