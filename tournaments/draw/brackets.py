"""Elimination brackets: single, double and consolation, built as data and resolved from results.

Pure code (no Django, no I/O). A bracket is a tuple of matches whose two sides name where their
players come from (a seed, the winner of a match or the loser of a match). `resolve` replays the
results from scratch, so the Django layer can call it after every result or correction.

The names the Django layer stores (sections, slot states, and sources as text such as
"winner:W1-1", see `source_text`) are defined here once, as `StrEnum` members or by
`source_text` / `parse_source`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from common.numbers import is_ascii_digits


class Section(StrEnum):
    """The part of a bracket a match belongs to; members are listed in display order."""

    MAIN = "main"  # the winners bracket, or the only flight
    LOSERS = "losers"
    CONSOLATION = "consolation"
    THIRD_PLACE = "third_place"
    GRAND_FINAL = "grand_final"
    RESET = "reset"


def section_rank(name: str) -> int:
    """Position of a section in display order: main, losers, consolation, third place, grand
    final, reset; any other name (such as "group-2") comes after them."""
    order = [str(section) for section in Section]
    return order.index(name) if name in order else len(order)


class SlotStatus(StrEnum):
    WAITING = "waiting"  # a side is not known yet
    READY = "ready"  # both players known, no result
    DONE = "done"  # played: winner and loser known
    BYE = "bye"  # one side is a bye: the other player advances unplayed
    VOID = "void"  # both sides are byes, or a grand-final reset that is not needed


@dataclass(frozen=True)
class Seed:
    number: int  # seed 1..n; a number above n is a bye


@dataclass(frozen=True)
class WinnerOf:
    key: str


@dataclass(frozen=True)
class LoserOf:
    """The loser of match `key`. With `side` (0 or 1), only a loser who came into that match on
    that side: the consolation uses it to take a seed whose first round was a bye at the seed's
    first match played, and nobody else (any other loser of that match makes this side a bye)."""

    key: str
    side: int | None = None


@dataclass(frozen=True)
class Bye:
    """A side that is always empty: the player on the other side advances unplayed."""


Source = Seed | WinnerOf | LoserOf | Bye


def source_text(source: Source) -> str:
    """The stored form of a source: "seed:3", "winner:W1-1", "loser:W1-1", "loser:W2-1:0"
    (the loser of W2-1 if they came in on side 0) or "bye"."""
    if isinstance(source, Seed):
        return f"seed:{source.number}"
    if isinstance(source, Bye):
        return "bye"
    if isinstance(source, WinnerOf):
        return f"winner:{source.key}"
    side = "" if source.side is None else f":{source.side}"
    return f"loser:{source.key}{side}"


def parse_source(text: str) -> Source:
    """The inverse of `source_text`; ValueError for any other text."""
    if text == "bye":
        return Bye()
    kind, _, value = text.partition(":")
    if kind == "seed" and is_ascii_digits(value):
        return Seed(int(value))
    if kind == "winner" and value:
        return WinnerOf(value)
    if kind == "loser" and value:
        key, _, side = value.partition(":")
        if key and side in ("", "0", "1"):
            return LoserOf(key, int(side) if side else None)
    raise ValueError(f"not a bracket source: {text!r}")


@dataclass(frozen=True)
class BracketMatch:
    key: str
    section: Section
    round: int
    index: int
    sources: tuple[Source, Source]
    match_length: int | None = None  # None: the tournament's match length


@dataclass(frozen=True)
class Bracket:
    format: str  # "single_elimination" | "double_elimination" | "consolation"
    size: int  # number of entrants n
    matches: tuple[BracketMatch, ...]  # in play order

    def match(self, key: str) -> BracketMatch:
        for match in self.matches:
            if match.key == key:
                return match
        raise KeyError(key)

    def rounds(self, section: Section) -> list[list[BracketMatch]]:
        """The matches of one section, round by round, each round top to bottom."""
        by_round: dict[int, list[BracketMatch]] = {}
        for match in self.matches:
            if match.section == section:
                by_round.setdefault(match.round, []).append(match)
        return [sorted(by_round[r], key=lambda m: m.index) for r in sorted(by_round)]


@dataclass(frozen=True)
class SlotState:
    key: str
    players: tuple[int | None, int | None]  # None: not known yet, or a bye
    status: SlotStatus
    winner: int | None
    loser: int | None


def bracket_size(n: int) -> int:
    """The power of two a field of n entrants is drawn into: bracket_size(6) == 8."""
    if n < 2:
        raise ValueError(f"an elimination bracket needs at least 2 entrants, got {n}")
    return 1 << (n - 1).bit_length()


def seeding_order(size: int) -> list[int]:
    """Seeds top to bottom for a power-of-two draw, 1 v size folded recursively.

    >>> seeding_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]

    Each round-1 match pairs seed s with size + 1 - s, so the byes (seeds above n) meet the
    top seeds, and seeds 1 and 2 can only meet in the final.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a draw size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def single_elimination(n: int, *, third_place: bool = False) -> Bracket:
    """Main flight only; "3P" pairs the semi-final losers when asked (and there are semi-finals)."""
    rounds = _main_flight(bracket_size(n))
    matches = [m for round_ in rounds for m in round_]
    if third_place and len(rounds) >= 2:
        semis = rounds[-2]
        sources = (LoserOf(semis[0].key), LoserOf(semis[1].key))
        matches.append(BracketMatch("3P", Section.THIRD_PLACE, 1, 1, sources))
    return Bracket("single_elimination", n, _in_play_order(matches))


