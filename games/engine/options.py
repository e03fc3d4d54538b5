"""Rule options (docs/rules.md §8) and the presets macedonian, bulgarian_nit and greek_tavli."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import InvalidOptionsError

VARIANT_NAMES = ("tabla", "gul_bara", "tapa")

# Bounds of the numeric options (see Options): a value outside is an InvalidOptionsError naming
# the option and the range, so no request can ask for a match that never ends or a number that
# does not fit a database column.
MAX_MATCH_LENGTH = 99  # the same bound as a match's target_score
MAX_CYCLE_LENGTH = 30  # games in one cycle; a cycle repeats, so a longer one adds nothing
MAX_STUCK_LIMIT = 1000  # consecutive idle rolls; bulgarian_nit uses 100

_CHOICES: dict[str, tuple[str, ...]] = {
    "opening_roll": ("reroll_both", "use_opening_dice"),
    "next_starter": ("previous_winner", "opening_roll"),
    "cube": ("off", "tabla_only", "all_games"),
    "cascade_count": ("per_player", "per_game"),
    "cascade_remainder": ("opponent", "forfeit"),
    "unstarted_chain": ("lost", "passes"),
    "cascade_scope": ("per_stage", "whole_chain"),
    "six_prime": ("allowed", "opponent_ahead", "must_release"),
    "mother": ("auto_win", "tie_only", "off"),
    "tapa_tie": ("replay", "one_each", "zero"),
    "pinned_bearoff": ("occupies", "no_bearoff"),
    "start_display": ("stack15", "two_plus_reserve"),
}
_BOOLEANS = (
    "crawford",
    "tabla_triple",
    "tabla_hit_and_run_home",
    "cascade",
    "first_runner",
    "start_quarter_block",
    "head_rule",
)


@dataclass(frozen=True, slots=True)
class Options:
    """Every club switch of docs/rules.md §8; the defaults are the Macedonian match.

    Bounds, checked by from_json (each violation an InvalidOptionsError naming the option and
    the allowed values):

    - ``match_length``: an integer 1..99 (MAX_MATCH_LENGTH, the bound of a match's
      target_score);
    - ``cycle``: a list of 1..30 games (MAX_CYCLE_LENGTH), each tabla, gul_bara or tapa or one
      of their Greek and Turkish names (CYCLE_ALIASES);
    - ``cascade_from_roll``: 1, 3 or 4;
    - ``stuck_limit``: null ("none") or an integer 1..1000 (MAX_STUCK_LIMIT);
    - the switches of _BOOLEANS: true or false; the others: one of the names in _CHOICES.

    >>> Options.from_json({"preset": "bulgarian_nit"}).tapa_tie
    'one_each'
    """

    match_length: int = 5
    cycle: tuple[str, ...] = VARIANT_NAMES
    opening_roll: str = "reroll_both"
    next_starter: str = "previous_winner"
    cube: str = "off"
    crawford: bool = False
    tabla_triple: bool = False
    tabla_hit_and_run_home: bool = True
    cascade: bool = True
    cascade_from_roll: int = 4
    cascade_count: str = "per_player"
    cascade_remainder: str = "opponent"
    unstarted_chain: str = "lost"
    cascade_scope: str = "per_stage"
    first_runner: bool = False
    start_quarter_block: bool = False
    six_prime: str = "allowed"
    head_rule: bool = False
    mother: str = "auto_win"
    tapa_tie: str = "replay"
    pinned_bearoff: str = "occupies"
    start_display: str = "stack15"
    stuck_limit: int | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Options:
        """Build options from a JSON object: an optional ``preset`` first, then explicit keys.

        Unknown keys and values raise InvalidOptionsError naming them (docs/rules.md Appendix B1).
        """
        if data is None:
            return DEFAULT_OPTIONS
        if not isinstance(data, Mapping):
            raise InvalidOptionsError(f"options must be a JSON object, got {_shown(data)}")
        base = DEFAULT_OPTIONS
        if "preset" in data:
            name = data["preset"]
            if not isinstance(name, str) or name not in PRESETS:
                raise InvalidOptionsError(
                    f"unknown preset {_shown(name)}; expected one of {', '.join(sorted(PRESETS))}"
                )
            base = PRESETS[name]
        known = {field.name for field in fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            if key == "preset":
                continue
            if key not in known:
                raise InvalidOptionsError(f"unknown option {_shown(key)}")
            changes[key] = _validated(key, value)
        return replace(base, **changes)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["cycle"] = list(self.cycle)
        return data

    def cube_applies_to(self, variant: str) -> bool:
        return self.cube == "all_games" or (self.cube == "tabla_only" and variant == "tabla")


def _shown(value: Any) -> str:
    """The bad input for an error message, cut short: a request may send a megabyte."""
    try:
        text = repr(value)
    except ValueError:  # an integer past Python's digit limit for str()
        return "a very large number"
    except RecursionError:
        return "a deeply nested value"
    return text if len(text) <= 60 else text[:57] + "..."


def _integer(key: str, value: Any, low: int, high: int, extra: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidOptionsError(
            f"option {key}={_shown(value)}: expected {extra}an integer from {low} to {high}"
        )
    return value


def _validated(key: str, value: Any) -> Any:
    if key in _CHOICES:
        if isinstance(value, str) and value in _CHOICES[key]:
            return value
        expected = ", ".join(_CHOICES[key])
        raise InvalidOptionsError(f"option {key}={_shown(value)}: expected one of {expected}")
    if key in _BOOLEANS:
        if not isinstance(value, bool):
            raise InvalidOptionsError(f"option {key}={_shown(value)}: expected true or false")
        return value
    if key == "match_length":
        return _integer(key, value, 1, MAX_MATCH_LENGTH)
    if key == "cascade_from_roll":
        if isinstance(value, bool) or not isinstance(value, int) or value not in (1, 3, 4):
            raise InvalidOptionsError(
                f"option cascade_from_roll={_shown(value)}: expected 1, 3 or 4"
            )
        return value
    if key == "stuck_limit":
        if value is None or value == "none":
            return None
        return _integer(key, value, 1, MAX_STUCK_LIMIT, extra="null or ")
    if key == "cycle":
        if isinstance(value, str) or not isinstance(value, list | tuple) or not value:
            raise InvalidOptionsError(
                f"option cycle={_shown(value)}: expected a non-empty list of games"
            )
        if len(value) > MAX_CYCLE_LENGTH:
            raise InvalidOptionsError(
                f"option cycle: {len(value)} games; expected 1 to {MAX_CYCLE_LENGTH}"
            )
        games = []
        for name in value:
            game = CYCLE_ALIASES.get(name, name) if isinstance(name, str) else name
            if game not in VARIANT_NAMES:
                raise InvalidOptionsError(
                    f"option cycle: unknown game {_shown(name)}; expected tabla, gul_bara or "
                    f"tapa (or the Greek and Turkish names {', '.join(sorted(CYCLE_ALIASES))})"
                )
            games.append(game)
        return tuple(games)
    raise InvalidOptionsError(f"unknown option {key!r}")  # pragma: no cover - guarded by caller


# The Greek and Turkish names of the same games (§7), accepted in ``cycle``: each is played by
# the engine variant with its geometry; the rules that differ (Plakoto's mother, Fevga's
# F1-F3 and no cascade) are options of their own, set together by the greek_tavli preset.
CYCLE_ALIASES = {
    "portes": "tabla",
    "plakoto": "tapa",
    "fevga": "gul_bara",
    "tavla": "tabla",
    "moultezim": "gul_bara",
}

DEFAULT_OPTIONS = Options()

PRESETS: dict[str, Options] = {
    "macedonian": DEFAULT_OPTIONS,
    "bulgarian_nit": replace(
        DEFAULT_OPTIONS,
        opening_roll="use_opening_dice",
        next_starter="opening_roll",
        tapa_tie="one_each",
        pinned_bearoff="no_bearoff",
        stuck_limit=100,
    ),
    # Greek Tavli (§7): Portes -> Plakoto -> Fevga. Fevga is gul_bara geometry without the cascade
    # and with F1 + F2 + F3. Decision: F3 takes the BrainKing/DRG form (must_release), the same
    # sources as F1 and F2.
    "greek_tavli": replace(
        DEFAULT_OPTIONS,
        cycle=("tabla", "tapa", "gul_bara"),
        cascade=False,
        first_runner=True,
        start_quarter_block=True,
        six_prime="must_release",
    ),
}
