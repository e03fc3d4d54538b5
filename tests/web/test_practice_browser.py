"""Practice against the computer in Debian's chromium (games/practice.py, D131, D132, D145,
D146): Alice starts a practice match from the lobby's form, or from the home page's after
logging in from it, lands on its board with the computer's turn already played, and the Hint
button shows the computer's best play for her dice as text and draws it on the board."""

import re

import pytest
from playwright.sync_api import expect

from games import practice, selectors, services
from games.models import Match
from tests.web.asgi_server import asgi_url
from tests.web.helpers import log_in, your_dice_to_choose

pytestmark = pytest.mark.django_db(transaction=True)


def test_practice_from_the_lobby_with_a_hint(weights, new_page, alice, artifacts):
    page, console = new_page()
    log_in(page, asgi_url(), "alice", "/lobby/")
    form = page.locator("#practice form")
    form.locator("select[name=strength]").select_option("strong")
    form.locator("input[name=match_length]").fill("1")
    form.get_by_role("button", name="Play the computer").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    expect(page.locator("#match-live")).to_contain_text("Computer (strong)")
    game = selectors.current_game(match)
    assert selectors.player_to_move(game) == alice  # the computer has played if it began
    for _ in range(20):  # roll until Alice has dice to play (a roll without a play passes)
        game = selectors.current_game(match)
        if not selectors.is_roll_due(game):
            break
        services.dice_roll(game=game, player=alice)
    game = selectors.current_game(match)
    page.locator("#practice-hint [data-hint-button]").click()
    hint = page.locator("#practice-hint [data-hint-text]")
    expect(hint).to_have_text(re.compile(r"^\S+/\S+"))
    legal = {str(outcome.play) for outcome in selectors.game_legal_plays(game)}
    assert hint.text_content() in legal
    page.screenshot(path=str(artifacts / "practice-hint.png"), full_page=True)
    assert console.errors == []


PHONE = {"width": 390, "height": 844}


def test_practice_from_the_home_page_with_the_hint_on_the_board(
    weights, new_page, alice, artifacts
):
    """A visitor on a phone: the home page's practice card leads to the login and back to the
    form (D145); the match's Hint draws the best play on the board, step by step, and the
    drawing goes when Alice moves a checker while the text stays (D146)."""
    page, console = new_page(**PHONE)
    base = asgi_url()
    page.goto(f"{base}/")
    card = page.locator("#practice")
    expect(card).to_be_visible()
    page.screenshot(path=str(artifacts / "practice-home-visitor-phone.png"), full_page=True)
    card.get_by_role("link", name="Log in").click()
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "password")
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{base}/#practice")
    form = page.locator("#practice form")
    expect(form).to_be_visible()
    expect(form.locator("select[name=strength] option")).to_have_count(3)
    expect(form.locator("select[name=strength]")).to_have_accessible_description(
        re.compile(r"casual club player.*looking one roll ahead")
    )  # what each strength plays like, read with the select and shown under it (D170)
    expect(form.locator("#practice-strengths")).to_be_visible()
    page.screenshot(path=str(artifacts / "practice-home-phone.png"), full_page=True)
    form.locator("select[name=strength]").select_option("strong")
    form.get_by_role("button", name="Play the computer").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert match.player_two.computer == "strong" and not match.rated

    your_dice_to_choose(match, alice)
    game = selectors.current_game(match)
    page.reload()
    expect(page.locator("[data-board-play] [data-play-status]")).to_be_visible()
    # The button sits in the board's panel, under Submit and Undo, where the player looks.
    hint_button = page.locator("[data-board-play] #practice-hint [data-hint-button]")
    hint_button.click()
    text = page.locator("#practice-hint [data-hint-text]")
    expected = practice.practice_hint(user=alice.user, game=game.pk)
    expect(text).to_have_text(expected.text)
    steps = page.locator("[data-board-hint] .hint-step")
    expect(steps.first).to_be_visible()
    drawn = steps.evaluate_all("nodes => nodes.map(node => node.dataset.hintStep)")
    assert sorted(m.rstrip("*") for m in drawn) == sorted(m.rstrip("*") for m in expected.moves)
    expect(page.locator("#practice-hint")).to_have_attribute("data-hint-drawn", "true")
    expect(page.locator("[data-board-hint] .hint-arrow").first).to_be_attached()
    page.locator("#match-live svg.board").screenshot(
        path=str(artifacts / "practice-hint-board-phone.png")
    )

    # Alice makes the first step of the hint herself: the drawing goes, the words stay.
    first = steps.first
    source, target = first.get_attribute("data-hint-from"), first.get_attribute("data-hint-to")
    page.locator(f'[data-board-input] .hit.source[data-target="{source}"]').click()
    page.locator(f'[data-board-input] .destination[data-target="{target}"]').click()
    expect(steps).to_have_count(0)
    expect(text).to_have_text(expected.text)
    assert console.errors == []


