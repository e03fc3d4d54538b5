"""Batch CLI: ``python -m games.engine plays < queries.jsonl > answers.jsonl`` (Appendix A)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TextIO

from .query import answer_line

USAGE = "usage: python -m games.engine plays < queries.jsonl > answers.jsonl"


def run_plays(lines: Iterable[str], out: TextIO) -> None:
    """One answer line per input line, in order, flushed as it goes (streaming)."""
    for line in lines:
        if not line.strip():
            answer = {"error": "empty line: expected a JSON query"}
        else:
            answer = answer_line(line)
        out.write(json.dumps(answer, separators=(",", ":")) + "\n")
        out.flush()


def main(argv: list[str]) -> int:
    if argv != ["plays"]:
        print(USAGE, file=sys.stderr)
        return 2
    run_plays(sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
