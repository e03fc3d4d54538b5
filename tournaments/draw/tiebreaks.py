"""Tie-break names and formulas for round-robin and Swiss standings (see `standings`).

The formulas take plain numbers, so they can be checked by hand:

- Buchholz: the sum of the opponents' final match points.
- Median Buchholz: Buchholz without the best and the worst opponent (only with 3 or more).
- Sonneborn-Berger: the sum of the final match points of the opponents this player beat
  (backgammon matches cannot be drawn, so there are no half terms).
- Head-to-head: match wins against the other players still tied at that point of the order.
- Games won: unknown for a player with a whole-match score among their results, so it decides
  only among tied players who all have it known (`standings`, docs/decisions.md D27).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

TIEBREAKS = (
    "match_points",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "head_to_head",
    "point_diff",
    "points_for",
    "games_won",
)
DEFAULT_ORDER = (
    "match_points",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "head_to_head",
    "point_diff",
)


def check_order(order: Sequence[str]) -> None:
    """Raise ValueError for an unknown or repeated tie-break name."""
    unknown = [name for name in order if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-breaks {unknown}; choose from {', '.join(TIEBREAKS)}")
    if len(set(order)) != len(order):
        raise ValueError(f"a tie-break is listed twice in {list(order)}")


def buchholz(opponent_scores: Iterable[float]) -> float:
    """buchholz([3, 2, 1]) == 6"""
    return float(sum(opponent_scores))


def median_buchholz(opponent_scores: Sequence[float]) -> float:
    """Cut the highest and the lowest: median_buchholz([3, 2, 1, 0]) == 3. Fewer than 3: no cut."""
    if len(opponent_scores) < 3:
        return buchholz(opponent_scores)
    return buchholz(opponent_scores) - max(opponent_scores) - min(opponent_scores)


def sonneborn_berger(beaten_scores: Iterable[float]) -> float:
    """The final scores of the opponents beaten: sonneborn_berger([3, 1]) == 4"""
    return float(sum(beaten_scores))


def head_to_head(
    player: int, tied: Collection[int], wins_against: Mapping[int, Mapping[int, int]]
) -> float:
    """Wins of `player` against the others in `tied` (a double round robin can give 2 each)."""
    beaten = wins_against.get(player, {})
    return float(sum(count for other, count in beaten.items() if other in tied and other != player))
