"""Rebuild ``cli_golden.jsonl``: batch-CLI query lines and a fingerprint of each answer line.

    .venv/bin/python -m tests.engine.data.make_golden

The file pins the CLI's exact output bytes (docs/rules.md Appendix A), so that work on the answer
path (e.g. building POSITION_AFTER faster) cannot change a single byte of any answer. It was
generated from the engine BEFORE the answer path was optimised; rebuild it only for a deliberate
change of the answers. Rows: ``line`` (the query line fed to the CLI), ``sha256`` of the answer
line (without its newline), and ``plays`` (the number of entries) or ``error`` (the message).
Queries are decisions of seeded random games of every variant under many option sets (bar
entries, bear-offs, pins, cascades, remainders and game-ending plays), plus a few bad lines.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from pathlib import Path
from typing import Any

from games.engine.__main__ import run_plays
from tests.engine.strategies import playout

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "cli_golden.jsonl"
PER_VARIANT = 130

OPTION_SETS: dict[str, list[dict[str, Any] | None]] = {
    "tabla": [
        None,
        {"tabla_triple": True},
        {"tabla_hit_and_run_home": False},
        {"head_rule": True},
        {"preset": "bulgarian_nit"},
    ],
    "gul_bara": [
        None,
        {"cascade_from_roll": 1},
        {"cascade_from_roll": 3, "cascade_count": "per_game"},
        {"cascade_remainder": "forfeit"},
        {"unstarted_chain": "passes"},
        {"cascade_scope": "whole_chain", "cascade_from_roll": 1},
        {"preset": "greek_tavli"},
        {"six_prime": "opponent_ahead"},
    ],
    "tapa": [
        None,
        {"mother": "tie_only"},
        {"mother": "off"},
        {"tapa_tie": "one_each"},
        {"pinned_bearoff": "no_bearoff"},
        {"preset": "bulgarian_nit"},
    ],
}

BAD_LINES = [
    '{"variant": "tabla", "position": ',
    "[1, 2, 3]",
    '{"variant": "backgammon", "position": {}, "dice": [6, 5]}',
    '{"variant": "tabla", "dice": [6, 5]}',
    '{"variant": "tapa", "position": {"turn": "x", "points": []}, "dice": [1, 2]}',
]


def query_lines() -> list[str]:
    lines: list[str] = []
    for variant, option_sets in OPTION_SETS.items():
        rng = random.Random(f"golden:{variant}")
        picked: list[str] = []
        game = 0
        while len(picked) < PER_VARIANT:
            options = option_sets[game % len(option_sets)]
            game += 1
            decisions = list(playout(variant, rng, options, max_decisions=300, race=0.4))
            chosen = rng.sample(decisions, min(6, len(decisions)))
            chosen.append(decisions[-1])  # often a game-ending decision
            for decision in chosen:
                picked.append(json.dumps(decision.query))
        lines.extend(picked[:PER_VARIANT])
    bad_dice = json.loads(lines[0])
    bad_dice["dice"] = [0, 7]
    lines.append(json.dumps(bad_dice))
    lines.extend(BAD_LINES)
    return lines


def rows(lines: list[str]) -> list[dict[str, Any]]:
    out = io.StringIO()
    run_plays(lines, out)
    answers = out.getvalue().splitlines()
    assert len(answers) == len(lines)
    result = []
    for line, answer in zip(lines, answers, strict=True):
        row: dict[str, Any] = {
            "line": line,
            "sha256": hashlib.sha256(answer.encode()).hexdigest(),
        }
        data = json.loads(answer)
        if "error" in data:
            row["error"] = data["error"]
        else:
            row["plays"] = len(data["plays"])
        result.append(row)
    return result


def main() -> None:
    found = rows(query_lines())
    with GOLDEN.open("w") as handle:
        for row in found:
            handle.write(json.dumps(row, separators=(",", ":")) + "\n")
    print(f"{GOLDEN.name}: {len(found)} rows, {GOLDEN.stat().st_size} bytes")


if __name__ == "__main__":
    main()
