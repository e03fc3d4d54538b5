"""Renderers of the match export: JSON lines (application/x-ndjson), one JSON object per line,
and the Jellyfish .mat text (text/plain)."""

import json
from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer


class JSONLinesRenderer(BaseRenderer):
    media_type = "application/x-ndjson"
    format = "jsonl"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        rows = data if isinstance(data, list) else [data]
        return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows).encode()


class MatRenderer(BaseRenderer):
    """A Jellyfish ``.mat`` file, chosen by ``?format=mat``; an error body stays JSON."""

    media_type = "text/plain"
    format = "mat"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
        return text.encode()
