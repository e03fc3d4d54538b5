"""Errors the services raise; common/api/exceptions.py maps each to an HTTP status.

Engine errors (games.engine.EngineError, a ValueError) pass through unchanged and become 400s
(games registers them with common.api.exceptions.register_error_status).
"""


class GameServiceError(Exception):
    """Base class: a request the rules of the service refuse, with a plain-English message."""


class InvalidRequestError(GameServiceError):
    """Input that is well formed but makes no sense here (400)."""


class NotAllowedError(GameServiceError):
    """The user may not do this: not a player, not their turn, not the organiser (403)."""


class ConflictError(GameServiceError):
    """The request does not fit the current state: no roll due, game over, stale ply (409)."""
