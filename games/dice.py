"""Provably fair dice: a per-game secret seed, its public SHA-256 commitment, and dice derived
from the seed with HMAC-SHA256. Pure Python (no Django), so anyone can rerun it.

Derivation (documented for players in the README):

* ``seed`` is 32 random bytes from the operating system's CSPRNG (``secrets``), stored as
  64 lowercase hex characters; ``commitment = SHA-256(seed bytes)`` in hex is published when the
  game starts and the seed itself when the game ends.
* A *die stream* for a label (``"roll:7"`` for the dice of ply 7, ``"opening"`` for the opening
  roll) is the bytes of ``HMAC-SHA256(key=seed bytes, msg=label + ":" + block)`` for block = 0, 1,
  2, ..., concatenated. Each byte ``b < 252`` gives the die ``b % 6 + 1``; bytes 252-255 are
  skipped (rejection sampling, so every face has probability exactly 1/6).
* The dice of ply N are the first two dice of the stream ``"roll:N"``. The opening roll takes
  dice from the stream ``"opening"`` in pairs (player one's die, then player two's) until a
  pair differs; the higher die starts and plays white.

>>> seed = "00" * 32
>>> roll(seed, 1) == roll(seed, 1) and all(1 <= d <= 6 for d in roll(seed, 1))
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

SEED_BYTES = 32


def new_seed() -> str:
    """A fresh secret seed: 32 bytes from the CSPRNG, as hex."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The public commitment to ``seed``: SHA-256 of its bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def die_stream(seed: str, label: str) -> Iterator[int]:
    """Unbiased dice 1-6 for ``label``, endless (see the module docstring)."""
    key = bytes.fromhex(seed)
    block = 0
    while True:
        digest = hmac.new(key, f"{label}:{block}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:
                yield byte % 6 + 1
        block += 1


def roll(seed: str, ply: int) -> list[int]:
    """The two dice of decision ``ply`` of a game."""
    stream = die_stream(seed, f"roll:{ply}")
    return [next(stream), next(stream)]


def opening_stream(seed: str) -> Iterator[int]:
    return die_stream(seed, "opening")


@dataclass(frozen=True, slots=True)
class DiceCheck:
    """The outcome of checking a game's dice against its commitment."""

    ok: bool
    problems: tuple[str, ...]


def verify(
    *,
    seed: str,
    commitment_hex: str,
    rolls: Iterable[tuple[int, list[int]]],
    opening_rolls: list[list[int]],
    first_dice_from_opening: bool = False,
) -> DiceCheck:
    """Check a revealed ``seed`` against the commitment, then every ``(ply, dice)`` roll and the
    opening roll against the dice the seed yields. With ``first_dice_from_opening`` (option
    ``opening_roll=use_opening_dice``) the dice of ply 1 are the deciding opening pair."""
    problems: list[str] = []
    try:
        seed_matches = commitment(seed) == commitment_hex
    except ValueError:
        seed_matches = False
    if not seed_matches:
        return DiceCheck(False, ("the seed does not match the published commitment",))
    if opening_rolls:
        stream = opening_stream(seed)
        expected_rounds = _rounds(stream, len(opening_rolls))
        if expected_rounds != opening_rolls:
            problems.append(f"opening roll {opening_rolls} should be {expected_rounds}")
    for ply, dice in rolls:
        expected = roll(seed, ply)
        if ply == 1 and first_dice_from_opening and opening_rolls:
            expected = list(opening_rolls[-1])
        if list(dice) != expected:
            problems.append(f"ply {ply}: dice {list(dice)} should be {expected}")
    return DiceCheck(not problems, tuple(problems))


def _rounds(stream: Iterator[int], count: int) -> list[list[int]]:
    return [[next(stream), next(stream)] for _ in range(count)]
