"""Errors only the game services raise; the shared ones are in common/errors.py."""

import datetime
import math
from typing import Any

from common.errors import ConflictError, GameServiceError


class StalePlyError(ConflictError):
    """The submitted ply is not the game's next ply: someone else's submission came first."""


class GameNotFoundError(GameServiceError):
    """No such game, or none the acting user may see (the API answers 404, as for any hidden
    row, without saying which)."""


class ClaimTooEarlyError(ConflictError):
    """A claim before the opponent's inactivity reached the match's ``claim_after_hours``; the
    409 answer also gives ``claim_at`` and ``seconds_left``."""

    def __init__(self, *, claim_at: datetime.datetime, left: datetime.timedelta) -> None:
        seconds = max(1, math.ceil(left.total_seconds()))
        hours, minutes = seconds // 3600, seconds % 3600 // 60
        wait = f"{hours} h {minutes:02d} min" if seconds >= 60 else f"{seconds} s"
        super().__init__(
            f"too early to claim: the opponent still has {wait} to act "
            f"(until {claim_at.isoformat(timespec='seconds')})"
        )
        self.extra: dict[str, Any] = {"claim_at": claim_at, "seconds_left": seconds}
