"""Positions reached by random playouts from the start of each game (docs/conventions.md, test
layer 3).

``playout`` is a plain generator usable anywhere (it takes a ``random.Random``); the hypothesis
strategies below draw a seed and a depth and replay the same playout, so a failing example is
reproduced exactly from what hypothesis prints. The engine plays the games: at every decision it
lists the legal plays and one is picked at random, including Gjul Bara cascade stages and
remainders (which are decisions without a roll).
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st

from games.engine import answer_query, start_position

VARIANTS = ("tabla", "gul_bara", "tapa")
MAX_DECISIONS = 600  # a Gjul Bara game can stall (§6.7); playouts stop here

# Hypothesis settings for the engine's property tests: no deadline (a double can take a while),
# derandomized so that a run is repeatable.
ENGINE_SETTINGS = settings(
    deadline=None,
    derandomize=True,
    max_examples=25,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class Decision:
    """One query met in a playout, and the engine's answer to it."""

    query: dict[str, Any]
    plays: list[dict[str, Any]]

    @property
    def variant(self) -> str:
        return self.query["variant"]

    @property
    def position(self) -> dict[str, Any]:
        return self.query["position"]


def roll(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6), rng.randint(1, 6)]


def query_for(
    variant: str, position: dict[str, Any], dice: list[int] | None, options: dict[str, Any] | None
) -> dict[str, Any]:
    query: dict[str, Any] = {"variant": variant, "position": position}
    if dice is not None:
        query["dice"] = dice
    if options:
        query["options"] = dict(options)
    return query


def own_point(variant: str, colour: str, white_point: int) -> int:
    """``colour``'s own number for a white-numbered point (the maps of §2.1 are self-inverse)."""
    if colour == "w":
        return white_point
    if variant == "gul_bara":
        return (white_point + 11) % 24 + 1
    return 25 - white_point


def pip_count(variant: str, position: dict[str, Any], colour: str) -> int:
    """Pips ``colour`` still has to travel (bar = 25)."""
    pips = 25 * position.get("bar", {}).get(colour, 0)
    for index, stack in enumerate(position["points"]):
        for owner, count in stack:
            if owner == colour:
                pips += count * own_point(variant, colour, index + 1)
    return pips


def playout(
    variant: str,
    rng: random.Random,
    options: dict[str, Any] | None = None,
    *,
    max_decisions: int = MAX_DECISIONS,
    race: float = 0.0,
) -> Generator[Decision, None, dict[str, Any] | None]:
    """Play one random game, yielding every decision (query and answer) before a play is chosen.

    The starter is random and rolls both dice afresh (§6.3), so a game may open with a double.
    Pending Gjul Bara stages are queried without dice (B5). Stops after a play with a result.
    With probability ``race`` a decision takes the play that leaves the mover the fewest pips
    instead of a random one; such games reach the bear-off more often. The generator returns
    the play that ended the game, or None when ``max_decisions`` ran out.
    """
    position = start_position(variant, rng.choice("wb")).to_json()
    for _ in range(max_decisions):
        dice = None if position.get("pending") else roll(rng)
        query = query_for(variant, position, dice, options)
        plays = answer_query(query)["plays"]
        yield Decision(query, plays)
        if rng.random() < race:
            mover = position["turn"]
            chosen = min(plays, key=lambda entry: pip_count(variant, entry["position"], mover))
        else:
            chosen = rng.choice(plays)
        if "result" in chosen:
            return chosen
        position = chosen["position"]
    return None


def random_game(
    variant: str,
    rng: random.Random,
    options: dict[str, Any] | None = None,
    *,
    race: float = 0.0,
    max_decisions: int = MAX_DECISIONS,
    stuck_after: int = 60,
) -> tuple[list[Decision], dict[str, Any] | None]:
    """All decisions of one random game and the play that ended it. None means the game
    stalled: ``max_decisions`` ran out, or ``stuck_after`` decisions in a row could only pass
    (a dead position, §6.7)."""
    played: list[Decision] = []
    idle = 0
    game = playout(variant, rng, options, max_decisions=max_decisions, race=race)
    while True:
        try:
            decision = next(game)
        except StopIteration as stop:
            return played, stop.value
        played.append(decision)
        idle = idle + 1 if [entry["moves"] for entry in decision.plays] == [[]] else 0
        if idle >= stuck_after:
            return played, None


def decision_after(
    variant: str,
    seed: int,
    depth: int,
    options: dict[str, Any] | None = None,
    race: float = 0.0,
) -> Decision:
    """The ``depth``-th decision of the playout with this seed (or the last one of a short game)."""
    rng = random.Random(seed)
    last = None
    for index, decision in enumerate(playout(variant, rng, options, race=race)):
        last = decision
        if index >= depth:
            break
    assert last is not None
    return last


@st.composite
def decisions(
    draw: st.DrawFn,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
    max_depth: int = 160,
) -> Decision:
    """A decision (query + engine answer) reached by a random playout."""
    name = variant or draw(st.sampled_from(VARIANTS))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    depth = draw(st.integers(min_value=0, max_value=max_depth))
    race = draw(st.sampled_from([0.0, 0.8]))
    return decision_after(name, seed, depth, options, race)


# --- constructed positions: random end games ----------------------------------------------------


