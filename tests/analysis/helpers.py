"""Positions from seeded random self-play, for the analysis tests."""

import random

from games.engine import Position, legal_plays, start_position


def sample_positions(variant: str, count: int, seed: int = 1) -> list[Position]:
    """``count`` positions met in random games of ``variant`` (each with its side to move)."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = start_position(variant, rng.choice("wb"))
        for _ in range(400):
            found.append(position)
            dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
            outcome = rng.choice(legal_plays(variant, position, dice))
            if outcome.result is not None:
                break
            position = outcome.position
    return found[:count]
