"""Players to measure the networks against (issue 23 §4): pubeval for Tabla, a heuristic per game.

Both choose among the engine's legal plays by a score of the mover-view node after each play
(``Outcome.node``, games.engine.board's layout: the mover's own numbering, its checkers
positive, the opponent's negative, Tapa's pins beyond ``PIN``); a play that ends the game is
taken first (the largest result).

**pubeval** is Gerald Tesauro's public linear evaluator for backgammon (1993, "provided as a
public service to the backgammon programming community"): 122 inputs (five per point, seen by
the side that moves, its farthest point first; the opponent's checkers on the bar; its own
checkers off) times one of two weight vectors, the race one when there is no contact BEFORE the
play. The weights below are transcribed from his pubeval.c, as kept e.g. in
github.com/weekend37/Backgammon and github.com/markusfreyr/Backgammon (pubeval.c, identical
copies). Tabla is backgammon without the cube here, so pubeval applies unchanged; the other two
games have no pubeval.

**The heuristic player** (one per game) scores the board after a play, in pips (a checker one
point further on is worth one):

- all games: the opponent's pip count minus the mover's (a hit checker counts from the bar);
- Tabla: +2 a point the mover holds (two or more), +2 more in its home board; -4 a blot
  (a single checker) while the two sides are still in contact;
- Tapa: the same for points and blots, +12 an opposing checker pinned, -12 an own checker pinned,
  and -15 when the mover's mother stands alone and free on its start (one opposing checker
  landing there wins the game outright);
- Gjul Bara (no hitting, a single checker blocks): +1 a point the mover holds, +3 a point of the
  longest run of consecutive held points beyond two (a prime blocks the most).

It is deliberately simple: a sensible beginner's rules, what the issue's 65 % goal is measured
against. The weights were set by hand, not tuned.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from games.engine.board import OPP_BAR, OWN_BAR, OWN_OFF, PIN, ZERO, Node
from games.engine.generate import Outcome
from games.engine.position import Colour
from games.engine.variants import find_variant

OPPONENTS = ("random", "pubeval", "heuristic")

# fmt: off
# Tesauro's pubeval.c: wr (race) and wc (contact), 122 weights each, in the file's order.
PUBEVAL_RACE = np.array([
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121, 0.07217,
    -0.01351, 0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000, -2.29847, -2.34631,
    0.17253, 0.08302, 0.00000, -1.27266, -2.87401, -0.07456, -0.34240, 0.00000, -1.34640,
    -2.46556, -0.13022, -0.01591, 0.00000, 0.27448, 0.60015, 0.48302, 0.25236, 0.00000,
    0.39521, 0.68178, 0.05281, 0.09266, 0.00000, 0.24855, -0.06844, -0.37646, 0.05685,
    0.00000, 0.17405, 0.00430, 0.74427, 0.00576, 0.00000, 0.12392, 0.31202, -0.91035,
    -0.16270, 0.00000, 0.01418, -0.10839, -0.02781, -0.88035, 0.00000, 1.07274, 2.00366,
    1.16242, 0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966, 0.00000, 0.37183,
    -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707, 0.00000,
    -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412, -0.09308, -1.26062,
    0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000, 2.19605, 3.85390, 0.88296,
    2.30052, 0.00000, 0.92321, 1.08744, -0.11696, -0.78560, 0.00000, -0.09795, -0.83050,
    -1.09167, -4.94251, 0.00000, -1.00316, -3.66465, -2.56906, -9.67677, 0.00000, -2.77982,
    -7.26713, -3.40177, -12.32252, 0.00000, 3.42040,
])
PUBEVAL_CONTACT = np.array([
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654, -0.92830,
    -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220, -0.73667, 0.89032,
    -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389, -1.80390, -0.83425, -0.97741,
    -1.41371, 0.24500, 0.10970, -1.36476, -1.05572, 1.15420, 0.11069, -0.38319, -0.74816,
    -0.59244, 0.81116, -0.39511, 0.11424, -0.73169, -0.56074, 1.09792, 0.15977, 0.13786,
    -1.18435, -0.43363, 1.06169, -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099,
    -0.06295, -0.75882, -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070,
    0.40868, -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240,
    1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936, -0.90750,
    0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983, 0.52698, 0.82132,
    -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276, -0.36214, 4.37655, 0.45481,
    0.21746, 0.10504, -0.61977, 3.54001, 0.04612, -0.18108, 0.63211, -0.87046, 2.47673,
    -0.48016, -1.27157, 0.86505, -1.11342, 1.24612, -0.82385, -2.77082, 1.23606, -1.59529,
    0.10438, -1.30206, -4.11520, 5.62596, -2.75800,
])
# fmt: on


def _codes(node: Node) -> list[int]:
    """The 24 point codes of a node, index 0 the mover's 1-point."""
    return [byte - ZERO for byte in node[1:25]]


