"""Loaded only into the Celery workers of test_worker_outages.py (``celery worker --include``):
when TABLA_TEST_SLOW_ONCE names a file, the first standings recompute writes its process id
there and then sleeps, so that the test can kill that process mid-task; later runs (the file
exists) recompute at once. The production code has no such hook: the task calls
``services.standings_recompute``, which this module wraps."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from tournaments import services

MARKER = os.environ.get("TABLA_TEST_SLOW_ONCE")

if MARKER:
    _recompute = services.standings_recompute

    def _slow_once(**kwargs: Any) -> Any:
        marker = Path(MARKER)
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            time.sleep(120)  # killed long before this ends
        return _recompute(**kwargs)

    services.standings_recompute = _slow_once
