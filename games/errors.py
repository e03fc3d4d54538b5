"""Errors only the game services raise; the shared ones are in common/errors.py."""

from common.errors import ConflictError


class StalePlyError(ConflictError):
    """The submitted ply is not the game's next ply: someone else's submission came first."""