TURNS = 200  # a bound on Alice's decisions in a one-point match


def tap(node) -> None:
    """Taps ``node`` and waits until the page has taken the tap, so that the next look at the
    page does not find the board or the button of before it: the node is gone then, or
    disabled (board_play.js draws the board's input layer anew after each move, match.js
    disables the button whose action it sends)."""
    node.evaluate("node => node.setAttribute('data-tapped', '')")
    node.tap()
    expect(node.page.locator("[data-tapped]:not(:disabled)")).to_have_count(0)


def test_a_whole_practice_match_played_on_the_board_of_a_phone(weights, new_page, alice, artifacts):
    """Issue 23's "the practice match is playable to the end on the board": Alice starts a
    one-point match against the beginner from the lobby and plays it out on a phone as a player
    does: Roll when a roll is due, then a checker and one of its lit destinations, again until
    the play is complete, and Submit; a forced play (or a pass) goes by itself (D47), and the
    computer answers each turn at once (D132). The page then shows the match over. Alice
    unticks "Roll my dice for me" (D164), so that the Roll button is played too."""
    page, console = new_page(**PHONE, has_touch=True, is_mobile=True)
    log_in(page, asgi_url(), "alice", "/lobby/")
    form = page.locator("#practice form")
    form.locator("select[name=strength]").select_option("beginner")
    form.locator("input[name=match_length]").fill("1")
    form.locator("input[name=auto_roll]").uncheck()
    form.get_by_role("button", name="Play the computer").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert match.target_score == 1 and match.player_two.computer == "beginner"

    live = page.locator("#match-live")
    finished = live.locator("[data-match-status=finished]")
    roll = live.locator("#play-panel [data-action=roll]:enabled")
    sources = live.locator("[data-board-input] .hit.source")
    destinations = live.locator("[data-board-input] .destination")
    submit = live.locator("[data-board-play] [data-action=submit-play]")
    rolls = plays = 0
    for _ in range(TURNS):
        # What is due now: the match over, a roll, or a choice of checkers to move (a forced
        # play shows neither and is sent by the board itself).
        expect(finished.or_(roll).or_(sources).first).to_be_visible()
        if finished.count():
            break
        if roll.count():
            tap(roll)
            rolls += 1
            continue
        for _step in range(8):  # a play has at most four steps, a click each at most
            if not destinations.count():
                tap(sources.first)
            tap(destinations.first)
            expect(submit.and_(page.locator(":enabled")).or_(sources).first).to_be_visible()
            if submit.is_enabled():
                break
        else:
            raise AssertionError(f"no complete play after 8 moves: {console.errors}")
        tap(submit)
        plays += 1
    else:
        raise AssertionError(f"the match is not over after {TURNS} decisions of Alice")

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner in (alice, match.player_two)
    assert rolls > 0 and plays > 0
    game = match.games.order_by("-number").first()
    assert game is not None and game.is_over and game.result_winner == match.winner
    expect(live.locator(".match-header")).to_contain_text(
        f"{match.winner.display_name} wins the match"
    )
    expect(live.locator("[data-turn-line]")).to_contain_text(
        f"{match.winner.display_name} won this game"
    )
    expect(live.locator("#play-panel")).to_have_count(0)
    expect(live.locator("[data-board-play]")).to_have_count(0)
    expect(page.locator("#practice-hint")).to_be_hidden()  # no hint once the match is over
    page.screenshot(path=str(artifacts / "practice-match-over-phone.png"), full_page=True)
    assert console.errors == []


