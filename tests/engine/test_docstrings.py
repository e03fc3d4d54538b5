"""The examples in the engine's docstrings hold (docs/conventions.md: public engine functions carry
a tiny
example where it helps)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.engine

MODULES = sorted(
    f"games.engine.{info.name}"
    for info in pkgutil.iter_modules(games.engine.__path__)
    if info.name != "__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    failures, _tried = doctest.testmod(module, verbose=False, report=True)
    assert failures == 0, f"{failures} docstring example(s) fail in {name} (see the output above)"
