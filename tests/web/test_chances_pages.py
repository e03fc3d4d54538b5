"""The chance bar in Debian's chromium (games/chances.py, static/js/chances.js): a spectator's
page of an unrated match shows it and it follows a move pushed over the socket; the page of a
player of the match has none."""

import re
import time

import pytest
from playwright.sync_api import expect

from games import services
from tests.sockets import decide
from tests.web.asgi_server import asgi_url
from tests.web.helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def unrated(organiser, alice, bob):
    """An unrated match of Alice and Bob (its chances live for spectators): it, its first game
    and its page's path."""
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob, rated=False)
    return match, match.games.get(), f"/matches/{match.pk}/"


def test_a_spectator_sees_the_bar_follow_a_move_and_a_player_has_none(
    pushed, weights, new_page, alice, bob, organiser, artifacts
):
    match, game, path = unrated(organiser, alice, bob)
    spectator, console = new_page()
    spectator.goto(f"{asgi_url()}{path}")
    label = spectator.locator("#chances [data-chance-one-label]")
    expect(label).to_have_text(re.compile(r"^Alice \d+ %$"))
    before = label.text_content()
    line = spectator.locator("#chances [data-chance-line]")
    points_before = line.get_attribute("points")

    player, _ = new_page()
    log_in(player, asgi_url(), "alice", path)
    expect(player.locator("#match-live")).to_be_visible()
    expect(player.locator("#chances")).to_have_count(0)

    started = time.monotonic()
    decide(game)  # the roll
    decide(game)  # the play
    expect(line).not_to_have_attribute("points", points_before or "")
    print(
        f"the chance reached the spectator's page {time.monotonic() - started:.2f} s after the move"
    )
    assert line.get_attribute("points").count(" ") == 1  # the start and the move: two points
    assert label.text_content() != before  # this seed's network moves the bar by the play
    expect(player.locator("#chances")).to_have_count(0)
    spectator.screenshot(path=str(artifacts / "match-chances.png"), full_page=True)
    assert console.errors == []


@pytest.mark.parametrize("evaluator", ["weights", "trained_weights"])
def test_the_bar_moves_with_each_move_and_neither_player_gets_a_chance(
    request, evaluator, pushed, new_page, alice, bob, organiser, artifacts
):
    """Issue 23's "done when", with the tiny test networks and with the committed ones: a
    spectator's bar and graph follow each move over the socket, while both players' pages carry
    no bar and their API answers refuse the chances."""
    request.getfixturevalue(evaluator)
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob, rated=False)
    game = match.games.get()
    path = f"/matches/{match.pk}/"
    api = f"{asgi_url()}/api/v1/matches/{match.pk}/chances/"
    spectator, console = new_page()
    spectator.goto(f"{asgi_url()}{path}")
    label = spectator.locator("#chances [data-chance-one-label]")
    expect(label).to_have_text(re.compile(r"^Alice \d+ %$"))
    line = spectator.locator("#chances [data-chance-line]")
    expect(line).to_have_attribute("points", re.compile(r"^\S+$"))  # the start: one point
    assert spectator.request.get(api).status == 200

    players = []
    for username in ("alice", "bob"):
        page, _ = new_page()
        log_in(page, asgi_url(), username, path)
        expect(page.locator("#match-live")).to_be_visible()
        expect(page.locator("#chances")).to_have_count(0)
        answer = page.request.get(api)
        assert answer.status == 403, (username, answer.status)
        assert set(answer.json()) == {"detail"}, answer.text()  # a refusal, no figures
        players.append(page)

    asked: list[str] = []  # the page's reads of the chances: after the first, ?after= (D160)
    spectator.on("request", lambda r: asked.append(r.url) if "/chances/" in r.url else None)
    labels = [label.text_content()]
    for _ in range(6):
        decide(game)  # the roll (a roll with no play passes the turn at once)
        decide(game)  # the play, or the next roll
        shown = len(spectator.request.get(api).json()["points"])
        expect(line).to_have_attribute("points", re.compile(r"^\S+" + r" \S+" * (shown - 1) + "$"))
        labels.append(label.text_content())
    assert len(set(labels)) > 1, labels  # the bar moved with the moves
    assert sum("?after=" in url for url in asked) >= 6, asked
    fresh, fresh_console = new_page()  # the graph put together from the later points is whole
    fresh.goto(f"{asgi_url()}{path}")
    fresh_line = fresh.locator("#chances [data-chance-line]")
    expect(fresh_line).to_have_attribute("points", line.get_attribute("points"))
    assert fresh_console.errors == []
    for page in players:
        expect(page.locator("#chances")).to_have_count(0)
        assert page.request.get(api).status == 403
    spectator.screenshot(path=str(artifacts / f"match-chances-{evaluator}.png"), full_page=True)
    assert console.errors == []


def test_a_graph_built_from_later_points_keeps_the_newest_as_a_whole_answer_does(
    pushed, weights, new_page, alice, bob, organiser, settings
):
    """Past CHANCES_MAX_POINTS a whole answer holds the newest points only; a page that appends
    the later points drops its oldest so as to draw what a page opened now draws."""
    settings.CHANCES_MAX_POINTS = 3
    match, game, path = unrated(organiser, alice, bob)
    spectator, console = new_page()
    spectator.goto(f"{asgi_url()}{path}")
    line = spectator.locator("#chances [data-chance-line]")
    expect(line).to_have_attribute("points", re.compile(r"^\S+$"))  # the start: one point
    for _ in range(4):
        decide(game)
        decide(game)
        expect(line).not_to_have_attribute("points", re.compile(r"^\S+(?: \S+){3,}$"))
    answer = spectator.request.get(f"{asgi_url()}/api/v1/matches/{match.pk}/chances/").json()
    assert answer["truncated"], answer
    fresh, fresh_console = new_page()
    fresh.goto(f"{asgi_url()}{path}")
    fresh_line = fresh.locator("#chances [data-chance-line]")
    expect(fresh_line).to_have_attribute("points", re.compile(r"^\S+ \S+ \S+$"))
    expect(line).to_have_attribute("points", fresh_line.get_attribute("points"))
    assert console.errors == [] and fresh_console.errors == []
