"""The live fragment of a match page with ``X-Replay-Held`` (games/views.py, docs/decisions.md
D160): only the replay frames and log rows after those the page holds, the same as the tail of
the whole fragment, with the same queries early and late in a game; anything that does not
name the shown game's turns as they are gives the whole fragment."""

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import selectors, services
from games.demo import game_play_random
from games.models import Game, Match

pytestmark = pytest.mark.django_db


def live_url(match: Match) -> str:
    return reverse("web:match-live", kwargs={"pk": match.pk})


class Page(Client):
    """A client that asks for the live fragment as the page does, naming the turns it holds."""

    def live(self, match: Match, held: str | None = None) -> Any:
        headers = {} if held is None else {"X-Replay-Held": held}
        return self.get(live_url(match), headers=headers)


def long_game(alice, bob, organiser, decisions: int, **options) -> Game:
    """A game of a new unrated match with at least ``decisions`` + 10 turns still going on."""
    for seed in range(30):
        match = services.match_create(
            creator=organiser,
            player_one=alice,
            player_two=bob,
            rated=False,
            options=options or None,
        )
        game = match.games.get()
        game = game_play_random(game=game, rng=random.Random(seed), max_decisions=decisions)
        if not game.is_over:
            return game
    raise AssertionError("no game lasted")


def test_the_fragment_after_the_page_s_turns_is_the_tail_of_the_whole_one(alice, bob, organiser):
    game = long_game(alice, bob, organiser, 6)
    client = Page()
    before = client.live(game.match).context
    held = before["client"]["replay_key"]
    assert before["client"]["replay_from"] == 0 and before["log_from"] == 0
    count = game.turns.count()
    game = game_play_random(game=game, rng=random.Random(7), max_decisions=3)
    added = game.turns.count() - count
    assert added >= 3
    whole = client.live(game.match)
    part = client.live(game.match, held)
    assert part.status_code == 200 and part["ETag"] == whole["ETag"]
    assert "X-Replay-Held" in part["Vary"] and part["Cache-Control"] == "no-cache"
    assert part.context["replay"] == whole.context["replay"][count + 1 :]
    assert len(part.context["replay"]) == added
    assert part.context["log"] == whole.context["log"][count:]
    assert part.context["log_from"] == count
    assert part.context["replay_length"] == len(whole.context["replay"]) == count + added + 1
    assert part.context["client"] == whole.context["client"] | {"replay_from": count + 1}
    html = part.content.decode()
    assert f'data-replay-ply="{count + 1}"' in html and 'data-replay-ply="1"' not in html
    assert f'max="{count + added + 1}"' in html
    # Nothing new since: no frame, no row, the log's list still there for the page's rows.
    again = client.live(game.match, part.context["client"]["replay_key"])
    assert again.context["replay"] == [] and again.context["log"] == []
    assert again.context["log_from"] == count + added
    assert 'class="move-log"' in again.content.decode()


def test_a_key_that_does_not_name_the_shown_turns_gives_the_whole_fragment(alice, bob, organiser):
    game = long_game(alice, bob, organiser, 4)
    other = long_game(alice, bob, organiser, 4)
    client = Page()
    key = client.live(game.match).context["client"]["replay_key"]
    whole = client.live(game.match).context
    pk, count, turn, micros = key.split(".")
    wrong = [
        client.live(other.match).context["client"]["replay_key"],  # another game
        f"{pk}.{count}.{int(turn) + 1}.{micros}",  # another turn
        f"{pk}.{count}.{turn}.{int(micros) + 1}",  # made at another time (a database made again)
        f"{pk}.{int(count) - 1}.{turn}.{micros}",  # not its count-th turn
        f"{pk}.0.{turn}.{micros}",
        f"{pk}.{count}.{turn}",
        "x",
        f"{pk}.{count}.{turn}.-{micros}",
    ]
    for after in wrong:
        context = client.live(game.match, after).context
        assert context["log_from"] == 0, after
        assert context["replay"] == whole["replay"] and context["log"] == whole["log"]
        assert context["client"]["replay_from"] == 0


def test_the_cube_after_the_page_s_turns_follows_the_earlier_cube_actions(alice, bob, organiser):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, options={"cube": "tabla_only"}
    )
    game = selectors.current_game(match)
    game = services.cube_double(game=game, player=game.white).game
    game = services.cube_take(game=game, player=game.black).game
    game = game_play_random(game=game, rng=random.Random(3), max_decisions=3)
    client = Page()
    key = client.live(match).context["client"]["replay_key"]
    count = game.turns.count()
    game = game_play_random(game=game, rng=random.Random(4), max_decisions=2)
    whole = client.live(match).context
    part = client.live(match, key).context
    assert part["log_from"] == count and part["replay"]
    assert part["replay"] == whole["replay"][count + 1 :]
    assert [frame["cube"]["owner"] for frame in part["replay"]] == ["b"] * len(part["replay"])


def test_an_update_costs_the_same_queries_early_and_late_in_a_game(
    alice, bob, organiser, django_assert_num_queries
):
    """A spectator's update after one more turn: the same queries with 5 turns held as with
    100 (the turns after the page's and its cube actions in one query), and about the same
    bytes, where the whole fragment grows with every turn's frame and row."""
    client = Page()
    sizes = []
    for decisions in (5, 100):
        game = long_game(alice, bob, organiser, decisions)
        key = client.live(game.match).context["client"]["replay_key"]
        game = game_play_random(game=game, rng=random.Random(9), max_decisions=1)
        with django_assert_num_queries(7):  # the live version (the match, its last game, its
            # reports), the match, its games, its reports, the turns after the page's
            part = client.live(game.match, key)
        assert 1 <= len(part.context["replay"]) <= 2  # a roll, and any forced stage after it
        whole = client.live(game.match)
        sizes.append((len(part.content), len(whole.content)))
    (early, early_whole), (late, late_whole) = sizes
    assert late < early + 3000 and late_whole > late + 50_000
