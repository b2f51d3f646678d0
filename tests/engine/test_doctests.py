"""The examples in the engine's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

from .test_no_django import engine_modules


@pytest.mark.parametrize("name", engine_modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