def double_elimination(n: int, *, reset: bool = True) -> Bracket:
    """Winners ("W"), losers ("L"), grand final "GF" and, when `reset`, the reset match "GF2".

    Losers of winners round 1 pair off in L1; losers of each later winners round drop into
    the losers bracket in an order chosen to keep them away from players they may have
    already beaten (see `_drop_order`). GF puts the winners-bracket champion in slot 0; GF2
    pairs the same two players again and is "void" unless the losers-bracket player wins GF.
    """
    main = _main_flight(bracket_size(n))
    losers, champion = _losers_flight(main, len(main), "L", Section.LOSERS, None)
    matches = [m for round_ in main + losers for m in round_]
    final = (WinnerOf(main[-1][0].key), champion)
    matches.append(BracketMatch("GF", Section.GRAND_FINAL, 1, 1, final))
    if reset:
        matches.append(BracketMatch("GF2", Section.RESET, 1, 1, (LoserOf("GF"), WinnerOf("GF"))))
    return Bracket("double_elimination", n, _in_play_order(matches))


def consolation(n: int, *, entry_rounds: int = 1, match_length: int | None = None) -> Bracket:
    """A single-elimination main flight plus a progressive consolation flight ("C").

    Whoever loses their *first match played* enters C1, as tournament directors run a
    consolation: the losers of main round 1 and, in place of a round-1 bye, the seed who had
    it if they lose their first real match (in round 2; `LoserOf(key, side)`). With
    entry_rounds=2 the other losers of main round 2 (those who won a round-1 match) drop into
    C2 against the C1 winners, and so on, so a later loss means a later entry; nobody enters
    twice. Consolation matches carry `match_length` (None: the tournament's own length).
    `consolation_rounds_for` says which entry_rounds a field allows: a 2-entrant draw has one
    round and so no consolation (entry_rounds=0, the main flight alone).
    """
    main = _main_flight(bracket_size(n))
    if entry_rounds != consolation_rounds_for(n, entry_rounds):
        allowed = f"between 1 and {len(main) - 1}" if len(main) > 1 else "0"
        raise ValueError(f"entry_rounds must be {allowed} for {n} entrants, got {entry_rounds}")
    side: list[list[BracketMatch]] = []
    if entry_rounds:
        side, _ = _losers_flight(
            main, entry_rounds, "C", Section.CONSOLATION, match_length, _first_losses(main, n)
        )
    matches = [m for round_ in main + side for m in round_]
    return Bracket("consolation", n, _in_play_order(matches))


def consolation_rounds_for(n: int, wanted: int) -> int:
    """The entry rounds a consolation of n entrants can have, as close to `wanted` as the draw
    allows: at least 1 and fewer than the main flight's rounds (0 for a 2-entrant draw)."""
    rounds = bracket_size(n).bit_length() - 1
    return max(1, min(wanted, rounds - 1)) if rounds > 1 else 0


def _is_seed_bye(match: BracketMatch, n: int) -> bool:
    """A round-1 match between a seed and a bye (seed numbers above n are byes)."""
    return any(isinstance(s, Seed) and s.number > n for s in match.sources)


