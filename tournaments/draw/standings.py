"""Standings for round-robin and Swiss events: records, tie-breaks and ranks from match results.

Decisions on byes and forfeits (the organiser's rules vary; these are ours):

- A bye is worth `bye_points` match points. It is not a match won or played and adds no
  games or points. It counts as one result whether or not `winner` is filled in.
- A round missed by a late entrant (`missed`) is not a bye: it is worth the `bye_points` the
  organiser gave the late entry (0 by default) and is not counted in `byes`; for Buchholz it is
  an unplayed round, like a bye (docs/decisions.md D24).
- A forfeit counts as a match won and lost (so in match wins, match points and head-to-head),
  and as played, but any game score entered for it is ignored, and `forfeits` counts the
  matches a player lost by forfeit (no-shows).
- Buchholz and median Buchholz count a bye, and a match decided by forfeit (for both players),
  as a virtual opponent whose score equals the player's own final match points, so nobody
  gains or loses from a missing opponent. Sonneborn-Berger counts only matches really won.
- Results whose `winner` is None (unfinished) are ignored.
- Games won are known only from game records: a result given as a whole-match score has
  `games1`/`games2` None. A player's `games_won` is then None (unknown, not 0) as soon as one
  of their counted matches (a forfeit's games are not counted) has no game record; the points
  for and against, known from the match scores, still count. As a tie-break, `games_won` decides
  only among tied players whose games won are all known: a tie with an unknown stays for the
  next criterion to break (docs/decisions.md D27).
- First place is never shared: players equal on every criterion for first are told apart by
  seed (`first_place_by_seed`), so a table always has one winner; lower ties stay shared
  (docs/decisions.md D28).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from tournaments.draw.tiebreaks import (
    DEFAULT_ORDER,
    TIEBREAKS,
    buchholz,
    check_order,
    head_to_head,
    median_buchholz,
    sonneborn_berger,
)

__all__ = [
    "DEFAULT_ORDER",
    "TIEBREAKS",
    "MatchResult",
    "StandingRow",
    "compute_standings",
    "first_place_by_seed",
    "standings_update",
]


@dataclass(frozen=True)
class MatchResult:
    round: int
    player1: int
    player2: int | None  # None: a bye for player1
    winner: int | None  # None: unfinished (ignored)
    score1: int = 0  # match points each scored in the match
    score2: int = 0
    games1: int | None = 0  # games won by each; None: no game record (a whole-match score)
    games2: int | None = 0
    forfeit: bool = False  # the winner got the match by forfeit / no-show
    bye_points: float = 1.0  # match points a bye (or a missed round) is worth
    missed: bool = False  # a round paired before a late entrant joined, not a bye


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: int
    played: int
    match_wins: int
    match_losses: int
    match_points: float
    games_won: int | None  # None: a counted match has no game record
    points_for: int
    points_against: int
    point_diff: int
    buchholz: float
    median_buchholz: float
    sonneborn_berger: float
    head_to_head: float
    byes: int
    forfeits: int
    # A bracket's shared places (brackets.placing_ranges): rank 5 and rank_last 8
    # for the quarter-final losers of 8. None in a league table, and while undecided.
    rank_last: int | None = None


@dataclass
class _Record:
    played: int = 0
    wins: int = 0
    losses: int = 0
    bye_points: float = 0.0
    byes: int = 0
    forfeits: int = 0
    games_won: int | None = 0  # None: unknown, once a counted match has no game record
    points_for: int = 0
    points_against: int = 0
    opponents: list[int | None] = field(default_factory=list)  # None: a virtual opponent
    beaten: list[int] = field(default_factory=list)

    @property
    def match_points(self) -> float:
        return self.wins + self.bye_points


def compute_standings(
    players: Sequence[int], results: Sequence[MatchResult], order: Sequence[str] = DEFAULT_ORDER
) -> list[StandingRow]:
    """Rows best first. Every criterion in `order` ranks higher values first; players equal on
    all of them share a rank and keep the order of `players`.

    `head_to_head` is computed among the players equal on every criterion before it in `order`
    (or, when it is not in `order`, among those equal on match points). `games_won` in `order`
    likewise decides only among the players equal on every criterion before it, and only when
    all of them have it known; otherwise it leaves their tie to the next criterion.
    """
    check_order(order)
    records, wins_against = _records(players, results)
    points = {p: records[p].match_points for p in players}
    values: dict[int, dict[str, float]] = {}
    for p in players:
        record = records[p]
        opponent_scores = [points[o] if o is not None else points[p] for o in record.opponents]
        values[p] = {
            "match_points": record.match_points,
            "buchholz": buchholz(opponent_scores),
            "median_buchholz": median_buchholz(opponent_scores),
            "sonneborn_berger": sonneborn_berger(points[o] for o in record.beaten),
            "point_diff": record.points_for - record.points_against,
            "points_for": record.points_for,
        }
    if "head_to_head" not in order:
        _among_tied(players, values, ["match_points"], "head_to_head", _h2h(wins_against))
    for position, name in enumerate(order):
        if name == "head_to_head":
            _among_tied(players, values, order[:position], name, _h2h(wins_against))
        elif name == "games_won":
            _among_tied(players, values, order[:position], name, _known_games(records))
    return _rank_rows(players, records, values, order)


def standings_update(
    stored: Mapping[int, StandingRow],
    players: Collection[int],
    results: Sequence[MatchResult],
    order: Sequence[str] = DEFAULT_ORDER,
) -> dict[int, StandingRow]:
    """The rows of ``players`` recomputed, the others read from ``stored`` (the rows of
    ``compute_standings`` before a change): what ``compute_standings`` gives them after it,
    when ``players`` holds everyone within two opponents of a player whose results changed and
    ``results`` every result of ``players`` (docs/decisions.md D113). A result changes its
    players' records; their match points change the Buchholz, median Buchholz and
    Sonneborn-Berger of their opponents; those change which players are tied before
    head-to-head, and so the head-to-head of whoever beat one of them. Ranks are not
    recomputed (the rows keep ``stored``'s, or None): a league's ranks move with everyone's
    values, a bracket's are its places. An ``order`` with ``games_won`` (decided among a whole
    tied group) is refused."""
    check_order(order)
    if "games_won" in order:
        raise ValueError("games_won is decided among a whole tied group: recompute them all")
    mine = set(players)
    involved = sorted(mine | {p for r in results for p in (r.player1, r.player2) if p is not None})
    records, wins_against = _records(involved, results)
    missing = {p for p in involved if p not in mine} - set(stored)
    if missing:
        raise ValueError(f"no stored row for {sorted(missing)}")

    def points(p: int | None, me: int) -> float:
        who = me if p is None else p
        return records[who].match_points if who in mine else stored[who].match_points

    values: dict[int, dict[str, float]] = {}
    for p in mine:
        record = records[p]
        opponent_scores = [points(o, p) for o in record.opponents]
        values[p] = {
            "match_points": record.match_points,
            "buchholz": buchholz(opponent_scores),
            "median_buchholz": median_buchholz(opponent_scores),
            "sonneborn_berger": sonneborn_berger(points(o, p) for o in record.beaten),
            "point_diff": record.points_for - record.points_against,
            "points_for": record.points_for,
        }
    before: Sequence[str] = ["match_points"]
    if "head_to_head" in order:
        before = order[: list(order).index("head_to_head")]

    def key(p: int) -> tuple[float, ...]:
        if p in mine:
            return tuple(values[p][name] for name in before)
        return tuple(float(getattr(stored[p], name)) for name in before)

    for p in mine:
        tied = {p} | {q for q in wins_against.get(p, {}) if key(q) == key(p)}
        values[p]["head_to_head"] = head_to_head(p, tied, wins_against)
    rows = {}
    for p in mine:
        old = stored.get(p)
        rows[p] = _row(
            p,
            records[p],
            values[p],
            rank=old.rank if old is not None else None,  # type: ignore[arg-type]
            rank_last=old.rank_last if old is not None else None,
        )
    return rows


def _row(
    p: int, record: _Record, v: dict[str, float], *, rank: int, rank_last: int | None = None
) -> StandingRow:
    """A player's row of the table from their record and their tie-break values."""
    return StandingRow(
        rank=rank,
        rank_last=rank_last,
        player=p,
        played=record.played,
        match_wins=record.wins,
        match_losses=record.losses,
        match_points=record.match_points,
        games_won=record.games_won,
        points_for=record.points_for,
        points_against=record.points_against,
        point_diff=record.points_for - record.points_against,
        buchholz=v["buchholz"],
        median_buchholz=v["median_buchholz"],
        sonneborn_berger=v["sonneborn_berger"],
        head_to_head=v["head_to_head"],
        byes=record.byes,
        forfeits=record.forfeits,
    )


