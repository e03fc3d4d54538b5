"""The contract's query/answer objects (RULES.md Appendix A): one JSON object in, one out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import EngineError
from .generate import legal_plays
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
    if not isinstance(query, Mapping):
        raise EngineError(f"a query must be a JSON object, got {type(query).__name__}")
    # Keys beyond the contract's (e.g. a caller's own "id") are ignored, so that tools which tag
    # their queries still interoperate; unknown *option* keys are errors (B1).
    variant = find_variant(query.get("variant"))
    if "position" not in query:
        raise EngineError("the query has no position")
    position = Position.from_json(query["position"])
    options = Options.from_json(query.get("options"))
    outcomes = legal_plays(variant.name, position, query.get("dice"), options)
    return {"plays": [outcome.to_json() for outcome in outcomes]}


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
