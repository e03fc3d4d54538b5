"""What only a browser shows, measured with the elements' boxes at phone size (390x844): a
play in the move log kept on one line. Screenshots: tests/artifacts/layout-*.png."""

import pytest

from games.engine import legal_plays, start_position
from games.models import Match, Turn
from tests.games.factories import MatchFactory, PlayerFactory
from tests.web.positions import game_with_position

pytestmark = pytest.mark.django_db(transaction=True)

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
