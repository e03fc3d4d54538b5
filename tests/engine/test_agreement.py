"""The engine and the brute-force reference agree on positions reached by random playouts.

For every decision met in seeded random games (and, now and then, for another roll of the same
position) both must list the same set of resulting states, results included. Every mismatch is
reported with its query JSON and the states only one side lists. A sample of the reference's move
orders is also fed to ``check_play``, which must accept each and reach the same state.

The number of positions per configuration can be raised with TABLA_AGREEMENT_SCALE (a factor).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

from games.engine import IllegalPlayError, answer_query
from tests.engine.helpers import checked_entry, describe, states
from tests.engine.reference import BudgetExceeded, canonical, reference_answer
from tests.engine.strategies import playout, query_for, random_end_game, roll

SCALE = float(os.environ.get("TABLA_AGREEMENT_SCALE", "1"))
NODE_BUDGET = 150_000  # steps the brute force may try for one query
MAX_SKIPPED = 0.02  # share of queries the budget may skip

# (variant, options, positions to check, features the run must have met at least once)
CONFIGS: list[tuple[str, dict[str, Any] | None, int, tuple[str, ...]]] = [
    ("tabla", None, 600, ("enter", "hit", "bear_off", "pass", "won")),
    ("gul_bara", None, 500, ("cascade", "remainder", "bear_off", "pass", "won")),
    ("tapa", None, 600, ("pin", "bear_off", "won", "mother")),
    ("tabla", {"preset": "bulgarian_nit"}, 150, ("hit", "won")),
    ("gul_bara", {"preset": "bulgarian_nit"}, 150, ("cascade", "won")),
    ("tapa", {"preset": "bulgarian_nit"}, 150, ("pin", "won")),
    ("tabla", {"tabla_triple": True}, 150, ("hit", "won")),
    ("gul_bara", {"cascade_from_roll": 1}, 150, ("cascade", "remainder", "won")),
    ("gul_bara", {"cascade_from_roll": 3}, 150, ("cascade", "won")),
    ("gul_bara", {"cascade_count": "per_game"}, 150, ("cascade", "won")),
    ("gul_bara", {"cascade_remainder": "forfeit"}, 150, ("cascade", "won")),
    ("gul_bara", {"unstarted_chain": "passes"}, 150, ("cascade", "won")),
    ("gul_bara", {"cascade": False}, 150, ("won",)),
    ("tapa", {"mother": "tie_only"}, 150, ("pin", "won")),
    ("tapa", {"mother": "off"}, 150, ("pin", "won")),
    ("tapa", {"pinned_bearoff": "no_bearoff"}, 150, ("pin", "won")),
    ("tapa", {"tapa_tie": "one_each"}, 150, ("pin", "won")),
]


# Option sets for the constructed end games, drawn at random per position.
END_GAME_OPTIONS: dict[str, list[dict[str, Any] | None]] = {
    "tabla": [None, {"tabla_triple": True}],
    "gul_bara": [
        None,
        {"cascade_remainder": "forfeit"},
        {"unstarted_chain": "passes"},
        {"cascade_from_roll": 1, "cascade_count": "per_game"},
    ],
    "tapa": [
        None,
        {"pinned_bearoff": "no_bearoff"},
        {"mother": "tie_only"},
        {"mother": "off"},
        {"tapa_tie": "one_each"},
    ],
}
END_GAME_FEATURES = {
    "tabla": ("enter", "hit", "bear_off_higher_die", "result:single", "gammon"),
    "gul_bara": ("bear_off_higher_die", "cascade", "remainder", "pass", "gammon"),
    "tapa": ("bear_off_with_own_pin", "bear_off_higher_die", "result:mother", "pass"),
}


def _features(query: dict[str, Any], entries: list[dict[str, Any]]) -> set[str]:
    """What a query exercised, to prove the random games reach the interesting rules."""
    found = set()
    position = query["position"]
    them = "b" if position["turn"] == "w" else "w"
    if position.get("pending"):
        found.add(position["pending_kind"])
    if _bearing_off_with_own_pin(query):
        found.add("bear_off_with_own_pin")
    dice = query.get("dice") or []
    for entry in entries:
        moves, after = entry["moves"], entry["position"]
        if not moves:
            found.add("pass")
        if any(move.startswith("bar/") for move in moves):
            found.add("enter")
        if any(move.endswith("/off") for move in moves):
            found.add("bear_off")
        if any(move.endswith("/off") and int(move.split("/")[0]) not in dice for move in moves):
            found.add("bear_off_higher_die")
        if after["bar"][them] > position.get("bar", {}).get(them, 0):
            found.add("hit")
        if any(len(stack) == 2 for stack in after["points"]):
            found.add("pin")
        if after.get("pending_kind"):
            found.add(after["pending_kind"])
        if "result" in entry:
            kind = entry["result"]["kind"]
            found.add("won" if kind in ("single", "mars", "triple") else kind)
            found.add(f"result:{kind}")
            if kind in ("mars", "triple"):
                found.add("gammon")
    return found


def _bearing_off_with_own_pin(query: dict[str, Any]) -> bool:
    """Tapa: the mover has all checkers home and one of them is pinned there (§5.6)."""
    position = query["position"]
    me = position["turn"]
    home = range(1, 7) if me == "w" else range(19, 25)
    pinned_home = any(
        len(position["points"][p - 1]) == 2 and position["points"][p - 1][0][0] == me for p in home
    )
    outside = any(
        owner == me
        for index, stack in enumerate(position["points"])
        if index + 1 not in home
        for owner, _ in stack
    )
    return pinned_home and not outside


def _compare(query: dict[str, Any], rng: random.Random, report: list[str]) -> set[str] | None:
    """Check one query; returns its features, or None when the brute force was too big."""
    try:
        engine = answer_query(query)["plays"]
    except Exception as error:  # the engine must answer every valid query
        report.append(f"engine raised {error!r}\n{describe(query, {})}")
        return set()
    try:
        reference = reference_answer(query, budget=NODE_BUDGET, all_paths=True)["plays"]
    except BudgetExceeded:
        return None
    if states(engine) != states(reference) or len(engine) != len(states(engine)):
        report.append(describe(query, {"engine": engine, "reference": reference}))
        return _features(query, reference)
    for entry in rng.sample(reference, min(2, len(reference))):
        moves = rng.choice(entry["paths"])
        try:
            accepted = checked_entry(query, moves)
        except IllegalPlayError as error:
            report.append(f"check_play rejects legal {moves}: {error}\n{describe(query, {})}")
            continue
        if canonical(accepted) != canonical(entry):
            report.append(f"check_play of {moves} reaches another state\n{describe(query, {})}")
    return _features(query, reference)


@pytest.mark.parametrize(
    "variant, options, positions, required",
    CONFIGS,
    ids=[
        f"{v}-{'-'.join(f'{k}={x}' for k, x in (o or {}).items()) or 'defaults'}"
        for v, o, _, _ in CONFIGS
    ],
)
def test_engine_agrees_with_reference(
    variant: str, options: dict[str, Any] | None, positions: int, required: tuple[str, ...]
) -> None:
    seed = f"{variant}:{sorted((options or {}).items())}"
    rng = random.Random(seed)
    target = int(positions * SCALE)
    checked = skipped = 0
    report: list[str] = []
    seen: Counter[str] = Counter()
    games = 0
    while checked + skipped < target:
        games += 1
        for decision in playout(variant, rng, options, race=0.8 if games % 2 else 0.0):
            queries = [decision.query]
            if "dice" in decision.query and rng.random() < 0.3:
                queries.append(query_for(variant, decision.position, roll(rng), options))
            for query in queries:
                features = _compare(query, rng, report)
                if features is None:
                    skipped += 1
                else:
                    checked += 1
                    seen.update(features)
            if checked + skipped >= target or len(report) >= 5:
                break
        if len(report) >= 5:
            break
    assert not report, f"{len(report)} disagreement(s) (seed {seed!r}):\n" + "\n\n".join(report)
    assert skipped <= MAX_SKIPPED * (checked + skipped), f"{skipped} skipped, {checked} checked"
    missing = [feature for feature in required if not seen[feature]]
    assert not missing, f"the random games never met {missing}; seen {dict(seen)}"


@pytest.mark.parametrize("variant", ["tabla", "gul_bara", "tapa"])
def test_engine_agrees_with_reference_on_constructed_end_games(variant: str) -> None:
    """Random bear-off positions (pinned checkers at home, blots in the home board, the bar,
    pending stages) are rare in playouts; here they are built directly, with a fifth of
    random middle games (checkers anywhere) mixed in."""
    seed = f"end games:{variant}"
    rng = random.Random(seed)
    target = int(600 * SCALE)
    checked = skipped = 0
    report: list[str] = []
    seen: Counter[str] = Counter()
    while checked + skipped < target and len(report) < 5:
        home_share = 0.9 if rng.random() < 0.8 else rng.choice([0.0, 0.3, 0.6])
        position = random_end_game(variant, rng, home_share)
        dice = None if position.get("pending") else roll(rng)
        query = query_for(variant, position, dice, rng.choice(END_GAME_OPTIONS[variant]))
        features = _compare(query, rng, report)
        if features is None:
            skipped += 1
        else:
            checked += 1
            seen.update(features)
    assert not report, f"{len(report)} disagreement(s) (seed {seed!r}):\n" + "\n\n".join(report)
    assert skipped <= MAX_SKIPPED * (checked + skipped), f"{skipped} skipped, {checked} checked"
    missing = [feature for feature in END_GAME_FEATURES[variant] if not seen[feature]]
    assert not missing, f"the end games never met {missing}; seen {dict(seen)}"
