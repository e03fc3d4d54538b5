"""Perft-like counts (docs/conventions.md, test layer 2): the number of distinct legal plays per
row of
``data/<variant>_counts.jsonl``. The expected numbers come from the brute-force test reference
(see ``data/make_counts.py``) and, for the §9 cases and start positions, from hand counts.
A failure prints the count per first move ("divide") of both sides and the differing states."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from games.engine import answer_query
from tests.engine.helpers import describe
from tests.engine.reference import BudgetExceeded, canonical, reference_answer

DATA = Path(__file__).resolve().parent / "data"
VARIANTS = ("tabla", "gul_bara", "tapa")
NODE_CAP = 400_000  # the divide on failure runs the brute force; beyond this it is left out


def _rows() -> list[Any]:
    rows = []
    for variant in VARIANTS:
        with (DATA / f"{variant}_counts.jsonl").open() as handle:
            for number, line in enumerate(handle, start=1):
                row = json.loads(line)
                rows.append(pytest.param(row, id=f"{variant}-{number}-{row.get('note', '')}"))
    return rows


def _query(row: dict[str, Any]) -> dict[str, Any]:
    return {key: row[key] for key in ("variant", "position", "dice", "options") if key in row}


def _lead(move: str) -> tuple[int, int]:
    source, target = move.split("/")
    return (25 if source == "bar" else int(source), 0 if target == "off" else -int(target))


def _divide(query: dict[str, Any], engine: list[dict[str, Any]]) -> str:
    """Counts per first move. Each state is filed under its legal move order that starts
    highest (docs/rules.md B3's suggested canonical order), as the brute force finds them; a state
    only the engine lists is filed under the engine's first move, marked with ``*``."""
    try:
        reference = reference_answer(query, budget=NODE_CAP, all_paths=True)["plays"]
    except BudgetExceeded:
        listed = Counter(e["moves"][0] if e["moves"] else "pass" for e in engine)
        return f"reference over the node cap; engine per listed first move: {dict(listed)}"
    lead = {
        canonical(entry): max(
            (path[0] for path in entry["paths"] if path), key=_lead, default="pass"
        )
        for entry in reference
    }
    expected = Counter(lead.values())
    found: Counter[str] = Counter()
    for entry in engine:
        key = canonical(entry)
        first = entry["moves"][0] if entry["moves"] else "pass"
        found[lead[key] if key in lead else f"{first}*"] += 1
    lines = ["first move: reference / engine"]
    for move in sorted(set(expected) | set(found), key=lambda m: m.rstrip("*")):
        lines.append(f"  {move}: {expected.get(move, 0)} / {found.get(move, 0)}")
    lines.append(describe(query, {"engine": engine, "reference": reference}))
    return "\n".join(lines)


def test_each_variant_has_20_to_40_count_rows() -> None:
    for variant in VARIANTS:
        with (DATA / f"{variant}_counts.jsonl").open() as handle:
            rows = [json.loads(line) for line in handle]
        assert 20 <= len(rows) <= 40
        assert all(row["variant"] == variant for row in rows)


@pytest.mark.parametrize("row", _rows())
def test_number_of_distinct_plays(row: dict[str, Any]) -> None:
    query = _query(row)
    engine = answer_query(query)["plays"]
    if len(engine) != row["plays"]:
        pytest.fail(
            f"{row['variant']} {row.get('note')}: expected {row['plays']} plays, "
            f"engine lists {len(engine)}\n{_divide(query, engine)}"
        )
