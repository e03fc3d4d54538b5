"""Match arithmetic over the cycle (docs/rules.md §6): which game comes next, who starts it, the
opening roll, the score and the end of the match (the doubling cube is in cube.py).

Players are 0 and 1 (the service decides their colours); everything here is a pure function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from .cube import points_scored
from .errors import InvalidScoreError
from .options import DEFAULT_OPTIONS, Options
from .results import GameResult

Player = int  # 0 or 1


def other(player: Player) -> Player:
    return 1 - player


def game_variant(decided_games: int, options: Options = DEFAULT_OPTIONS) -> str:
    """The variant of the next game after ``decided_games`` decided games (§6.2).

    >>> [game_variant(k) for k in range(4)]
    ['tabla', 'gul_bara', 'tapa', 'tabla']
    """
    return options.cycle[decided_games % len(options.cycle)]


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """Each player's single die, round by round; the last round decided who starts."""

    rounds: tuple[tuple[int, int], ...]
    starter: Player

    @property
    def first_dice(self) -> tuple[int, int]:
        """The deciding pair: the first roll's dice with ``opening_roll=use_opening_dice``."""
        return self.rounds[-1]


def opening_roll(roll_die: Callable[[], int]) -> OpeningRoll:
    """Both players roll one die until they differ; the higher die starts (§6.3).

    With the default ``opening_roll=reroll_both`` the starter then rolls both dice afresh.
    """
    rounds: list[tuple[int, int]] = []
    while True:
        pair = (roll_die(), roll_die())
        rounds.append(pair)
        if pair[0] != pair[1]:
            return OpeningRoll(tuple(rounds), 0 if pair[0] > pair[1] else 1)


@dataclass(frozen=True, slots=True)
class MatchState:
    """The score and the history the next game depends on."""

    scores: tuple[int, int] = (0, 0)
    decided_games: int = 0  # games that advanced the cycle
    games_played: int = 0  # including replayed Tapa ties
    last_winner: Player | None = None  # None: the next game needs an opening roll
    crawford_game_played: bool = False


@dataclass(frozen=True, slots=True)
class NextGame:
    variant: str
    starter: Player | None  # None: decided by an opening roll
    crawford: bool  # no doubling in this game (cube with the Crawford rule only)


def next_game(state: MatchState, options: Options = DEFAULT_OPTIONS) -> NextGame:
    """What the next game of the match is and who starts it (§6.2, §6.3).

    Decision: a replayed Tapa tie, and any game after a tie, starts with a fresh opening roll.
    """
    starter: Player | None = None
    if state.games_played and options.next_starter == "previous_winner":
        starter = state.last_winner
    return NextGame(
        variant=game_variant(state.decided_games, options),
        starter=starter,
        crawford=is_crawford_game(state, options),
    )


def record_game(
    state: MatchState,
    result: GameResult,
    winner: Player | None,
    options: Options = DEFAULT_OPTIONS,
    *,
    cube_value: int = 1,
) -> MatchState:
    """The match after a game with ``result``; ``winner`` is the player who won it (None: tie).

    >>> s = record_game(MatchState(scores=(4, 3)), GameResult("w", "mars", 2), 0)
    >>> s.scores, match_winner(s)
    ((6, 3), 0)
    """
    crawford_played = state.crawford_game_played or is_crawford_game(state, options)
    played = state.games_played + 1
    if result.is_tie:
        if options.tapa_tie == "replay":
            return replace(state, games_played=played, last_winner=None)
        each = result.points
        scores = (state.scores[0] + each, state.scores[1] + each)
        return MatchState(scores, state.decided_games + 1, played, None, crawford_played)
    if winner is None:
        raise ValueError("a game that is not a tie needs a winner")
    gained = points_scored(result, cube_value)
    scores = (
        state.scores[0] + (gained if winner == 0 else 0),
        state.scores[1] + (gained if winner == 1 else 0),
    )
    return MatchState(scores, state.decided_games + 1, played, winner, crawford_played)


def match_winner(state: MatchState, options: Options = DEFAULT_OPTIONS) -> Player | None:
    """The player who has reached the target and leads, or None (§6.5: level at or above the
    target, possible only when a tie scores both players, means play on)."""
    target = options.match_length
    first, second = state.scores
    if first >= target and first > second:
        return 0
    if second >= target and second > first:
        return 1
    return None


def final_score_winner(
    scores: tuple[int, int],
    match_length: int,
    counted: tuple[int, int] = (0, 0),
    options: Options = DEFAULT_OPTIONS,
) -> Player:
    """The winner of a match said to have ended ``scores``, or InvalidScoreError when no match
    to ``match_length`` under ``options`` could end so.

    Decision (docs/decisions.md D19): one player has reached the match length and leads, the
    other has not reached it, the winner's last game brought them there (so they are at most
    the match length - 1 + 3 points, a triple), and neither score is below ``counted``, what the
    games already counted give that player. Two options widen it (§6.4, §6.5): when a tie scores
    a point each (``tapa_tie="one_each"``) both may be at or past the match length, the winner
    leading, the winner at most 3 past the larger of the loser's score and match length - 1;
    with the cube on there is no upper bound (a cube of any height may decide the last game).

    >>> final_score_winner((3, 5), 5)
    1
    >>> final_score_winner((6, 5), 5, options=Options(tapa_tie="one_each"))
    0
    """
    first, second = scores
    ties_score = options.tapa_tie == "one_each"
    reached = [side for side in (0, 1) if scores[side] >= match_length]
    if not reached or (len(reached) == 2 and not ties_score):
        raise InvalidScoreError(
            f"a final score has exactly one player at {match_length} points or more "
            f"(the match length), not {first}-{second}"
        )
    if first == second:
        raise InvalidScoreError(
            f"a final score has a winner who leads, not {first}-{second} (level scores play on)"
        )
    winner = 0 if first > second else 1
    before = max(match_length - 1, scores[1 - winner]) if ties_score else match_length - 1
    if options.cube == "off" and scores[winner] > before + 3:
        raise InvalidScoreError(
            f"{scores[winner]} points is more than a {match_length}-point match can end with "
            f"(at most {before + 3}: {before} and a triple game)"
        )
    if first < counted[0] or second < counted[1]:
        raise InvalidScoreError(
            f"the games already counted give {counted[0]}-{counted[1]}; "
            f"the final score cannot be lower ({first}-{second})"
        )
    return winner


def is_crawford_game(state: MatchState, options: Options = DEFAULT_OPTIONS) -> bool:
    """With the cube and the Crawford rule: the game right after a player first reaches
    target - 1 is played without doubling. No source gives the rule; it is off by default."""
    if options.cube == "off" or not options.crawford or state.crawford_game_played:
        return False
    return max(state.scores) == options.match_length - 1


def is_stuck(idle_rolls: int, options: Options = DEFAULT_OPTIONS) -> bool:
    """Option ``stuck_limit``: a game in which no checker moved for that many consecutive rolls
    ends 0-0 (docs/rules.md §6.7). The service counts the idle rolls."""
    return options.stuck_limit is not None and idle_rolls >= options.stuck_limit
