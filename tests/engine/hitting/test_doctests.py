"""The examples in the hitting games' docstrings run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import nardy.hitting

MODULES = ["nardy.hitting"] + [
    f"nardy.hitting.{m.name}" for m in pkgutil.iter_modules(nardy.hitting.__path__)]


def test_the_subpackage_has_its_modules() -> None:
    assert {"nardy.hitting.generate", "nardy.hitting.position",
            "nardy.hitting.turn", "nardy.hitting.variants"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
