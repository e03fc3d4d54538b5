"""The contract's query/answer objects (docs/rules.md Appendix A): one JSON object in, one out."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .encode import plays_text
from .errors import EngineError
from .generate import Decision
from .options import Options
from .position import Position
from .variants import find_variant


def answer_query(query: Any) -> dict[str, Any]:
    """Answer one query: ``{"plays": [...]}``; raises an EngineError for a bad query.

    >>> from games.engine import start_position
    >>> q = {"variant": "tabla", "position": start_position("tabla").to_json(), "dice": [6, 5]}
    >>> len(answer_query(q)["plays"])
    7
    """
    decision = _decision(query)
    outcomes = [decision.outcome(node, path) for node, path in decision.paths.items()]
    return {"plays": [outcome.to_json() for outcome in outcomes]}


def _decision(query: Any) -> Decision:
    """The query read and checked, and its legal plays found (or an EngineError)."""
    if not isinstance(query, Mapping):
        raise EngineError(f"a query must be a JSON object, got {type(query).__name__}")
    # Keys beyond the contract's (e.g. a caller's own "id") are ignored, so that tools which tag
    # their queries still interoperate; unknown *option* keys are errors (B1).
    variant = find_variant(query.get("variant"))
    if "position" not in query:
        raise EngineError("the query has no position")
    position = Position.from_json(query["position"])
    options = Options.from_json(query.get("options"))
    return Decision.prepare(variant.name, position, query.get("dice"), options)


def answer_line(line: str) -> dict[str, Any]:
    """Answer one JSON line; any error becomes ``{"error": message}`` so a batch goes on."""
    import json

    try:
        query = json.loads(line)
    except RecursionError:  # the decoder refuses nesting past the interpreter's depth limit
        return {"error": "the line is not valid JSON: nested too deeply"}
    except ValueError as error:  # JSONDecodeError, or an integer past Python's digit limit
        return {"error": f"the line is not valid JSON: {error}"}
    try:
        return answer_query(query)
    except ValueError as error:
        return {"error": str(error)}
    except RecursionError:
        return {"error": "the query is nested too deeply"}


def answer_text(line: str) -> str:
    """``answer_line(line)`` as the batch CLI writes it (compact JSON), the plays written
    straight from the search (``encode.plays_text``, where the speed-up is measured)."""
    try:
        decision = _decision(json.loads(line))
    except Exception:  # noqa: BLE001 - not a bug here: answer_line words every bad query
        # A bad query is answered, and its error worded, by answer_line alone, so both paths
        # say exactly the same; a genuine engine bug raises again there.
        return json.dumps(answer_line(line), separators=(",", ":"))
    return plays_text(decision)
