"""The review section of a finished match's page (games/postgame.py; docs/analysis.md "After the
game"): ``{% match_review match %}`` renders templates/games/_review_section.html, nothing while
the match is on, without an evaluator for its variants or without a decision to review.

Each mistake is drawn on the board of the position before it, the play made and the better play
as arrows (games.board_svg.play_arrows, docs/decisions.md D168), and links to the match's replay
at its turn; each player's average error has its rating band, and the card lists the bands
(D169)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import pgettext_lazy

from games import postgame
from games.board_svg import board_frame, board_pieces, play_arrows
from games.engine import Options
from games.models import Match
from games.state import match_options

register = template.Library()

BAND_LABELS = {
    "world_class": pgettext_lazy("a player's rating band", "World class"),
    "expert": pgettext_lazy("a player's rating band", "Expert"),
    "advanced": pgettext_lazy("a player's rating band", "Advanced"),
    "intermediate": pgettext_lazy("a player's rating band", "Intermediate"),
    "casual": pgettext_lazy("a player's rating band", "Casual player"),
    "beginner": pgettext_lazy("a player's rating band", "Beginner"),
}


@register.inclusion_tag("games/_review_section.html")
def match_review(match: Match) -> dict[str, Any]:
    if not postgame.offered(match):
        return {"review": None}
    review = postgame.review_for(match=match)
    if not any(side.decisions for side in review.players):
        return {"review": None}  # no turn log (an over-the-board match without records)
    options = match_options(match)
    page = reverse("web:match", kwargs={"pk": match.pk})
    players = [
        {
            "review": side,
            "band": side.band and {"key": side.band, "label": BAND_LABELS[side.band]},
            "mistakes": [_mistake(mistake, options, page) for mistake in side.mistakes],
        }
        for side in review.players
    ]
    bands = postgame.bands_depth(review.depths)
    return {"review": review, "players": players, "bands": _bands(bands)}


def _mistake(mistake: postgame.Mistake, options: Options, page: str) -> dict[str, Any]:
    """A mistake's row: its board before the play with both plays' arrows, and the address of
    the match's replay at its turn (``?game=N#ply-P``, read by static/js/match.js)."""
    made, best = postgame.mistake_steps(mistake, options)
    dice = None if mistake.pending else mistake.dice
    return {
        "mistake": mistake,
        "replay": f"{page}?game={mistake.game}#ply-{mistake.turn}",
        "board": {
            "frame": board_frame(mistake.variant),
            "pieces": board_pieces(mistake.position, dice),
            # the better play under the play made, whose dashes let it show through
            "arrows": play_arrows(best, mistake.colour, "best")
            + play_arrows(made, mistake.colour, "made"),
        },
    }


def _bands(depth: int) -> list[dict[str, Any]]:
    """The bands of ``depth`` from the best down, each with its range of the average error."""
    rows = []
    low = 0.0
    for key, bound in postgame.BANDS[depth]:
        rows.append({"key": key, "label": BAND_LABELS[key], "low": low, "high": bound})
        low = bound
    rows[-1]["high"] = None
    return rows
