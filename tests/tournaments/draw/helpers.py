"""Shared helpers for the pure tournament tests: playing brackets out and checking their shape."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from tournaments.draw.brackets import Bracket, SlotState, resolve

Chooser = Callable[[tuple[int, int]], int]


def seeding_for(n: int) -> dict[int, int]:
    """Entrant ids 101, 102, ... for seeds 1, 2, ... so ids and seeds are easy to tell apart."""
    return {seed: 100 + seed for seed in range(1, n + 1)}


def top_seed_wins(players: tuple[int, int]) -> int:
    return min(players)


def random_winner(rng: random.Random) -> Chooser:
    return lambda players: rng.choice(players)


def play_out(bracket: Bracket, choose: Chooser) -> tuple[dict[str, SlotState], dict[str, int]]:
    """Resolve, play every ready match with `choose`, repeat until nothing is ready."""
    seeding = seeding_for(bracket.size)
    results: dict[str, int] = {}
    while True:
        states = resolve(bracket, seeding, results)
        ready = [s for s in states.values() if s.status == "ready"]
        if not ready:
            return states, results
        for state in ready:
            a, b = state.players
            assert a is not None and b is not None
            results[state.key] = choose((a, b))


def losses(states: dict[str, SlotState]) -> Counter[int]:
    return Counter(s.loser for s in states.values() if s.status == "done" and s.loser is not None)


def assert_well_formed(bracket: Bracket, states: dict[str, SlotState]) -> None:
    """Finished, feeders before their matches, no bye played as a match, one match per round."""
    seen: set[str] = set()
    for match in bracket.matches:
        for source in match.sources:
            assert getattr(source, "key", None) in (None, *seen), f"{match.key} before its feeder"
        seen.add(match.key)
    for state in states.values():
        assert state.status in ("done", "bye", "void"), state
        if state.status == "done":
            assert None not in state.players, f"a bye met a bye or a gap in {state}"
    per_round: Counter[tuple[str, int, int]] = Counter()
    for match in bracket.matches:
        state = states[match.key]
        for player in state.players:
            if player is not None and state.status == "done":
                per_round[(match.section, match.round, player)] += 1
    assert max(per_round.values(), default=1) == 1
