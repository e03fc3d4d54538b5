"""Errors only the game services raise; the shared ones are in common/errors.py."""

from common.errors import ConflictError, GameServiceError


class StalePlyError(ConflictError):
    """The submitted ply is not the game's next ply: someone else's submission came first."""


class GameNotFoundError(GameServiceError):
    """No such game, or none the acting user may see (the API answers 404, as for any hidden
    row, without saying which)."""
