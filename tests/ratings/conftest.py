"""The rating update's own tests end their matches at once (a resignation after the
roll-off): the minimum of turns a rated match needs (``RATED_MIN_TURNS``, against pumping)
is off for them; tests/ratings/test_pumping.py sets it."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def rated_without_turns(settings: Any) -> None:
    settings.RATED_MIN_TURNS = 0
