"""Compatibility: the seat helpers moved to tests/support.py, the fixtures to tests/conftest.py."""

from tests.support import Seat, start_match

__all__ = ["Seat", "start_match"]
