"""A postprocessing hook of the OpenAPI schema (drf-spectacular's POSTPROCESSING_HOOKS)."""

from __future__ import annotations

from typing import Any

METHODS = ("get", "put", "post", "patch", "delete", "head", "options")
REFUSED_INPUT = {
    "description": "Bad input: a NUL in the path or a query parameter (refused before the view, "
    "config.middleware.RefuseNulMiddleware), or a body the operation refuses.",
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {"detail": {"type": "string"}},
                "required": ["detail"],
            }
        }
    },
}


def document_refused_input(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every operation may answer 400: a NUL in its path or query is refused before its view.
    Operations that document their own 400 keep it."""
    for operations in result.get("paths", {}).values():
        for method in METHODS:
            responses = operations.get(method, {}).get("responses")
            if responses is not None and "400" not in responses:
                responses["400"] = REFUSED_INPUT
    return result
