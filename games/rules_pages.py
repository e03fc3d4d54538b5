"""The rules pages (/rules/): the match, the three games with board diagrams, what each preset
changes, and a FAQ for players and organisers (issue 21 §6; docs/decisions.md D97).

Every diagram is a position the engine reached: a starting layout, or a worked case of
docs/rules.md §9, then plays checked by the engine (``check_play``), drawn by the match page's
own board (games/board_svg.py, templates/games/_board.html). A diagram that stops being legal
fails its page and tests/games/test_rules_pages.py. The presets page is built from
``PRESETS`` and ``Options`` themselves, so it lists what each preset really changes."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from games.board_svg import board_frame, board_pieces
from games.engine import (
    DEFAULT_OPTIONS,
    PRESETS,
    Options,
    Position,
    check_play,
    start_position,
)

Stack = list[tuple[str, int]]


def case_position(
    turn: str,
    points: dict[int, Stack],
    *,
    bar: tuple[int, int] = (0, 0),
    rolls: tuple[int, int] = (5, 5),
) -> Position:
    """A position written as docs/rules.md §9 writes its cases: the stacks by white-numbered
    point; each side has borne off the checkers not on the board or the bar."""
    on_board = {"w": bar[0], "b": bar[1]}
    for stack in points.values():
        for colour, count in stack:
            on_board[colour] += count
    return Position.from_json(
        {
            "turn": turn,
            "points": [[list(pair) for pair in points.get(p, [])] for p in range(1, 25)],
            "bar": {"w": bar[0], "b": bar[1]},
            "off": {"w": 15 - on_board["w"], "b": 15 - on_board["b"]},
            "rolls": {"w": rolls[0], "b": rolls[1]},
        }
    )


@dataclass(frozen=True)
class Diagram:
    """A position of ``variant``: ``start`` (else the starting layout, white to move), then
    ``plays`` ((dice, moves) each, checked by the engine), drawn with ``dice`` on the board
    (the roll the caption talks about; none when it shows a play made)."""

    key: str
    variant: str
    title: Promise
    caption: Promise
    start: Position | None = None
    plays: tuple[tuple[tuple[int, int] | None, str], ...] = ()
    dice: tuple[int, ...] = ()
    preset: str = "macedonian"  # the rules the plays are checked by

    @property
    def options(self) -> Options:
        return PRESETS[self.preset]

    def position(self) -> Position:
        position = self.start or start_position(self.variant)
        for dice, moves in self.plays:
            position = check_play(self.variant, position, dice, moves, self.options).position
        return position

    def drawn(self) -> dict[str, Any]:
        position = self.position().to_json()
        return {
            "key": self.key,
            "title": self.title,
            "caption": self.caption,
            "frame": board_frame(self.variant),
            "pieces": board_pieces(position, self.dice or None),
        }


TABLA_OPENING = (((4, 2), "8/4 6/4"), ((6, 4), "24/18 13/9"))
TABLA_HIT = (*TABLA_OPENING, ((6, 1), "13/7 8/7"))

DIAGRAMS: dict[str, tuple[Diagram, ...]] = {
    "tabla": (
        Diagram(
            "setup",
            "tabla",
            _("The start"),
            _(
                "Each player has 2 checkers on their 24-point, 5 on the 13, 3 on the 8 and 5 on "
                "the 6. White moves from 24 down to 1 (the large numbers), black the other way "
                "(the small numbers), and each bears off from their own home board, points 1 to 6."
            ),
        ),
        Diagram(
            "hit",
            "tabla",
            _("Hitting a lone checker"),
            _(
                "White opened 4-2 (8/4 6/4), black answered 6-4 (24/18 13/9) and left a checker "
                "alone on white's 7-point. White rolled 6-1 and played 13/7 8/7: the 6 landed on "
                "the lone black checker and sent it to the bar, in the middle of the board."
            ),
            plays=TABLA_HIT,
        ),
        Diagram(
            "bar",
            "tabla",
            _("Entering from the bar"),
            _(
                "A checker on the bar must enter in the opponent's home board before anything "
                "else moves: with a 6 on white's 6-point, with a 4 on white's 4-point. Black "
                "rolled 6-4, and both points are held by two white checkers or more: black "
                "cannot enter, may move nothing else, and the turn passes."
            ),
            plays=TABLA_HIT,
            dice=(6, 4),
        ),
    ),
    "gul_bara": (
        Diagram(
            "setup",
            "gul_bara",
            _("The start"),
            _(
                "All 15 checkers of each player start on their own 24-point, in opposite "
                "corners: white on white's 24, black on white's 12. Both move the same way "
                "round, so each army passes through the other's home board on its way home."
            ),
        ),
        Diagram(
            "block",
            "gul_bara",
            _("One checker holds a point"),
            _(
                "There is no hitting: a single checker blocks its point. White rolled 4-1: "
                "24/20 and 17/16 are not allowed, because each would land on a lone black "
                "checker. White may play 19/15 15/14, 24/23 23/19 or 17/13 19/18, for example."
            ),
            start=case_position(
                "w",
                {24: [("w", 13)], 19: [("w", 1)], 17: [("w", 1)], 20: [("b", 1)]}
                | {16: [("b", 1)], 12: [("b", 13)]},
                rolls=(2, 2),
            ),
            dice=(4, 1),
        ),
        Diagram(
            "cascade",
            "gul_bara",
            _("A double from the 4th roll escalates"),
            _(
                "From a player's 4th roll on, a double is played in stages: four of its number, "
                "then four of the next, up to four 6s. White's 4th roll is 5-5: four 5s take the "
                "checkers from the 6-point to the 1-point (6/1 four times)."
            ),
            start=case_position("w", {6: [("w", 4)], 13: [("b", 15)]}, rolls=(3, 3)),
            dice=(5, 5),
        ),
        Diagram(
            "cascade-next",
            "gul_bara",
            _("... then four 6s"),
            _(
                "The 5s played, four 6s follow: white bears the four checkers off and wins a "
                "mars, 2 points, since black has borne off none. A stage that cannot be played "
                "in full ends the chain, and the dice left over pass to the opponent, who plays "
                "them before rolling."
            ),
            start=case_position("w", {6: [("w", 4)], 13: [("b", 15)]}, rolls=(3, 3)),
            plays=(((5, 5), "6/1 6/1 6/1 6/1"),),
            dice=(6, 6),
        ),
    ),
    "tapa": (
        Diagram(
            "setup",
            "tapa",
            _("The start"),
            _(
                "All 15 checkers of each player start on their own 24-point, which is the "
                "opponent's 1-point: white on white's 24, black on white's 1. They move in "
                "opposite directions, as in Tabla."
            ),
        ),
        Diagram(
            "pin",
            "tapa",
            _("Pinning"),
            _(
                "A checker that lands on a lone opposing checker pins it: the pinned checker "
                "cannot move until every checker on top of it has left. White rolled 3-1 and "
                "played 13/10 11/10: the black checker on white's 10-point is pinned under two "
                "white ones (the ring marks it). Two checkers or more block a point, and so "
                "does a pinner."
            ),
            start=case_position(
                "w",
                {24: [("w", 12)], 13: [("w", 2)], 11: [("w", 1)], 10: [("b", 1)]}
                | {1: [("b", 14)]},
            ),
            plays=(((3, 1), "13/10 11/10"),),
        ),
        Diagram(
            "mother",
            "tapa",
            _("The mother"),
            _(
                "A player's last checker on their own 24-point is their mother. White, with no "
                "checker left on white's 24-point, rolled 6-2 and played 3/1: it pins black's "
                "mother, and white wins at once, 2 points. Both mothers pinned is a tie: the "
                "Tapa is played again."
            ),
            start=case_position(
                "w", {3: [("w", 1)], 8: [("w", 14)], 1: [("b", 1)]} | {20: [("b", 14)]}
            ),
            plays=(((6, 2), "3/1"),),
        ),
    ),
}

PRESET_DIAGRAMS: dict[str, tuple[Diagram, ...]] = {
    "greek_tavli": (
        Diagram(
            "first-runner",
            "gul_bara",
            _("Fevga: the first runner"),
            _(
                "With this preset white's opening 6-6 is a single 6, 24/18: no second checker "
                "may leave the start before the first has passed the opponent's start, and "
                "18/12 would land on it. In the Macedonian match the same roll moves four "
                "checkers to the 18-point. And a double never escalates."
            ),
            plays=(((6, 6), "24/18"),),
            preset="greek_tavli",
        ),
    ),
}

GAMES = {  # the page's slug: (variant, name)
    "tabla": ("tabla", _("Tabla")),
    "gul-bara": ("gul_bara", _("Gjul Bara")),
    "tapa": ("tapa", _("Tapa")),
}


def game_rules_url(variant: str) -> str:
    """The address of the rules page of ``variant`` (the match page links to it)."""
    slug = next(slug for slug, (v, _name) in GAMES.items() if v == variant)
    return reverse("web:rules-game", kwargs={"game": slug})


@cache
def diagrams(variant: str) -> tuple[dict[str, Any], ...]:
    """The drawn diagrams of ``variant``'s page (built once: they never change)."""
    return tuple(diagram.drawn() for diagram in DIAGRAMS[variant])


