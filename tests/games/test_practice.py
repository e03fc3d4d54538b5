"""Practice against the computer (games/practice.py, games/services/practice.py; docs/decisions.md
D131, D132): the match, the computer's turns, a whole match through the API, the hint's rules."""

import random

import pytest
from django.urls import reverse

from common.errors import ConflictError, InvalidRequestError
from games import selectors, services
from games.models import Match
from tests.games.test_chances import write_networks

pytestmark = pytest.mark.django_db


@pytest.fixture
def weights(tmp_path, settings):
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path
    return write_networks(tmp_path)


_capture = None


@pytest.fixture
def eager(django_capture_on_commit_callbacks):
    """Each write's tasks queued on commit run when it returns, as they would after a real
    commit (Celery is eager in the tests; the test's own transaction never commits)."""
    global _capture
    _capture = django_capture_on_commit_callbacks
    yield
    _capture = None


def committed(service, **kwargs):
    if _capture is None:
        return service(**kwargs)
    with _capture(execute=True):
        return service(**kwargs)


def practice(alice, strength="club", length=1, cycle=("tabla",)) -> Match:
    return committed(
        services.practice_start,
        user=alice.user,
        strength=strength,
        target_score=length,
        options={"cycle": list(cycle)},
    )


def human_move(game, alice, rng):
    """Alice's next decision: roll, or a random legal play."""
    if selectors.is_roll_due(game):
        return committed(services.dice_roll, game=game, user=alice.user).game
    outcome = rng.choice(selectors.game_legal_plays(game))
    return committed(
        services.play_submit, game=game, user=alice.user, ply=game.ply, moves=outcome.play.to_json()
    ).game


def test_practice_match_is_unrated_private_and_against_a_computer(weights, alice, eager):
    match = practice(alice)
    assert not match.rated and not match.has_clock and not match.is_public
    computer = match.player_two
    assert computer.computer == "club" and computer.user is None
    assert computer.display_name == "Computer (club)"
    assert practice(alice).player_two == computer  # one computer player per strength
    game = selectors.current_game(match)
    # Whoever started, it is now the human's turn: the computer answered at once.
    assert selectors.player_to_move(game) == alice


def test_the_computer_moves_after_the_human(weights, alice, eager):
    match = practice(alice, strength="strong")
    rng = random.Random(5)
    game = selectors.current_game(match)
    plays_before = game.turns.filter(side="w" if game.white == alice else "b").count()
    for _ in range(6):
        game = selectors.current_game(match)
        if game is None:
            break
        assert selectors.player_to_move(game) == alice
        human_move(game, alice, rng)
    computer_side = "b" if game.white == alice else "w"
    assert game.turns.filter(side=computer_side).exists()
    assert plays_before >= 0


def test_no_practice_without_an_evaluator(tmp_path, settings, alice):
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path / "none"
    with pytest.raises(ConflictError, match="no evaluator"):
        practice(alice)
    assert not Match.objects.exists()


def test_unknown_strength_refused(weights, alice):
    with pytest.raises(InvalidRequestError):
        practice(alice, strength="grandmaster")


def test_computer_play_is_idempotent(weights, alice, eager):
    match = practice(alice)
    game = selectors.current_game(match)
    ply = game.ply
    assert services.computer_play(match=match.pk) == 0  # the human's turn: nothing
    game.refresh_from_db()
    assert game.ply == ply
