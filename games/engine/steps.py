"""Single steps: which checker may move by one die, and what the board looks like after it.

This is the one place that knows §2.3 (steps), §2.6 (bearing off), §3.3-3.4 (hitting, the bar),
§4.3 and §4.7 (Gjul Bara blocking and the Fevga options) and §5.3-5.4 (pinning, the mother).
Both the play generator and the step-by-step checker of submitted plays call it.
"""

from __future__ import annotations

from .board import FROZEN, HEAD, OPP_BAR, OWN_BAR, OWN_OFF, PIN, ZERO, Node, highest_own_point
from .options import Options
from .variants import Variant

Step = tuple[int, int, Node]  # (from point, to point, node after); bar = 25, off = 0

# Ways a game can end at a step (besides "not ended"):
WON = "won"  # the mover bore off its 15th checker
MOTHER = "mother"  # Tapa: the mover pinned the opposing mother with its own start empty
TIE = "tie"  # Tapa: both mothers pinned


class StepRules:
    """The step rules of one variant under one set of options, for one mover."""

    def __init__(self, variant: Variant, options: Options) -> None:
        self.variant = variant
        self.options = options
        self.name = variant.name
        self.min_landing = 0 if variant.single_blocks else -1
        self.hits = variant.hits
        self.pins = variant.pins
        fevga = variant.name == "gul_bara"
        self.first_runner = fevga and options.first_runner
        self.start_quarter_block = fevga and options.start_quarter_block
        self.prime_needs_opponent_ahead = fevga and options.six_prime == "opponent_ahead"
        self.head_rule = options.head_rule
        self.freeze_home_hitters = variant.hits and not options.tabla_hit_and_run_home
        self.mother = options.mother if variant.pins else "off"
        self.pinned_blocks_bearoff = variant.pins and options.pinned_bearoff == "no_bearoff"
        self.has_special_rules = (
            self.head_rule
            or self.freeze_home_hitters
            or self.first_runner
            or self.start_quarter_block
            or self.prime_needs_opponent_ahead
        )

    # --- the game end ----------------------------------------------------------------------

    def end_of(self, node: Node) -> str | None:
        """How the game ended with this node (after a step of the mover), or None."""
        if node[OWN_OFF] == 15:
            return WON
        if self.mother == "off":
            return None
        own_start = node[24] - ZERO
        own_mother_pinned = own_start < -PIN
        their_mother_pinned = node[1] - ZERO > PIN  # the opponent's 24-point is our 1-point
        if own_mother_pinned and their_mother_pinned:
            return TIE
        if self.mother == "auto_win" and their_mother_pinned and -PIN < own_start <= 0:
            return MOTHER
        return None

    # --- bearing off -----------------------------------------------------------------------

    def can_bear_off(self, node: Node, highest: int) -> bool:
        """All own checkers home (§2.6.1); Tapa option no_bearoff also needs no pinned one."""
        if highest > 6:
            return False
        if self.pinned_blocks_bearoff:
            return not any(node[q] - ZERO < -PIN for q in range(1, 7))
        return True

    # --- steps -----------------------------------------------------------------------------

    def steps(self, node: Node, die: int) -> list[Step]:
        """Every legal step of one die from ``node``, highest from-point first."""
        min_landing = self.min_landing
        if node[OWN_BAR]:
            target = 25 - die
            if node[target] - ZERO >= min_landing:
                return [(25, target, self.land(bytearray(node), 25, target))]
            return []
        highest = highest_own_point(node)
        bear_off = self.can_bear_off(node, highest)
        frozen = node[FROZEN]
        special = self.has_special_rules
        found: list[Step] = []
        # Without bearing off, a checker on a point up to ``die`` has nowhere to go.
        for source in range(highest, 0 if bear_off else die, -1):
            code = node[source] - ZERO
            if code <= 0:
                continue
            if frozen and frozen >> source & 1 and (code - PIN if code > PIN else code) == 1:
                continue
            target = source - die
            if target >= 1:
                if node[target] - ZERO < min_landing:
                    continue
                if special:
                    if source == 24 and not self.may_leave_start(node):
                        continue
                    after = self.land(bytearray(node), source, target)
                    if self._forbidden_by_fevga(node, after, target):
                        continue
                    found.append((source, target, after))
                else:
                    found.append((source, target, self.land(bytearray(node), source, target)))
            elif bear_off and (target == 0 or source == highest):
                cells = bytearray(node)
                cells[source] = ZERO - 1 if code == PIN + 1 else ZERO + code - 1
                cells[OWN_OFF] += 1
                found.append((source, 0, bytes(cells)))
        return found

    def land(self, cells: bytearray, source: int, target: int) -> Node:
        """Move one checker from ``source`` to a ``target`` that may be landed on."""
        if source == 25:
            cells[OWN_BAR] -= 1
        else:
            # The last pinner leaving frees the pinned checker: PIN + 1 becomes a lone opponent.
            cells[source] = ZERO - 1 if cells[source] == ZERO + PIN + 1 else cells[source] - 1
            if source == 24 and self.head_rule:
                cells[HEAD] += 1
        if cells[target] == ZERO - 1:
            if self.hits:
                cells[target] = ZERO + 1
                cells[OPP_BAR] += 1
                if self.freeze_home_hitters and target <= 6:
                    cells[FROZEN] |= 1 << target
            else:  # Tapa: pin the lone opposing checker
                cells[target] = ZERO + PIN + 1
        else:
            cells[target] += 1
        return bytes(cells)

    def may_leave_start(self, node: Node) -> bool:
        """May a checker leave the 24-point now (head rule, Fevga F1)?"""
        if self.head_rule and node[HEAD] >= 1:
            return False
        if not self.first_runner:
            return True
        # F1: a second checker may leave the start only once a moved checker has passed the
        # opponent's start (own point 11 or lower) or been borne off.
        if node[OWN_OFF]:
            return True
        runners = [q for q in range(1, 24) if node[q] > ZERO]
        return not runners or min(runners) <= 11

    def _forbidden_by_fevga(self, before: Node, after: Node, target: int) -> bool:
        if self.start_quarter_block and all(after[q] > ZERO for q in range(19, 25)):
            return True
        if self.prime_needs_opponent_ahead and before[target] == ZERO:
            return _forms_prime_with_nobody_ahead(after, target)
        return False


def _their_point(point: int) -> int:
    """Gjul Bara: the opponent's own number for the mover's point (a shift by 12)."""
    return (point + 11) % 24 + 1


def _forms_prime_with_nobody_ahead(after: Node, target: int) -> bool:
    """F3 (a): six held points in a row that include ``target``, with no opposing checker
    ahead of them on the opponent's path (a lower own point, in the opponent's numbering)."""
    for low in range(max(1, target - 5), min(target, 19) + 1):
        if all(after[q] > ZERO for q in range(low, low + 6)):
            front = min(_their_point(q) for q in range(low, low + 6))
            if not any(after[q] < ZERO and _their_point(q) < front for q in range(1, 25)):
                return True
    return False


def trapping_prime(node: Node) -> tuple[int, ...] | None:
    """F3 (b): the mover's six-prime with every opposing checker left on the board on the one
    point just behind it (the point the opponent reaches right before the prime), or None."""
    opposing = [q for q in range(1, 25) if node[q] < ZERO]
    if len(set(opposing)) != 1:
        return None
    behind = opposing[0]
    if behind <= 6:  # a run of six must lie within the mover's own points 1-24
        return None
    prime = tuple(range(behind - 6, behind))
    if all(node[q] > ZERO for q in prime):
        return prime
    return None
