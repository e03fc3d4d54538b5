"""Errors raised by the rules engine. All are ValueErrors that quote the bad input."""


class EngineError(ValueError):
    """Base class: anything the engine rejects as invalid input."""


class InvalidPositionError(EngineError):
    """A POSITION that is malformed or impossible (docs/rules.md Appendix B7)."""


class InvalidNotationError(EngineError):
    """A move or play string that does not parse, e.g. ``"13-8"``."""


class InvalidDiceError(EngineError):
    """Dice that are not two integers 1-6, or that differ from the pending stage."""


class InvalidOptionsError(EngineError):
    """An unknown rule option key or value (docs/rules.md §8, Appendix B1)."""


class InvalidScoreError(EngineError):
    """A final match score that no match to its length could end with, e.g. ``2-2`` or
    ``50-0`` in a 5-point match (``match.final_score_winner``)."""


class UnknownVariantError(EngineError):
    """A variant name other than tabla, gul_bara or tapa."""


class IllegalPlayError(EngineError):
    """A submitted play that the rules do not allow.

    ``step`` is the 0-based index of the offending step, or None when every step was legal but
    the play as a whole breaks the must-play rule (docs/rules.md §2.4, §2.8).
    """

    def __init__(self, message: str, *, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step