def is_race(node: Node) -> bool:
    """No contact: every checker of the mover is past every opposing one (Tabla's geometry:
    the opponent's farthest-back checker is on the mover's lowest point it holds, or the bar)."""
    codes = _codes(node)
    own = [q for q in range(1, 25) if codes[q - 1] > 0]
    theirs = [q for q in range(1, 25) if codes[q - 1] < 0]
    highest = 25 if node[OWN_BAR] else max(own, default=0)
    lowest = 0 if node[OPP_BAR] else min(theirs, default=25)
    return highest < lowest


def pubeval_inputs(node: Node) -> npt.NDArray[np.float64]:
    """pubeval's ``setx``: its 122 inputs for the board after a play, seen by the mover."""
    x = np.zeros(122)
    codes = _codes(node)
    for j in range(1, 25):  # block j - 1 is the mover's point 25 - j (its 24-point first)
        n = codes[25 - j - 1]
        base = 5 * (j - 1)
        if n == -1:
            x[base] = 1.0
        if n == 1:
            x[base + 1] = 1.0
        if n >= 2:
            x[base + 2] = 1.0
        if n == 3:
            x[base + 3] = 1.0
        if n >= 4:
            x[base + 4] = (n - 3) / 2.0
    x[120] = node[OPP_BAR] / 2.0  # pubeval's -pos[0] / 2, its opponent's bar negative
    x[121] = node[OWN_OFF] / 15.0
    return x


def pubeval(race: bool, node: Node) -> float:
    """pubeval's score of the board after a play (higher is better for the mover); ``race``
    is whether the position BEFORE the play was a race."""
    if node[OWN_OFF] == 15:
        return 99999999.0
    weights = PUBEVAL_RACE if race else PUBEVAL_CONTACT
    return float(weights @ pubeval_inputs(node))


@cache
def _opponent_points(variant: str) -> tuple[int, ...]:
    """``result[i]`` is the opponent's own point (1..24) at the mover's point ``i + 1``."""
    parallel = find_variant(variant).name == "gul_bara"
    return tuple(((q + 11) % 24 + 1) if parallel else 25 - q for q in range(1, 25))


def pips(variant: str, node: Node) -> tuple[int, int]:
    """The mover's and the opponent's pip counts (checkers on the bar count 25)."""
    mine = 25 * node[OWN_BAR]
    theirs = 25 * node[OPP_BAR]
    for q, (code, their_q) in enumerate(zip(_codes(node), _opponent_points(variant), strict=True)):
        point = q + 1
        if 0 < code < PIN:
            mine += point * code
        elif code > PIN:  # an opposing checker pinned under the mover's
            mine += point * (code - PIN)
            theirs += their_q
        elif -PIN < code < 0:
            theirs += their_q * -code
        elif code < -PIN:  # the mover's checker pinned under the opponent's
            mine += point
            theirs += their_q * (-code - PIN)
    return mine, theirs


def heuristic(variant: str, node: Node) -> float:
    """The heuristic player's score of the board after a play, for the mover (module doc)."""
    name = find_variant(variant).name
    mine, theirs = pips(name, node)
    score = float(theirs - mine)
    codes = _codes(node)
    if name == "gul_bara":
        held = [code > 0 for code in codes]
        score += sum(held)
        run = longest = 0
        for point in held:
            run = run + 1 if point else 0
            longest = max(longest, run)
        return score + 3 * max(longest - 2, 0)
    contact = not is_race(node)
    for q, code in enumerate(codes, start=1):
        own = code if 0 < code < PIN else (code - PIN if code > PIN else 0)
        if own >= 2:
            score += 2 + (2 if q <= 6 else 0)
        elif own == 1 and contact and code < PIN:
            score -= 4
        if name == "tapa":
            if code > PIN:
                score += 12
            elif code < -PIN:
                score -= 12
    if name == "tapa" and codes[23] == 1:
        score -= 15
    return score


def choose(
    kind: str,
    variant: str,
    mover: Colour,
    before: Node,
    outcomes: Sequence[Outcome],
    rng: random.Random,
) -> int:
    """The index of the play ``kind`` (``OPPONENTS``) takes among ``outcomes`` (``mover``'s
    plays; ``before`` the mover's node before them). A play that ends the game comes first,
    the one of most points (a won game; a tie only when nothing else is left)."""
    if kind == "random":
        return rng.randrange(len(outcomes))
    if kind == "pubeval" and find_variant(variant).name != "tabla":
        raise ValueError("pubeval plays Tabla (backgammon) only")
    best, best_score = 0, -float("inf")
    race = is_race(before)
    for index, outcome in enumerate(outcomes):
        result = outcome.result if outcome.ends_game else None
        if result is not None:
            won = result.winner == mover
            score = 1e9 * (result.points if won else -result.points) if result.winner else -1e8
        elif kind == "pubeval":
            score = pubeval(race, outcome.node)
        else:
            score = heuristic(variant, outcome.node)
        if score > best_score:
            best, best_score = index, score
    return best


__all__ = ["OPPONENTS", "choose", "heuristic", "is_race", "pips", "pubeval", "pubeval_inputs"]
