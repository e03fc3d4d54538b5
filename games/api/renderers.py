"""A renderer for JSON lines (application/x-ndjson): one JSON object per line."""

import json
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
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        rows = data if isinstance(data, list) else [data]
        return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows).encode()