# --- presets ---------------------------------------------------------------------------------

OPTION_TEXT: dict[str, Promise] = {
    "match_length": _("The score that wins the match."),
    "cycle": _("The order of the games, repeated."),
    "opening_roll": _(
        "After the opening roll, the winner rolls both dice afresh, or plays the two opening dice."
    ),
    "next_starter": _("Who starts the next game: its previous winner, or an opening roll."),
    "cube": _("The doubling cube: off, in Tabla only, or in every game."),
    "crawford": _("No doubling in the game after a player first reaches one point short."),
    "tabla_triple": _("A Tabla win is worth 3 when the loser is still deep in trouble."),
    "tabla_hit_and_run_home": _("A checker that hits in the home board may move on."),
    "cascade": _("Escalating doubles in Gjul Bara."),
    "cascade_from_roll": _("The first roll of a player whose double escalates."),
    "cascade_count": _("Whose rolls count towards it: the player's own, or both players'."),
    "cascade_remainder": _("The dice of a chain that cannot be played: to the opponent, or lost."),
    "unstarted_chain": _("A double that cannot be started: lost, or passed to the opponent."),
    "cascade_scope": _("Whether each stage of a chain is judged on its own."),
    "first_runner": _("No second checker leaves the start before the first passes the other's."),
    "start_quarter_block": _("Nobody may hold all six points of their own start quarter."),
    "six_prime": _("Six held points in a row: allowed, limited, or must be opened."),
    "head_rule": _("Only one checker may leave the 24-point per play."),
    "mother": _("The Tapa mother rule: a pinned mother wins 2, or only a tie, or nothing."),
    "tapa_tie": _("Both mothers pinned: replay the Tapa, 1 point each, or none."),
    "pinned_bearoff": _("A pinned checker in its own home board: counts as home, or stops it."),
    "start_display": _("How the start of Gjul Bara and Tapa is shown."),
    "stuck_limit": _("A game in which nobody moved for this many rolls ends as a tie."),
}

