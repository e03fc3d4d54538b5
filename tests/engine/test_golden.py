"""The batch CLI's answers stay byte-identical: every line of ``data/cli_golden.jsonl`` (generated
by ``data/make_golden.py`` from the engine before its answer path was optimised) is fed through
``run_plays``, the function behind ``python -m games.engine plays``, and each answer line must
have the recorded SHA-256."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

from games.engine.__main__ import run_plays

GOLDEN = Path(__file__).resolve().parent / "data" / "cli_golden.jsonl"


def _rows() -> list[dict[str, Any]]:
    with GOLDEN.open() as handle:
        return [json.loads(line) for line in handle]


def test_golden_file_covers_every_variant_and_stays_small() -> None:
    rows = _rows()
    variants = [json.loads(row["line"]).get("variant") for row in rows if "plays" in row]
    assert {variant: variants.count(variant) for variant in set(variants)} == {
        "tabla": 130,
        "gul_bara": 130,
        "tapa": 130,
    }
    assert GOLDEN.stat().st_size < 1_000_000


def test_cli_answers_are_byte_identical_to_the_golden_file() -> None:
    rows = _rows()
    out = io.StringIO()
    run_plays([row["line"] for row in rows], out)
    answers = out.getvalue().split("\n")
    assert answers[-1] == ""  # every answer line ends with a newline
    assert len(answers) - 1 == len(rows)
    for number, (row, answer) in enumerate(zip(rows, answers, strict=False), start=1):
        data = json.loads(answer)
        if "error" in row:
            assert data == {"error": row["error"]}, f"line {number}"
        else:
            assert len(data["plays"]) == row["plays"], f"line {number}: {row['line']}"
        digest = hashlib.sha256(answer.encode()).hexdigest()
        assert digest == row["sha256"], f"line {number} differs from the golden: {row['line']}"
