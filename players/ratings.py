"""Player ratings by the FIBS formula, applied one finished match at a time.

The formula, as FIBS prints it for `help formula` (quoted in Patti Beadles' post
https://bkgm.com/rgb/rgb.cgi?view+1093 and the Backgammon FAQ, "FIBS Ratings"):

    D = abs(r1 - r2); P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1)
    P = 1 - P_upset if the underdog wins, P = P_upset if the favourite wins
    winner: K = max(1, -experience/100 + 5); change = +4 * K * sqrt(n) * P
    loser:  K = max(1, -experience/100 + 5); change = -4 * K * sqrt(n) * P

Experience is the sum of the lengths of the matches a player has finished *before* this one,
and everybody starts at 1500 with experience 0. In both cases P = 1 - P(winner wins), which
is how `rate` writes it. (MacFIBS' glossary gives K = max(1, 5 - (experience + n)/100),
counting the current match too; we follow the server's own help text.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Rating:
    value: float = 1500.0
    experience: int = 0  # sum of the lengths of the matches played so far


@dataclass(frozen=True)
class RatedMatch:
    winner: int
    loser: int
    length: int  # match length n


def expected_win(r_a: float, r_b: float, length: int) -> float:
    """P(a beats b) in an n-point match: expected_win(1600, 1500, 1) == 1 / (1 + 10 ** -0.05)."""
    return float(1.0 / (1.0 + 10.0 ** (-(r_a - r_b) * math.sqrt(length) / 2000.0)))


def k_factor(experience: int) -> float:
    """max(1, 5 - experience/100): 5 for a newcomer, 1 from 400 experience on."""
    return max(1.0, 5.0 - experience / 100.0)


def rate(ratings: Mapping[int, Rating], match: RatedMatch) -> dict[int, Rating]:
    """A copy of `ratings` with both players updated; a player not in it starts at Rating()."""
    updated = dict(ratings)
    _apply(updated, match)
    return updated


def rate_all(
    initial: Mapping[int, Rating], matches: Sequence[RatedMatch]
) -> tuple[dict[int, Rating], list[tuple[int, int, float]]]:
    """Apply matches in the given (result) order.

    Returns the final ratings and the history: for match index i (0-based), a row
    (i, winner, new value) then (i, loser, new value).
    """
    ratings = dict(initial)
    history: list[tuple[int, int, float]] = []
    for i, match in enumerate(matches):
        _apply(ratings, match)
        history.append((i, match.winner, ratings[match.winner].value))
        history.append((i, match.loser, ratings[match.loser].value))
    return ratings, history


def _apply(ratings: dict[int, Rating], match: RatedMatch) -> None:
    if match.winner == match.loser:
        raise ValueError(f"a player cannot beat themselves ({match.winner})")
    if match.length < 1:
        raise ValueError(f"a match length must be at least 1, got {match.length}")
    winner = ratings.get(match.winner, Rating())
    loser = ratings.get(match.loser, Rating())
    stake = (
        4.0
        * math.sqrt(match.length)
        * (1.0 - expected_win(winner.value, loser.value, match.length))
    )
    ratings[match.winner] = Rating(
        winner.value + stake * k_factor(winner.experience), winner.experience + match.length
    )
    ratings[match.loser] = Rating(
        loser.value - stake * k_factor(loser.experience), loser.experience + match.length
    )
