"""Errors the game services raise; games/api/exceptions.py maps each to an HTTP status.

Engine errors (games.engine.EngineError, a ValueError) pass through unchanged and become 400s.
"""


class GameServiceError(Exception):
    """Base class: a request the rules of the service refuse, with a plain-English message."""


class InvalidRequestError(GameServiceError):
    """Input that is well formed but makes no sense here (400)."""


class NotAllowedError(GameServiceError):
    """The user may not do this: not a player, not their turn, not the organiser (403)."""


class ConflictError(GameServiceError):
    """The request does not fit the current state: no roll due, game over, stale ply (409)."""


class StalePlyError(ConflictError):
    """The submitted ply is not the game's next ply: someone else's submission came first."""