PRESET_TEXT: dict[str, Promise] = {
    "macedonian": _("The North Macedonian match: every rule as these pages describe it."),
    "bulgarian_nit": _("The Bulgarian rules: who starts, the Tapa tie and stuck games differ."),
    "greek_tavli": _("Greek Tavli: Portes, Plakoto and Fevga, without escalating doubles."),
}


VALUE_TEXT: dict[tuple[str, str], Promise] = {  # (option, value): the value in words
    ("opening_roll", "reroll_both"): _("the winner rolls afresh"),
    ("opening_roll", "use_opening_dice"): _("the opening dice are played"),
    ("next_starter", "previous_winner"): _("the previous game's winner"),
    ("next_starter", "opening_roll"): _("an opening roll"),
    ("cube", "off"): _("no cube"),
    ("cube", "tabla_only"): _("in Tabla"),
    ("cube", "all_games"): _("in every game"),
    ("cascade_count", "per_player"): _("the player's own rolls"),
    ("cascade_count", "per_game"): _("both players' rolls"),
    ("cascade_remainder", "opponent"): _("to the opponent"),
    ("cascade_remainder", "forfeit"): _("lost"),
    ("unstarted_chain", "lost"): _("lost"),
    ("unstarted_chain", "passes"): _("to the opponent"),
    ("cascade_scope", "per_stage"): _("each stage on its own"),
    ("cascade_scope", "whole_chain"): _("the whole chain"),
    ("six_prime", "allowed"): _("allowed"),
    ("six_prime", "opponent_ahead"): _("only with an opposing checker ahead"),
    ("six_prime", "must_release"): _("must be opened when it traps everyone"),
    ("mother", "auto_win"): _("a pinned mother wins 2"),
    ("mother", "tie_only"): _("only the tie"),
    ("mother", "off"): _("no mother rule"),
    ("tapa_tie", "replay"): _("the Tapa is replayed"),
    ("tapa_tie", "one_each"): _("1 point each"),
    ("tapa_tie", "zero"): _("no points"),
    ("pinned_bearoff", "occupies"): _("counts as home"),
    ("pinned_bearoff", "no_bearoff"): _("no bearing off"),
    ("start_display", "stack15"): _("all 15 on the point"),
    ("start_display", "two_plus_reserve"): _("two, and a reserve"),
}