def _first_losses(main: list[list[BracketMatch]], n: int) -> Callable[[int, BracketMatch], Source]:
    """Where the losers of main round `entering` come from for the consolation.

    Round 1: the loser of the match, or, for a seed's bye, the loser of the seed's round-2
    match if that is the seed (their first match played). Round 2: the loser of the match
    only if they came in from a played round-1 match (a seed from a bye has entered already);
    a match between two seeds with byes drops nobody. Later rounds: the loser."""

    def source(entering: int, match: BracketMatch) -> Source:
        if entering == 1:
            if not _is_seed_bye(match, n) or len(main) < 2:
                return LoserOf(match.key)
            return LoserOf(main[1][(match.index - 1) // 2].key, (match.index - 1) % 2)
        if entering == 2:
            feeders = [main[0][2 * (match.index - 1) + side] for side in (0, 1)]
            played = [side for side in (0, 1) if not _is_seed_bye(feeders[side], n)]
            if len(played) == 2:
                return LoserOf(match.key)
            return LoserOf(match.key, played[0]) if played else Bye()
        return LoserOf(match.key)

    return source


def _main_flight(size: int) -> list[list[BracketMatch]]:
    order = seeding_order(size)
    rounds = [
        [
            BracketMatch(
                f"W1-{i + 1}", Section.MAIN, 1, i + 1, (Seed(order[2 * i]), Seed(order[2 * i + 1]))
            )
            for i in range(size // 2)
        ]
    ]
    while len(rounds[-1]) > 1:
        previous, number = rounds[-1], len(rounds) + 1
        rounds.append(
            [
                BracketMatch(
                    f"W{number}-{i + 1}",
                    Section.MAIN,
                    number,
                    i + 1,
                    (WinnerOf(previous[2 * i].key), WinnerOf(previous[2 * i + 1].key)),
                )
                for i in range(len(previous) // 2)
            ]
        )
    return rounds


# A live slot in a losers flight: where its player comes from, and the winners-bracket matches
# (round, index) whose loser may be the player there (used to steer clear of rematches).
_Live = tuple[Source, frozenset[tuple[int, int]]]


def _losers_flight(
    main: list[list[BracketMatch]],
    entry_rounds: int,
    prefix: str,
    section: Section,
    match_length: int | None,
    loser: Callable[[int, BracketMatch], Source] | None = None,
) -> tuple[list[list[BracketMatch]], Source]:
    """Rounds of a flight fed by losers of main rounds 1..entry_rounds, and its champion.
    `loser(round, match)` is where the loser of a main match comes from (default: LoserOf)."""
    drop = loser or (lambda _round, match: LoserOf(match.key))
    live: list[_Live] = [(drop(1, m), frozenset({(1, m.index)})) for m in main[0]]
    rounds: list[list[BracketMatch]] = []
    entering = 2
    while True:
        number = len(rounds) + 1
        if entering <= entry_rounds and len(main[entering - 1]) == len(live):
            drops: list[_Live] = [
                (drop(entering, m), frozenset({(entering, m.index)})) for m in main[entering - 1]
            ]
            order = _drop_order(live, entering)
            pairs = [(live[i], drops[j]) for i, j in enumerate(order)]
            entering += 1
        elif len(live) >= 2:
            pairs = [(live[2 * i], live[2 * i + 1]) for i in range(len(live) // 2)]
        else:
            return rounds, live[0][0]
        matches = [
            BracketMatch(
                f"{prefix}{number}-{i + 1}", section, number, i + 1, (a[0], b[0]), match_length
            )
            for i, (a, b) in enumerate(pairs)
        ]
        rounds.append(matches)
        live = [(WinnerOf(m.key), a[1] | b[1]) for m, (a, b) in zip(matches, pairs, strict=True)]


def _drop_order(live: Sequence[_Live], entering: int) -> list[int]:
    """For each live slot i, the index of the winners-round match whose loser drops in there.

    The loser of winners match (r, j) has beaten players from the winners matches below it
    (round q < r, index i with (i - 1) >> (r - q) == j - 1); a live slot whose origins include
    one of those risks a rematch. Among a few classic arrangements (straight, reversed,
    halves swapped, ...) the one with the fewest such risks wins; earlier is preferred on ties.
    """
    m = len(live)
    half = m // 2
    candidates = [
        list(range(m)),
        list(reversed(range(m))),
        [(i + half) % m for i in range(m)],
        [(m - 1 - i + half) % m for i in range(m)],
    ]

    def risks(order: list[int]) -> int:
        return sum(
            1
            for (_, origins), j in zip(live, order, strict=True)
            for q, i in origins
            if q < entering and (i - 1) >> (entering - q) == j
        )

    return min(candidates, key=risks)


def play_levels(matches: Sequence[BracketMatch]) -> dict[str, int]:
    """The earliest time each match can be played: 1 for a match of seeds, else 1 + the latest
    of its feeders. Matches played at the same level are played side by side (in a double
    elimination, winners round 2 and losers round 1 are both level 2). ``matches`` come
    feeders-first, as built and as stored (in play order)."""
    level: dict[str, int] = {}
    for match in matches:
        feeders = [level[s.key] for s in match.sources if isinstance(s, WinnerOf | LoserOf)]
        level[match.key] = 1 + max(feeders, default=0)
    return level


def _in_play_order(matches: Sequence[BracketMatch]) -> tuple[BracketMatch, ...]:
    """Sort by the earliest time a match can be played (``play_levels``)."""
    level = play_levels(matches)
    return tuple(
        sorted(
            matches,
            key=lambda m: (level[m.key], section_rank(m.section), m.round, m.index),
        )
    )


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


BYE = _Marker("BYE")
UNKNOWN = _Marker("UNKNOWN")
_Side = int | _Marker


def resolve(
    bracket: Bracket,
    seeding: Mapping[int, int],
    results: Mapping[str, int],
    *,
    strict: bool = True,
) -> dict[str, SlotState]:
    """The state of every match after the given results, recomputed from scratch.

    `seeding` maps seed numbers 1..n to entrant ids; `results` maps match keys to winners.
    A match with a bye on one side has status "bye" and advances the other player once that
    player is known (until then it is "waiting"); a bye never loses, so the loser of a "bye"
    match is itself a bye. A result for a match that is not "ready" or "done" (or, for a "bye"
    match, that does not name the advancing player) raises ValueError, as does a result that
    names a player who is not in that match. With `strict` False such a result is left out
    instead (what a correction would leave of the later results).
    """
    _check_seeding(bracket, seeding)
    keys = {m.key for m in bracket.matches}
    unknown = sorted(set(results) - keys)
    if unknown:
        raise ValueError(f"results for matches not in this bracket: {', '.join(unknown)}")
    states: dict[str, SlotState] = {}
    for match in bracket.matches:
        states[match.key] = slot_state(match, bracket.size, seeding, states)
        try:
            _apply_result(states, match.key, results.get(match.key))
        except ValueError:
            if strict:
                raise
    return states


def slot_state(
    match: BracketMatch, size: int, seeding: Mapping[int, int], states: Mapping[str, SlotState]
) -> SlotState:
    """The state of `match` before its own result, from the states of the matches that feed
    it (`states` holds at least those) in a bracket of `size` entrants: what `resolve` computes
    for it in turn. A result changes only the matches it feeds, so they can be brought up to
    date one by one, without resolving the whole bracket again.

    >>> final = BracketMatch("W2-1", Section.MAIN, 2, 1, (WinnerOf("W1-1"), WinnerOf("W1-2")))
    >>> done = SlotState("W1-1", (11, 14), SlotStatus.DONE, 11, 14)
    >>> ready = SlotState("W1-2", (12, 13), SlotStatus.READY, None, None)
    >>> seeding = {1: 11, 2: 12, 3: 13, 4: 14}
    >>> state = slot_state(final, 4, seeding, {"W1-1": done, "W1-2": ready})
    >>> state.players, str(state.status)
    ((11, None), 'waiting')
    """
    feeder = match.sources[1]
    if (
        match.section == Section.RESET
        and isinstance(feeder, WinnerOf)
        and _reset_not_needed(states[feeder.key])
    ):
        return SlotState(match.key, (None, None), SlotStatus.VOID, None, None)
    sides = (
        _side(match.sources[0], size, seeding, states),
        _side(match.sources[1], size, seeding, states),
    )
    return _state(match.key, sides)


def downstream(bracket: Bracket, key: str) -> list[str]:
    """The matches that come after match `key`: those its winner or loser goes on to, then
    theirs, and so on, in play order. Only their players can change when the result of `key`
    does (a grand-final reset counts: whether it is played follows the grand final).

    >>> downstream(single_elimination(8), "W2-1")
    ['W3-1']
    """
    later: set[str] = {key}
    for match in bracket.matches:  # in play order: feeders first
        if any(isinstance(s, WinnerOf | LoserOf) and s.key in later for s in match.sources):
            later.add(match.key)
    return [match.key for match in bracket.matches if match.key in later and match.key != key]


def _check_seeding(bracket: Bracket, seeding: Mapping[int, int]) -> None:
    expected = set(range(1, bracket.size + 1))
    if set(seeding) != expected:
        raise ValueError(f"seeding must give seeds 1..{bracket.size}, got {sorted(seeding)}")
    if len(set(seeding.values())) != len(seeding):
        raise ValueError("seeding names the same entrant twice")


def _reset_not_needed(grand_final: SlotState) -> bool:
    if grand_final.status in (SlotStatus.BYE, SlotStatus.VOID):
        return True
    return grand_final.status == SlotStatus.DONE and grand_final.winner == grand_final.players[0]


def _side(
    source: Source, size: int, seeding: Mapping[int, int], states: Mapping[str, SlotState]
) -> _Side:
    if isinstance(source, Seed):
        return seeding[source.number] if source.number <= size else BYE
    if isinstance(source, Bye):
        return BYE
    state = states[source.key]
    if state.status == SlotStatus.VOID:
        return BYE
    if isinstance(source, WinnerOf):
        return state.winner if state.winner is not None else UNKNOWN
    if state.status == SlotStatus.BYE:
        return BYE
    if state.loser is None:
        return UNKNOWN
    if source.side is not None and state.players[source.side] != state.loser:
        return BYE  # the loser came in on the other side: not this slot's player
    return state.loser


def _state(key: str, sides: tuple[_Side, _Side]) -> SlotState:
    players = (
        sides[0] if isinstance(sides[0], int) else None,
        sides[1] if isinstance(sides[1], int) else None,
    )
    if sides[0] is BYE and sides[1] is BYE:
        return SlotState(key, players, SlotStatus.VOID, None, None)
    if BYE in (sides[0], sides[1]):
        other = sides[1] if sides[0] is BYE else sides[0]
        if other is UNKNOWN:
            return SlotState(key, players, SlotStatus.WAITING, None, None)
        return SlotState(key, players, SlotStatus.BYE, players[0] or players[1], None)
    if UNKNOWN in (sides[0], sides[1]):
        return SlotState(key, players, SlotStatus.WAITING, None, None)
    return SlotState(key, players, SlotStatus.READY, None, None)


def _apply_result(states: dict[str, SlotState], key: str, winner: int | None) -> None:
    if winner is None:
        return
    state = states[key]
    if state.status == SlotStatus.BYE and winner == state.winner:
        return
    if state.status != SlotStatus.READY:
        status = str(state.status)
        raise ValueError(f"match {key} is {status!r} and cannot take a result ({winner})")
    a, b = state.players
    if winner not in (a, b):
        raise ValueError(f"result for {key} names {winner}, who is not in that match ({a} v {b})")
    loser = b if winner == a else a
    states[key] = SlotState(key, state.players, SlotStatus.DONE, winner, loser)


def placings(bracket: Bracket, states: Mapping[str, SlotState]) -> list[tuple[int, int]]:
    """(entrant, place) for every entrant whose final place is decided, best first.

    Players knocked out at the same stage share a place: without a third-place match both
    semi-final losers are 3rd and the four quarter-final losers 5th (byes take no place, so
    with 6 entrants the two quarter-final losers are 5th). Double elimination: champion,
    runner-up, then losers-bracket rounds from last to first. For a consolation bracket these
    are the main-flight places; `consolation_placings` ranks the side flight.
    """
    return [(player, first) for player, first, _last in placing_ranges(bracket, states)]


def placing_ranges(
    bracket: Bracket, states: Mapping[str, SlotState], section: Section = Section.MAIN
) -> list[tuple[int, int, int]]:
    """(entrant, first place, last place) of the places each decided entrant shares, best
    first: with 8 entrants the quarter-final losers share places 5 to 8, (p, 5, 8); a place of
    one's own is (p, 3, 3). The places are those of `placings` (main flight), or with `section`
    CONSOLATION those of `consolation_placings` (docs/decisions.md D33).

    >>> bracket = single_elimination(4)
    >>> states = resolve(bracket, {1: 11, 2: 12, 3: 13, 4: 14}, {"W1-1": 11, "W1-2": 12})
    >>> placing_ranges(bracket, states)
    [(14, 3, 4), (13, 3, 4)]
    """
    if section == Section.CONSOLATION:
        rounds = bracket.rounds(Section.CONSOLATION)
        kinds = _static_kinds(bracket)
        return _number_tiers(_flight_tiers(rounds, states, kinds, with_champion=True))
    return _number_tiers(_main_tiers(bracket, states))


def _main_tiers(bracket: Bracket, states: Mapping[str, SlotState]) -> list[_Tier]:
    kinds = _static_kinds(bracket)
    if bracket.format == "double_elimination":
        return _grand_final_tiers(states) + _flight_tiers(
            bracket.rounds(Section.LOSERS), states, kinds, with_champion=False
        )
    tiers = _flight_tiers(bracket.rounds(Section.MAIN), states, kinds, with_champion=True)
    if bracket.format == "single_elimination" and any(m.key == "3P" for m in bracket.matches):
        third = [
            _outcome(states, kinds, "3P", "winner"),
            _outcome(states, kinds, "3P", "loser"),
        ]
        tiers = tiers[:2] + third + tiers[3:]  # the semi-final losers are placed by 3P
    return tiers


def consolation_placings(
    bracket: Bracket, states: Mapping[str, SlotState]
) -> list[tuple[int, int]]:
    """Places within the consolation flight (its winner is 1st), as `placings` ranks a flight."""
    ranges = placing_ranges(bracket, states, Section.CONSOLATION)
    return [(player, first) for player, first, _last in ranges]


# A tier: how many places it spans, and the players known to finish in it so far.
_Tier = tuple[int, list[int]]


def _number_tiers(tiers: list[_Tier]) -> list[tuple[int, int, int]]:
    placed: list[tuple[int, int, int]] = []
    place = 1
    for count, players in tiers:
        placed.extend((player, place, place + count - 1) for player in players)
        place += count
    return placed


def _outcome(
    states: Mapping[str, SlotState], kinds: Mapping[str, str], key: str, side: str
) -> _Tier:
    status = states[key].status
    if kinds[key] == "void" or status == SlotStatus.VOID:
        return 0, []
    if side == "loser" and (kinds[key] == "bye" or status == SlotStatus.BYE):
        return 0, []
    player = states[key].winner if side == "winner" else states[key].loser
    return 1, [player] if player is not None else []


def _flight_tiers(
    rounds: list[list[BracketMatch]],
    states: Mapping[str, SlotState],
    kinds: Mapping[str, str],
    *,
    with_champion: bool,
) -> list[_Tier]:
    tiers = (
        [_outcome(states, kinds, rounds[-1][0].key, "winner")] if with_champion and rounds else []
    )
    for round_ in reversed(rounds):
        outcomes = [_outcome(states, kinds, m.key, "loser") for m in round_]
        tiers.append((sum(c for c, _ in outcomes), [p for _, ps in outcomes for p in ps]))
    return tiers


def _grand_final_tiers(states: Mapping[str, SlotState]) -> list[_Tier]:
    final = states["GF"]
    reset = states.get("GF2")
    decider = final
    if final.status == SlotStatus.DONE and final.winner != final.players[0] and reset is not None:
        decider = reset  # the losers-bracket player won GF: GF2 decides
    if decider.status != SlotStatus.DONE:
        return [(1, []), (1, [])]
    assert decider.winner is not None and decider.loser is not None
    return [(1, [decider.winner]), (1, [decider.loser])]


def _static_kinds(bracket: Bracket) -> dict[str, str]:
    """Per match, "real", "bye" or "void" from the draw alone. Only the consolation's
    side-conditional slots (`LoserOf` with a side) become byes by results; `_outcome` reads
    those from the states."""
    kinds: dict[str, str] = {}

    def side_is_bye(source: Source) -> bool:
        if isinstance(source, Seed):
            return source.number > bracket.size
        if isinstance(source, Bye):
            return True
        if isinstance(source, WinnerOf):
            return kinds[source.key] == "void"
        return kinds[source.key] != "real"

    for match in bracket.matches:
        byes = sum(side_is_bye(s) for s in match.sources)
        kinds[match.key] = ("real", "bye", "void")[byes]
    return kinds