Among = Callable[[int, set[int]], float]


def _among_tied(
    players: Sequence[int],
    values: dict[int, dict[str, float]],
    before: Sequence[str],
    name: str,
    value: Among,
) -> None:
    """Set ``name`` for each player from ``value``(player, the players equal to them on every
    criterion in ``before``)."""
    tied_groups: dict[tuple[float, ...], set[int]] = defaultdict(set)
    for p in players:
        tied_groups[tuple(values[p][b] for b in before)].add(p)
    for p in players:
        values[p][name] = value(p, tied_groups[tuple(values[p][b] for b in before)])


def _h2h(wins_against: dict[int, dict[int, int]]) -> Among:
    return lambda player, tied: head_to_head(player, tied, wins_against)


def _known_games(records: dict[int, _Record]) -> Among:
    """Games won as a tie-break: 0 for every tied player when one of them has it unknown, so
    it decides nothing there (docs/decisions.md D27)."""

    def value(player: int, tied: set[int]) -> float:
        if any(records[other].games_won is None for other in tied):
            return 0.0
        return float(records[player].games_won or 0)

    return value


def first_place_by_seed(
    rows: Sequence[StandingRow], seeds: Mapping[int, int | None]
) -> list[StandingRow]:
    """One winner: of the players sharing rank 1 on every criterion, the best seed (lowest
    number; an unseeded player after every seed) keeps it and the others share rank 2. A
    tournament's organiser seeds by rating, by lot or by hand, so this is their last resort
    (docs/decisions.md D28). Other ties stay shared.

    >>> rows = compute_standings([7, 8, 9], [])
    >>> [(r.rank, r.player) for r in first_place_by_seed(rows, {7: 3, 8: 1, 9: 2})]
    [(1, 8), (2, 7), (2, 9)]
    """
    tied = [row for row in rows if row.rank == 1]
    if len(tied) < 2:
        return list(rows)

    def seed(row: StandingRow) -> tuple[bool, int, int]:
        number = seeds.get(row.player)
        return number is None, number or 0, row.player

    first = min(tied, key=seed)
    others = [replace(row, rank=2) for row in tied if row is not first]
    return [first, *others, *(row for row in rows if row.rank != 1)]


