"""Batch CLI: ``python -m games.engine plays < queries.jsonl > answers.jsonl`` (Appendix A)."""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Iterable
from typing import TextIO

from .query import answer_text

USAGE = "usage: python -m games.engine plays < queries.jsonl > answers.jsonl"


def run_plays(lines: Iterable[str], out: TextIO) -> None:
    """One answer line per input line, in order, flushed as it goes (streaming)."""
    for line in lines:
        out.write(answer_or_internal_error(line) + "\n")
        out.flush()


def answer_or_internal_error(line: str) -> str:
    """The answer line for one input line. Any unexpected exception (an engine bug) is answered
    on its line as ``{"error": "internal error: <type>: <message>"}``, its traceback written to
    stderr, and the batch goes on: one bad query must not cost the answers to all later ones.
    KeyboardInterrupt and SystemExit still stop the run (they are not Exceptions)."""
    try:
        if not line.strip():
            return _compact({"error": "empty line: expected a JSON query"})
        return answer_text(line)
    except Exception as error:  # noqa: BLE001 - the contract: every line gets an answer
        traceback.print_exc(file=sys.stderr)
        message = str(error)
        if len(message) > 200:
            message = message[:197] + "..."
        return _compact({"error": f"internal error: {type(error).__name__}: {message}"})


def _compact(answer: dict[str, str]) -> str:
    return json.dumps(answer, separators=(",", ":"))


def main(argv: list[str]) -> int:
    if argv != ["plays"]:
        print(USAGE, file=sys.stderr)
        return 2
    run_plays(sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