def _shown(key: str, value: Any) -> str:
    if isinstance(value, str):
        return str(VALUE_TEXT.get((key, value), value))
    if isinstance(value, tuple):
        names = {variant: str(name) for variant, name in GAMES.values()}
        return " → ".join(names.get(str(item), str(item)) for item in value)
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    return str(_("never") if value is None else value)


def preset_changes(options: Options) -> list[dict[str, Any]]:
    """What ``options`` changes from the Macedonian defaults: key, text, default and value."""
    rows = []
    for field in dataclasses.fields(Options):
        value, default = getattr(options, field.name), getattr(DEFAULT_OPTIONS, field.name)
        if value != default:
            rows.append(
                {
                    "key": field.name,
                    "text": OPTION_TEXT[field.name],
                    "default": _shown(field.name, default),
                    "value": _shown(field.name, value),
                }
            )
    return rows


@cache
def preset_diagrams(name: str) -> tuple[dict[str, Any], ...]:
    return tuple(diagram.drawn() for diagram in PRESET_DIAGRAMS.get(name, ()))


def presets() -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "text": PRESET_TEXT.get(name, ""),
            "changes": preset_changes(options),
            "diagrams": preset_diagrams(name),
        }
        for name, options in PRESETS.items()
    ]


# --- views -----------------------------------------------------------------------------------


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    links = _game_links()
    context = {
        "games": links,
        "setups": [{**link, "setup": diagrams(link["variant"])[0]} for link in links],
    }
    return render(request, "rules/index.html", context)


@require_safe
def rules_game(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAMES:
        raise Http404("no such game")
    variant, name = GAMES[game]
    context = {
        "variant": variant,
        "name": name,
        "diagrams": diagrams(variant),
        "games": _game_links(),
    }
    return render(request, f"rules/{variant}.html", context)


@require_safe
def rules_presets(request: HttpRequest) -> HttpResponse:
    context = {"presets": presets(), "games": _game_links()}
    return render(request, "rules/presets.html", context)


@require_safe
def rules_faq(request: HttpRequest) -> HttpResponse:
    context = {"games": _game_links(), "setup": diagrams("tabla")[0]}
    return render(request, "rules/faq.html", context)


def _game_links() -> Sequence[dict[str, Any]]:
    return [{"slug": slug, "variant": v, "name": name} for slug, (v, name) in GAMES.items()]
