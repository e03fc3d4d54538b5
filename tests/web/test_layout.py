"""What only a browser shows, measured with the elements' boxes at desktop (1280x800) and
phone (390x844) size: bracket names clear of their scores, the cue that a bracket wider than
the screen scrolls, a play in the move log kept on one line. Screenshots:
tests/artifacts/layout-*.png."""

import pytest
from playwright.sync_api import expect

from games.engine import legal_plays, start_position
from games.models import Match, Turn
from tests.games.factories import MatchFactory, PlayerFactory
from tests.tournaments.conftest import Api
from tests.tournaments.factories import UserFactory
from tests.tournaments.helpers import play_all, tournament_running
from tests.web.positions import game_with_position

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = (1280, 800)
PHONE = (390, 844)
NAMES = ("Konstantin Dimitrovski", "Aleksandra Hristovska")

# For every play of the move log: how many boxes the play and each of its moves take (one each
# when no line break falls inside), and whether all its moves share one line.
PLAY_BOXES = """() => Array.from(document.querySelectorAll(".move-log .moves")).map(play => {
  const moves = Array.from(play.querySelectorAll(".move"));
  const tops = new Set(moves.map(move => Math.round(move.getBoundingClientRect().top)));
  return {
    text: play.textContent,
    boxes: play.getClientRects().length,
    moveBoxes: moves.map(move => move.getClientRects().length),
    lines: tops.size,
  };
})"""


# For every player of a bracket with a score: the room between the end of the name as drawn
# (clipped to its box where the name hides its overflow) and the start of the score.
NAME_GAPS = """() => Array.from(document.querySelectorAll(".bracket-player")).flatMap(player => {
  const name = player.querySelector(".name"), score = player.querySelector(".pts");
  if (!name || !score || !score.textContent.trim()) return [];
  const text = document.createRange();
  text.selectNodeContents(name);
  const clipped = getComputedStyle(name).overflowX !== "visible";
  const end = clipped
    ? Math.min(text.getBoundingClientRect().right, name.getBoundingClientRect().right)
    : text.getBoundingClientRect().right;
  return [{
    name: name.textContent,
    winner: player.classList.contains("winner"),
    gap: Math.round(score.getBoundingClientRect().left - end),
  }];
})"""


@pytest.fixture
def long_named_cup(django_capture_on_commit_callbacks) -> int:
    """A played 4-player single elimination whose names are long, one of them a single word."""
    names = [
        "Vesna Trajkovska",
        "Aleksandra Hristovska-Stojanovska",
        "Konstantinopolitanski",
        "Ana",
    ]
    players = [
        PlayerFactory(display_name=name, rating=1800.0 - 20 * i) for i, name in enumerate(names)
    ]
    api = Api(UserFactory(username="organiser"), django_capture_on_commit_callbacks)
    pk = tournament_running(api, players, format="single_elimination")["id"]
    play_all(api, pk)
    return pk


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_bracket_names_never_run_into_their_scores(
    live_server, new_page, long_named_cup, size, artifacts
):
    page, console = new_page(*size)
    page.goto(f"{live_server.url}/tournaments/{long_named_cup}/")
    name = f"layout-bracket-{size[0]}.png"
    page.locator("#bracket").screenshot(path=str(artifacts / name))
    gaps = page.evaluate(NAME_GAPS)
    assert len(gaps) == 6 and sum(row["winner"] for row in gaps) == 3
    assert [row for row in gaps if row["gap"] < 4] == []
    assert console.errors == []


# Each bracket section's scroll cue: the "scroll →" hint shown, and the fades at the right and
# left edges (the section's ::after and ::before) drawn.
SCROLL_CUES = """() => Array.from(document.querySelectorAll(".bracket-section")).map(section => {
  const hint = section.querySelector("[data-scroll-hint]");
  const drawn = side => {
    const style = getComputedStyle(section, side);
    return style.content !== "none" && style.display !== "none" && style.opacity === "1";
  };
  return {
    hint: Boolean(hint && hint.checkVisibility({ visibilityProperty: true })),
    right: drawn("::after"),
    left: drawn("::before"),
  };
})"""


def cup(capture, size: int) -> int:
    players = [PlayerFactory(display_name=f"Player {i}", rating=1800.0 - i) for i in range(size)]
    api = Api(UserFactory(username=f"organiser-{size}"), capture)
    return tournament_running(api, players, format="single_elimination")["id"]