def _finished(variant: str, points: list[list[list[Any]]], off: dict[str, int]) -> bool:
    """Already over (B7): 15 off, or (Tapa, default mother rule) a mother win or tie pattern."""
    if 15 in off.values():
        return True
    if variant != "tapa":
        return False
    white_start, black_start = points[23], points[0]
    white_mother_pinned = len(white_start) == 2 and white_start[0][0] == "w"
    black_mother_pinned = len(black_start) == 2 and black_start[0][0] == "b"
    if white_mother_pinned and black_mother_pinned:
        return True
    white_on_start = any(c == "w" for c, _ in white_start)
    black_on_start = any(c == "b" for c, _ in black_start)
    return (black_mother_pinned and not white_on_start) or (
        white_mother_pinned and not black_on_start
    )


def _place(variant: str, stack: list[list[Any]], colour: str, rng: random.Random) -> bool:
    """Put one checker of ``colour`` on ``stack`` if the variant allows that stack."""
    if not stack:
        stack.append([colour, 1])
        return True
    top = stack[-1]
    if top[0] == colour:
        top[1] += 1
        return True
    if variant == "tapa" and len(stack) == 1 and top[1] == 1 and rng.random() < 0.6:
        stack.append([colour, 1])  # pin the lone checker
        return True
    return False


def random_end_game(variant: str, rng: random.Random, home_share: float = 0.9) -> dict[str, Any]:
    """A valid position in which the side to move is bearing off or close to it.

    The mover's checkers are mostly in its home board (in Tapa some may be pinned there, in
    Tabla some may be on the bar); the opponent's checkers are anywhere, often in the mover's
    home. In Gjul Bara a pending cascade or remainder is sometimes owed. A lower ``home_share``
    spreads the mover's checkers over the whole board (a random middle game).
    """
    while True:
        mover = rng.choice("wb")
        them = "b" if mover == "w" else "w"
        points: list[list[list[Any]]] = [[] for _ in range(24)]
        bar = {"w": 0, "b": 0}
        on_board = {mover: rng.randint(1, 15), them: rng.randint(1, 15)}
        for colour in (mover, them) if rng.random() < 0.5 else (them, mover):
            for _ in range(on_board[colour]):
                for _attempt in range(50):
                    if variant == "tabla" and rng.random() < 0.04:
                        bar[colour] += 1
                        break
                    if colour == mover:
                        own = rng.randint(1, 6) if rng.random() < home_share else rng.randint(7, 24)
                    else:
                        own = rng.randint(1, 24)
                    index = own_point(variant, colour, own) - 1
                    if _place(variant, points[index], colour, rng):
                        break
                else:
                    on_board[colour] -= 1
        off = {c: 15 - on_board[c] for c in ("w", "b")}
        if _finished(variant, points, off):
            continue
        position: dict[str, Any] = {
            "turn": mover,
            "points": points,
            "bar": bar,
            "off": off,
            "rolls": {"w": rng.randint(0, 8), "b": rng.randint(0, 8)},
        }
        if variant == "gul_bara" and rng.random() < 0.3:
            kind = rng.choice(["cascade", "remainder"])
            first = rng.randint(1, 6)
            pending = [first] * (4 if kind == "cascade" else rng.randint(1, 4))
            pending += [value for value in range(first + 1, 7) for _ in range(4)]
            position["pending"] = pending
            position["pending_kind"] = kind
        return position


@st.composite
def end_games(draw: st.DrawFn, variant: str | None = None) -> dict[str, Any]:
    """A constructed end-game position (see ``random_end_game``)."""
    name = variant or draw(st.sampled_from(VARIANTS))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    return random_end_game(name, random.Random(seed))


# --- tall stacks (test_tall_stacks.py, test_encode.py) -----------------------------------------

OTHER = {"w": "b", "b": "w"}
ROLLS = [[a, b] for a in range(1, 7) for b in range(a, 7)]  # the 21 distinct rolls


@st.composite
def tall_stack_positions(draw: st.DrawFn, variant: str) -> dict[str, Any]:
    """A position with most of each side's checkers on one or two points (in Tapa often on a pin,
    in Tabla sometimes on the bar), the rest on at most three other points."""
    points: list[list[list[Any]]] = [[] for _ in range(24)]
    bar = {"w": 0, "b": 0}
    off = {"w": 0, "b": 0}
    free = list(range(24))
    if variant == "tapa" and draw(st.sampled_from([True, True, False])):
        victim = draw(st.sampled_from("wb"))
        index = draw(st.sampled_from(free))
        points[index] = [[victim, 1], [OTHER[victim], 0]]
        free.remove(index)
    for colour in ("w", "b"):
        left = 15 - sum(n for stack in points for c, n in stack if c == colour)
        if variant == "tabla":
            bar[colour] = draw(st.integers(0, min(left, 4)) | st.just(left))
            left -= bar[colour]
        off[colour] = draw(st.integers(0, min(left, 14)) | st.just(0))
        left -= off[colour]
        pinned = [stack for stack in points if len(stack) == 2 and stack[1][0] == colour]
        if pinned and left:
            tall = draw(st.sampled_from([left, left - 1]).filter(bool) | st.integers(1, left))
            pinned[0][1][1] = tall
            left -= tall
        for group in range(4):
            if not left:
                break
            count = left if group == 3 else draw(st.integers(1, left) | st.just(left))
            index = draw(st.sampled_from(free))
            points[index] = [[colour, count]]
            free.remove(index)
            left -= count
    for stack in points:
        if len(stack) == 2 and stack[1][1] == 0:  # nobody left to pin the victim: it stands alone
            del stack[1]
    assume(all(count < 15 for count in off.values()))
    return {
        "turn": draw(st.sampled_from("wb")),
        "points": points,
        "bar": bar,
        "off": off,
        "rolls": {"w": draw(st.integers(0, 6)), "b": draw(st.integers(0, 6))},
    }
