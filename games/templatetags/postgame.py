"""The review section of a finished match's page (games/postgame.py; docs/analysis.md "After the
game"): ``{% match_review match %}`` renders templates/games/_review_section.html, nothing while
the match is on, without an evaluator for its variants or without a decision to review."""

from __future__ import annotations

from typing import Any

from django import template

from games import postgame
from games.board_svg import board_frame, board_pieces
from games.models import Match

register = template.Library()

BOARDS_SHOWN = 1  # per player: the better play of the biggest mistake drawn on a board


@register.inclusion_tag("games/_review_section.html")
def match_review(match: Match) -> dict[str, Any]:
    if not postgame.offered(match):
        return {"review": None}
    review = postgame.review_for(match=match)
    if not any(side.decisions for side in review.players):
        return {"review": None}  # no turn log (an over-the-board match without records)
    players = []
    for side in review.players:
        mistakes = [
            {
                "mistake": mistake,
                "board": (
                    {
                        "frame": board_frame(mistake.variant),
                        "pieces": board_pieces(mistake.best_position),
                    }
                    if index < BOARDS_SHOWN
                    else None
                ),
            }
            for index, mistake in enumerate(side.mistakes)
        ]
        players.append({"review": side, "mistakes": mistakes})
    return {"review": review, "players": players}