def test_a_bracket_wider_than_a_phone_says_that_it_scrolls(
    live_server, new_page, django_capture_on_commit_callbacks, artifacts
):
    eight = cup(django_capture_on_commit_callbacks, 8)  # 3 rounds
    page, console = new_page(*PHONE)
    page.goto(f"{live_server.url}/tournaments/{eight}/")
    # tournament.js marks the section once laid out (the stylesheet draws the cues from that)
    expect(page.locator(".bracket-section")).to_contain_class("overflow-right")
    page.locator("#bracket").screenshot(path=str(artifacts / "layout-bracket-scroll-cue.png"))
    assert page.evaluate(SCROLL_CUES) == [{"hint": True, "right": True, "left": False}]
    page.evaluate("document.querySelector('.bracket').scrollLeft = 100")
    page.wait_for_function(  # a function, not an expression: the page's CSP forbids eval
        "() => document.querySelector('.bracket-section').classList.contains('overflow-left')"
    )
    assert page.evaluate(SCROLL_CUES)[0] == {"hint": True, "right": True, "left": True}
    page.evaluate("document.querySelector('.bracket').scrollLeft = 10000")  # to the end
    page.wait_for_function(
        "() => !document.querySelector('.bracket-section').classList.contains('overflow-right')"
    )
    assert page.evaluate(SCROLL_CUES)[0] == {"hint": False, "right": False, "left": True}
    page.locator("#bracket").screenshot(path=str(artifacts / "layout-bracket-scrolled.png"))

    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})  # wide enough: no cue
    page.wait_for_function(
        "() => !document.querySelector('.bracket-section').classList.contains('overflow-left')"
    )
    assert page.evaluate(SCROLL_CUES) == [{"hint": False, "right": False, "left": False}]
    assert console.errors == []


def test_a_bracket_that_fits_a_phone_shows_no_scroll_cue(
    live_server, new_page, django_capture_on_commit_callbacks
):
    two = cup(django_capture_on_commit_callbacks, 2)
    page, console = new_page(*PHONE)
    page.goto(f"{live_server.url}/tournaments/{two}/")
    page.wait_for_selector(".bracket-match")
    assert page.evaluate(SCROLL_CUES) == [{"hint": False, "right": False, "left": False}]
    assert console.errors == []


def test_a_doubles_play_stays_on_one_line_in_the_move_log(live_server, new_page, artifacts):
    one, two = (PlayerFactory(display_name=name) for name in NAMES)
    match = MatchFactory(player_one=one, player_two=two, mode=Match.Mode.ONLINE)
    doubles = next(
        outcome
        for outcome in legal_plays("tabla", start_position("tabla", "w"), [4, 4])
        if str(outcome.play) == "24/20 24/20 6/2 6/2"
    )
    after = doubles.position.to_json()
    game = game_with_position(match, "tabla", after)
    Turn.objects.create(
        game=game, ply=1, side="w", kind=Turn.Kind.ROLL, dice=[4, 4],
        moves=doubles.play.to_json(), position_after=after,
    )  # fmt: skip
    page, console = new_page(*PHONE)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#move-log").screenshot(path=str(artifacts / "layout-move-log-phone.png"))
    plays = page.evaluate(PLAY_BOXES)
    assert plays == [
        {"text": "24/20 24/20 6/2 6/2", "boxes": 1, "moveBoxes": [1, 1, 1, 1], "lines": 1}
    ]
    assert console.errors == []


def test_swiss_standings_wider_than_a_phone_say_that_they_scroll(
    live_server, new_page, django_capture_on_commit_callbacks, artifacts
):
    players = [PlayerFactory(display_name=f"Player {i}", rating=1800.0 - i) for i in range(6)]
    api = Api(UserFactory(username="organiser-swiss"), django_capture_on_commit_callbacks)
    pk = tournament_running(api, players, format="swiss")["id"]
    play_all(api, pk, limit=3)  # the first round: standings with their tie-break columns
    page, console = new_page(*PHONE)
    page.goto(f"{live_server.url}/tournaments/{pk}/#standings")
    cue = page.locator("#standings .scroll-cue")
    expect(cue).to_contain_class("overflow-right")
    expect(cue.locator("[data-scroll-hint]")).to_be_visible()
    page.locator("#standings").screenshot(path=str(artifacts / "layout-standings-scroll-cue.png"))
    cue.locator(".table-scroll").evaluate("node => { node.scrollLeft = 10000; }")
    expect(cue).not_to_contain_class("overflow-right")
    expect(cue).to_contain_class("overflow-left")
    assert console.errors == []