def test_a_fragment_asked_for_before_a_roll_does_not_bring_the_roll_button_back(
    weights, new_page, alice
):
    """static/js/match.js (D157): the page's poll asks for the live fragment; Alice rolls
    before it comes; the fragment, drawn before the roll, arrives after the roll's own: the
    page keeps the board of her dice (it showed the used Roll button again, and a tap on it
    failed). The roll's fragment carries its version: no poll fetches it a second time."""
    services.practice_start(user=alice.user, strength="beginner", target_score=1, auto_roll=False)
    match = Match.objects.get()
    for _ in range(40):  # forced plays of Alice until she is to roll
        game = selectors.current_game(match)
        if selectors.is_roll_due(game):
            break
        legal = selectors.game_legal_plays(game)
        services.play_submit(game=game, player=alice, ply=game.ply, moves=legal[0].play.to_json())
    page, console = new_page(**PHONE)
    fragments: list[str] = []
    held: list = []

    def hold_the_first(route) -> None:
        fragments.append(route.request.url)
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/matches/*/live/", hold_the_first)
    log_in(page, asgi_url(), "alice", f"/matches/{match.pk}/")
    roll = page.locator("#play-panel [data-action=roll]")
    expect(roll).to_be_enabled()
    # The next poll finds a new version, and asks for the fragment: held until Alice has rolled.
    page.route("**/state.json", lambda route: route.fulfill(
        status=200, headers={"ETag": '"elsewhere"'}, json={}
    ))  # fmt: skip
    with page.expect_request("**/matches/*/live/"):
        pass
    page.unroute("**/state.json")
    stale = held[0].fetch()  # the page as it is before the roll
    roll.click()
    expect(page.locator("[data-board-play] [data-play-status]")).to_be_visible()
    expect(roll).to_have_count(0)
    board = page.locator("[data-board-play]")
    board.evaluate("node => node.setAttribute('data-kept', '')")
    with page.expect_request("**/state.json"):  # the poll goes on once the held one is done
        held[0].fulfill(response=stale)
    with page.expect_request("**/state.json"):  # a poll more: the version is the one shown
        pass
    # The board of her dice was never drawn over: not by the held fragment, not again.
    expect(page.locator("[data-board-play][data-kept] [data-play-status]")).to_be_visible()
    expect(roll).to_have_count(0)
    assert len(fragments) == 2  # the held one and the roll's, none again for the same version
    assert console.errors == []


def test_a_practice_match_rolls_for_the_player_by_default(weights, new_page, alice):
    """D164: the lobby's practice form has "Roll my dice for me" ticked, so Alice's dice are on
    the table whenever it is her turn: no Roll button to find below the fold of a phone."""
    page, console = new_page(**PHONE, has_touch=True, is_mobile=True)
    log_in(page, asgi_url(), "alice", "/lobby/")
    form = page.locator("#practice form")
    expect(form.locator("input[name=auto_roll]")).to_be_checked()
    form.locator("select[name=strength]").select_option("beginner")
    form.get_by_role("button", name="Play the computer").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert match.auto_roll
    turn_line = page.locator("[data-turn-line]")
    expect(turn_line).to_contain_text("Alice to play")
    expect(page.locator("[data-board-play] [data-play-status]")).to_be_visible()
    expect(page.locator("[data-action=roll]")).to_have_count(0)
    game = selectors.current_game(match)
    assert not selectors.is_roll_due(game) and game.dice is not None
    assert console.errors == []