def _records(
    players: Sequence[int], results: Sequence[MatchResult]
) -> tuple[dict[int, _Record], dict[int, dict[int, int]]]:
    if len(set(players)) != len(players):
        raise ValueError("the same player is listed twice")
    records = {p: _Record() for p in players}
    wins_against: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for result in results:
        for p in (result.player1, result.player2):
            if p is not None and p not in records:
                raise ValueError(f"round {result.round}: player {p} is not in this event")
        if result.player2 is None:
            record = records[result.player1]
            record.byes += 0 if result.missed else 1
            record.bye_points += result.bye_points
            record.opponents.append(None)
            continue
        if result.winner is None:
            continue
        if result.winner not in (result.player1, result.player2):
            raise ValueError(
                f"round {result.round}: winner {result.winner} did not play"
                f" {result.player1} v {result.player2}"
            )
        _add_match(records, wins_against, result)
    return records, wins_against


def _add_match(
    records: dict[int, _Record], wins_against: dict[int, dict[int, int]], result: MatchResult
) -> None:
    assert result.player2 is not None and result.winner is not None
    loser = result.player2 if result.winner == result.player1 else result.player1
    sides = (
        (result.player1, result.player2, result.score1, result.score2, result.games1),
        (result.player2, result.player1, result.score2, result.score1, result.games2),
    )
    for player, opponent, scored, conceded, games in sides:
        record = records[player]
        record.played += 1
        record.opponents.append(None if result.forfeit else opponent)
        if not result.forfeit:
            record.points_for += scored
            record.points_against += conceded
            record.games_won = (
                None if record.games_won is None or games is None else record.games_won + games
            )
    records[result.winner].wins += 1
    records[loser].losses += 1
    wins_against[result.winner][loser] += 1
    if result.forfeit:
        records[loser].forfeits += 1
    else:
        records[result.winner].beaten.append(loser)


def _rank_rows(
    players: Sequence[int],
    records: dict[int, _Record],
    values: dict[int, dict[str, float]],
    order: Sequence[str],
) -> list[StandingRow]:
    def key(p: int) -> tuple[float, ...]:
        return tuple(-values[p][name] for name in order)

    ranked = sorted(players, key=key)  # stable: ties keep the order of `players`
    rows = []
    rank = 0
    for i, p in enumerate(ranked):
        if i == 0 or key(p) != key(ranked[i - 1]):
            rank = i + 1
        rows.append(_row(p, records[p], values[p], rank=rank))
    return rows
