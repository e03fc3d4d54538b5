"""Tiny evaluators for the tests of the chances, the review and practice (the `weights`
fixture of tests/conftest.py): the site reads them as it reads trained ones."""

from pathlib import Path

from games.analysis.encode import input_size
from games.analysis.net import Network

VARIANTS = ("tabla", "gul_bara", "tapa")


def write_networks(directory: Path, variants: tuple[str, ...] = VARIANTS) -> dict[str, Path]:
    """A tiny network per variant (8 hidden units, its own seed) saved as the site reads it."""
    paths = {}
    for seed, variant in enumerate(variants, start=1):
        path = directory / f"{variant}.npz"
        Network.create(input_size(variant), hidden=8, seed=seed).save(path, variant=variant)
        paths[variant] = path
    return paths
