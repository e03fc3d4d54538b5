"""The batch CLI's answer line, written straight from the search's end nodes (Appendix A).

The reference way to write an answer is ``json.dumps(answer_query(query), separators=(",",
":"))``: every play builds a Position (``Outcome.position``), turns it into nested dicts and
lists (``Position.to_json``) and the json module walks them again. For a Tabla query with about
18 plays that was two thirds of the CLI's time. ``plays_text`` writes the same bytes directly:

- each point's stack comes from a table of ready JSON texts, indexed by the node's byte, and
  the 24 bytes are read in white order with one ``itemgetter`` call;
- what is the same for every play of a query is worked out once: the roll counters, the
  opponent's borne-off count, and ``turn`` / ``pending`` per (play length, game over);
- move texts come from a table of every step's quoted text.

Position.to_json and Outcome.to_json remain the definition of the JSON shape; this module must
write exactly what they give, key order and all. That is tested byte for byte on a golden file
recorded before this module existed (tests/engine/test_golden.py) and against the reference
path on random games and positions (tests/engine/test_encode.py).

Figures: 3,000 Tabla queries sampled from random play (bench/engine.py's sample, about 18
plays each), the batch CLI's loop ``run_plays`` from query line in to answer line out, on the
shared 2-core machine (load average 3-4 from other work while measured), best of 5 runs:

    before (dicts and json.dumps):  1,300-1,490 queries/s wall clock, ~1,550/s CPU time
    after (this module, and small   5,580-5,900 queries/s wall clock, ~6,000/s CPU time
      trims of the search and of Position.from_json)

CPU time (``time.process_time``) stands for an idle machine: the old path measured this way
matches the ~1,400/s it gave unloaded. Of the remaining ~165 us per query, about 75 go to the
search, 45 to this module (half of it joining the 24 stack texts), 30 to reading the JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache
from operator import itemgetter
from typing import Any

from .board import OPP_BAR, OWN_BAR, OWN_OFF, Node, _stacks, _white_order
from .generate import _TEXTS, Decision, Outcome, _after_stage
from .position import WHITE, Colour
from .results import result_for
from .variants import Variant

# The quoted text of every step of a Path, keyed by the step itself: (from, to, die).
_QUOTED = {(*key, die): json.dumps(text) for key, text in _TEXTS.items() for die in range(1, 7)}


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


@cache
def _board_reader(variant: Variant, me: Colour) -> Callable[[Node], Sequence[int]]:
    """A function giving a node's 24 point bytes in white order (index 0: white's 1-point).

    For the contrary variants it is one slice of the node (reversed for black), for the
    parallel one two slices; any other geometry falls back to picking the bytes one by one.
    """
    order = _white_order(variant, me)
    if order == tuple(range(1, 25)):
        return itemgetter(slice(1, 25))
    if order == tuple(range(24, 0, -1)):
        return itemgetter(slice(24, 0, -1))
    if order == (*range(13, 25), *range(1, 13)):
        return lambda node: node[13:25] + node[1:13]
    return itemgetter(*order)


@cache
def _stack_texts(me: Colour) -> dict[int, str]:
    """The JSON text of every stack a node byte can stand for, seen by ``me``."""
    return {byte: _compact([list(pair) for pair in stack]) for byte, stack in _stacks(me).items()}


def plays_text(decision: Decision) -> str:
    """``{"plays": [...]}`` for every legal play of ``decision``, as compact JSON text: the same
    bytes as ``json.dumps({"plays": [o.to_json() for o in outcomes]}, separators=(",", ":"))``.
    """
    position, stage = decision.position, decision.stage
    me = position.turn
    white = me == WHITE
    stacks = _stack_texts(me).__getitem__
    board = _board_reader(decision.variant, me)
    quoted = _QUOTED.__getitem__
    rolls = list(position.rolls)
    if stage.kind == "roll":
        rolls[0 if white else 1] += 1
    counters = f'"rolls":{{"w":{rolls[0]},"b":{rolls[1]}}}'
    their_off = position.off[1 if white else 0]
    ended = decision.found.ended
    heads: dict[tuple[int, bool], tuple[str, str]] = {}
    entries = []
    for node, path in decision.paths.items():
        end = ended.get(node) if ended else None
        key = (len(path), end is not None)
        head = heads.get(key)
        if head is None:
            head = heads[key] = _turn_and_pending(decision, *key)
        turn, pending = head
        moves = ",".join(map(quoted, path))
        points = ",".join(map(stacks, board(node)))
        # One f-string per side (white's bar and off first in both): a single string build.
        if white:
            entry = (
                f'{{"moves":[{moves}],"position":{{{turn}"points":[{points}],'
                f'"bar":{{"w":{node[OWN_BAR]},"b":{node[OPP_BAR]}}},'
                f'"off":{{"w":{node[OWN_OFF]},"b":{their_off}}},{counters}{pending}}}'
            )
        else:
            entry = (
                f'{{"moves":[{moves}],"position":{{{turn}"points":[{points}],'
                f'"bar":{{"w":{node[OPP_BAR]},"b":{node[OWN_BAR]}}},'
                f'"off":{{"w":{their_off},"b":{node[OWN_OFF]}}},{counters}{pending}}}'
            )
        if end is not None:
            entry += ',"result":' + _result_text(decision, node, end, their_off)
        entries.append(entry + "}")
    return '{"plays":[' + ",".join(entries) + "]}"


def outcomes_json(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """``[outcome.to_json() for outcome in outcomes]``, fast when ``outcomes`` are the legal plays
    of one decision in the order ``legal_plays`` gives them (a web answer listing them with their
    positions): ``plays_text`` writes them and the json module's C parser reads them back, about
    five times faster than building each Position. Any other list takes the reference path.
    """
    if not outcomes:
        return []
    decision = outcomes[0]._decision
    nodes = [outcome._node for outcome in outcomes]
    if nodes != list(decision.paths) or any(o._decision is not decision for o in outcomes):
        return [outcome.to_json() for outcome in outcomes]
    plays: list[dict[str, Any]] = json.loads(plays_text(decision))["plays"]
    return plays


def _turn_and_pending(decision: Decision, steps: int, ends: bool) -> tuple[str, str]:
    """The ``"turn":..,`` head and the ``,"pending":..`` tail of POSITION_AFTER (B4, B5)."""
    turn, pending, kind = _after_stage(
        decision.stage, steps, ends, decision.position.turn, decision.options
    )
    if not pending:
        return f'"turn":{_compact(turn)},', ""
    return (
        f'"turn":{_compact(turn)},',
        f',"pending":{_compact(list(pending))},"pending_kind":{_compact(kind)}',
    )


def _result_text(decision: Decision, node: Node, end: str, their_off: int) -> str:
    result = result_for(
        end,
        node,
        decision.position.turn,
        variant=decision.variant.name,
        their_off=their_off,
        options=decision.options,
    )
    return _compact(result.to_json())
