"""The examples in the hitting games' docstrings run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.engine.hitting

MODULES = ["games.engine.hitting"] + [
    f"games.engine.hitting.{m.name}" for m in pkgutil.iter_modules(games.engine.hitting.__path__)]


def test_the_subpackage_has_its_modules() -> None:
    assert {"games.engine.hitting.generate", "games.engine.hitting.position",
            "games.engine.hitting.turn", "games.engine.hitting.variants"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
