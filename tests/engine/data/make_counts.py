"""Rebuild ``<variant>_counts.jsonl``: positions with dice and the number of distinct legal plays.

    .venv/bin/python -m tests.engine.data.make_counts

The expected counts come from the brute-force test reference (``tests/engine/reference.py``),
never from the engine. The engine is used only to walk seeded random games to interesting
positions. Rows: §9 cases, start positions, playout positions (bar entries, bear-offs, pins,
doubles, Gjul Bara cascade and remainder stages) and constructed end games.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from games.engine import start_position
from tests.engine.notation import case_position
from tests.engine.reference import BudgetExceeded, reference_answer
from tests.engine.strategies import playout, random_end_game, roll

HERE = Path(__file__).resolve().parent
BUDGET = 400_000
ROWS_PER_VARIANT = 34

CASES: dict[str, list[tuple[str, str, dict[str, Any], list[int] | None, dict[str, Any] | None]]] = {
    # (note, board, position keywords, dice, options)
    "tabla": [
        ("case 1", "W 13, 1×14 | B 2×2, 24×13", {}, [6, 5], None),
        ("case 3", "W 13, 1×14 | B 7×2, 24×13", {}, [6, 5], None),
        ("case 6", "W 6, 3, 2 (off 12) | B 24×10", {}, [6, 3], None),
        ("case 7", "W 6×2, 1 (off 12) | B 24×10", {}, [3, 2], None),
        ("case 8", "W bar 1, 24, 13×5, 8×3, 6×5 | B 20, 19×2, 17×3, 12×5, 1×4", {}, [6, 5], None),
        (
            "case 8, 1-1",
            "W bar 1, 24, 13×5, 8×3, 6×5 | B 20, 19×2, 17×3, 12×5, 1×4",
            {},
            [1, 1],
            None,
        ),
        ("case 9a", "W bar 2, 13×5, 8×3, 6×5 | B 19×2, 17×3, 12×5, 1×5", {}, [6, 5], None),
        (
            "case 9b",
            "W bar 1, 13×5, 8×3, 6×6 | B 19×2, 20×2, 21×2, 22×2, 23×2, 24×2, 12×3",
            {},
            [6, 6],
            None,
        ),
    ],
    "gul_bara": [
        ("case 11", "W 24×15 | B 12×15", {"rolls": (0, 0)}, [6, 6], None),
        ("case 12", "W 24×13, 19, 17 | B 20, 16, 12×13", {"rolls": (2, 2)}, [4, 1], None),
        ("case 13 stage 1", "W 6×4 (off 11) | B 13×15", {"rolls": (3, 5)}, [5, 5], None),
        ("case 14 stage 1", "W 22, 1×14 | B 16, 13×14", {"rolls": (3, 3)}, [3, 3], None),
        (
            "case 14 remainder 3-3-3",
            "W 19, 1×14 | B 16, 13×14",
            {
                "rolls": (4, 3),
                "turn": "b",
                "pending": [3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6],
                "pending_kind": "remainder",
            },
            None,
            None,
        ),
        ("case 15", "W 5, 2 (off 13) | B 3, 13×14", {}, [2, 1], None),
        ("start 1-1 escalating", "W 24×15 | B 12×15", {"rolls": (3, 3)}, [1, 1], None),
        ("start 1-1 roll 1", "W 24×15 | B 12×15", {"rolls": (0, 0)}, [1, 1], None),
    ],
    "tapa": [
        ("case 16", "W 24×12, 13×2, 11 | B 10, 1×14", {}, [3, 1], None),
        ("case 17", "W 24×12, 13×2, [b/w]@10 | B 7, 1×13", {"turn": "b"}, [3, 2], None),
        ("case 18 2-1", "W [w/b]@5, 2×3, 1×2 (off 9) | B 20×4, 13×10", {}, [2, 1], None),
        (
            "case 18 2-1 no_bearoff",
            "W [w/b]@5, 2×3, 1×2 (off 9) | B 20×4, 13×10",
            {},
            [2, 1],
            {"pinned_bearoff": "no_bearoff"},
        ),
        ("case 18 1-1", "W [w/b]@5, 2×3, 1×2 (off 9) | B 20×4, 13×10", {}, [1, 1], None),
        ("case 19", "W 3, 8×14 | B 1, 20×14", {}, [6, 2], None),
        ("case 20", "W 24×2, 3, 8×12 | B 1, 20×14", {}, [6, 2], None),
        ("case 21", "W 24, 8×13, [b/w]@1 | B 20×14", {}, [6, 2], None),
        ("case 21 mother off", "W 24, 8×13, [b/w]@1 | B 20×14", {}, [6, 2], {"mother": "off"}),
        ("case 22", "W 24, 8×13, [b/w]@1 | B 22, 5×13", {"turn": "b"}, [2, 1], None),
    ],
}
START_ROLLS = {
    "tabla": [[6, 5], [3, 1], [6, 6], [4, 4], [1, 1], [2, 1]],
    "gul_bara": [[6, 5], [2, 1], [3, 3]],
    "tapa": [[3, 1], [6, 6], [1, 1], [5, 2]],
}
WANTED = {
    "tabla": ["bar", "double", "bar", "double", "bear_off", "any"],
    "gul_bara": ["double", "cascade", "remainder", "bear_off", "double", "any"],
    "tapa": ["pin", "double", "pin", "bear_off", "double", "any"],
}
PLAYOUT_OPTIONS: dict[str, list[dict[str, Any] | None]] = {
    "tabla": [None, None, {"tabla_triple": True}],
    "gul_bara": [None, None, {"cascade_from_roll": 1}, {"unstarted_chain": "passes"}],
    "tapa": [None, None, {"pinned_bearoff": "no_bearoff"}, {"mother": "tie_only"}],
}


def _row(note: str, query: dict[str, Any]) -> dict[str, Any] | None:
    try:
        answer = reference_answer(query, budget=BUDGET)
    except BudgetExceeded:  # a position too big for the brute force is skipped
        return None
    row = {"note": note, "variant": query["variant"], "position": query["position"]}
    if "dice" in query:
        row["dice"] = query["dice"]
    if query.get("options"):
        row["options"] = query["options"]
    row["plays"] = len(answer["plays"])
    return row


def _features(query: dict[str, Any]) -> set[str]:
    position = query["position"]
    found = set()
    me = position["turn"]
    if position.get("bar", {}).get(me):
        found.add("bar")
    if position.get("pending"):
        found.add(position["pending_kind"])
    dice = query.get("dice")
    if dice and dice[0] == dice[1]:
        found.add("double")
    if any(len(stack) == 2 for stack in position["points"]):
        found.add("pin")
    return found


def rows_for(variant: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for note, board, keywords, dice, options in CASES[variant]:
        query = {"variant": variant, "position": case_position(board, **keywords)}
        if dice:
            query["dice"] = dice
        if options:
            query["options"] = options
        rows.append(_row(note, query))
    for dice in START_ROLLS[variant]:
        query = {"variant": variant, "position": start_position(variant).to_json(), "dice": dice}
        rows.append(_row(f"start {dice[0]}-{dice[1]}", query))
    rng = random.Random(f"counts:{variant}")
    wanted = WANTED[variant]
    picked = 0
    while len([r for r in rows if r]) < ROWS_PER_VARIANT - 5:
        options = rng.choice(PLAYOUT_OPTIONS[variant])
        for decision in playout(variant, rng, options, race=0.5):
            need = wanted[picked % len(wanted)]
            features = _features(decision.query)
            bearing = any("/off" in m for e in decision.plays for m in e["moves"])
            if need == "bear_off" and not bearing:
                continue
            if need not in ("any", "bear_off") and need not in features:
                continue
            if rng.random() < 0.9 and need == "any":
                continue
            row = _row(f"playout: {need}", decision.query)
            if row and row["plays"] > 1:
                rows.append(row)
                picked += 1
                break
        if picked > 200:
            break
    while len([r for r in rows if r]) < ROWS_PER_VARIANT:
        position = random_end_game(variant, rng)
        query: dict[str, Any] = {"variant": variant, "position": position}
        if not position.get("pending"):
            query["dice"] = roll(rng)
        options = rng.choice(PLAYOUT_OPTIONS[variant])
        if options:
            query["options"] = options
        row = _row("constructed end game", query)
        if row and row["plays"] > 1:
            rows.append(row)
    return [row for row in rows if row]


def main() -> None:
    for variant in ("tabla", "gul_bara", "tapa"):
        rows = rows_for(variant)
        path = HERE / f"{variant}_counts.jsonl"
        with path.open("w") as handle:
            for row in rows:
                handle.write(json.dumps(row, separators=(",", ":")) + "\n")
        print(f"{path.name}: {len(rows)} rows, plays {[row['plays'] for row in rows]}")


if __name__ == "__main__":
    main()
