"""Server-side dice from ``secrets``; tests replace ``_source`` with a script."""

from __future__ import annotations

import secrets
from collections.abc import Callable

DieSource = Callable[[], int]


def secure_die() -> int:
    return secrets.randbelow(6) + 1


_source: DieSource = secure_die


def roll_die() -> int:
    value = _source()
    if not 1 <= value <= 6:
        raise ValueError(f"a die shows 1..6, not {value}")
    return value
