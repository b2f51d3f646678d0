"""The server shapes, reads and draws boards only through the rule
set's codec, so a codec that adds a field (as Plakoto's would, for a pinned checker)
or stacks both colours on a point needs no change to the server.

Backgammon's codec is swapped here for one that adds a ``pinned`` field (own points
where one of the opponent's checkers stands under the top ones: the test keeps it a
label) and draws a pinned checker under the stack; the analysis endpoint passes the
field through its input validation to the codec and back out on every result board,
and the admin's SVG draws the mixed stack.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.board_svg import board_svg
from nardy import BACKGAMMON_RULES, BLACK, WHITE, InvalidPositionError, SignedCounts
from tests.support import ANALYSIS, assert_error

pytestmark = pytest.mark.django_db


class PinnedCodec(SignedCounts):
    """Backgammon's board plus ``pinned``: a list of the perspective's point numbers
    shown with a pinned opposing checker under them (a label only, in this test)."""

    fields = {"pinned": "Own points with a pinned opposing checker under the top ones."}
    pinned: tuple[int, ...] = ()

    def board(self, position: Any, perspective: int) -> dict[str, Any]:
        return {**super().board(position, perspective), "pinned": list(self.pinned)}

    def position(self, board: Any) -> Any:
        pinned = board.get("pinned", [])
        if not (isinstance(pinned, list) and all(type(p) is int and 1 <= p <= 24
                                                 for p in pinned)):
            raise InvalidPositionError("pinned must be a list of points 1..24")
        PinnedCodec.pinned = tuple(pinned)
        return super().position({k: v for k, v in board.items() if k != "pinned"})

    def stacks(self, position: Any) -> dict[int, tuple[int, ...]]:
        stacks = super().stacks(position)
        return {p: (BLACK, *s) if p in self.pinned else s for p, s in stacks.items()}


@pytest.fixture
def pinned_codec(monkeypatch: pytest.MonkeyPatch) -> PinnedCodec:
    codec = PinnedCodec(BACKGAMMON_RULES.position_from_perspective, bar=True)
    monkeypatch.setattr(BACKGAMMON_RULES, "codec", codec)
    monkeypatch.setattr(PinnedCodec, "pinned", ())
    return codec


START = {"24": 2, "13": 5, "8": 3, "6": 5, "19": -5, "17": -3, "12": -5, "1": -2}


def test_a_field_the_codec_adds_goes_in_and_out_of_the_api(api, pinned_codec):
    board = {"perspective": "white", "points": START, "off": {"mine": 0, "theirs": 0},
             "pinned": [6]}
    response = api.post(ANALYSIS, {"rules": "backgammon", "board": board, "dice": [3, 1]},
                        format="json")
    assert response.status_code == 200, response.content
    plays = response.json()["plays"]
    assert plays and all(p["board"]["pinned"] == [6] for p in plays)
    assert list(plays[0]["board"]) == ["perspective", "points", "off", "bar", "pinned"]


def test_the_codec_refuses_its_own_field_as_an_impossible_board(api, pinned_codec):
    board = {"perspective": "white", "points": START, "off": {"mine": 0, "theirs": 0},
             "pinned": ["six"]}
    response = api.post(ANALYSIS, {"rules": "backgammon", "board": board, "dice": [3, 1]},
                        format="json")
    error = assert_error(response, 400, "validation_error")
    assert "pinned must be a list" in error["message"]


def test_without_the_codec_the_field_is_not_read(api):
    """The built-in codec adds no field: an extra one is dropped by the input's
    validation, as before, and the answer is the plain board."""
    board = {"perspective": "white", "points": START, "off": {"mine": 0, "theirs": 0},
             "pinned": ["anything"]}
    response = api.post(ANALYSIS, {"rules": "backgammon", "board": board, "dice": [3, 1]},
                        format="json")
    assert response.status_code == 200, response.content
    assert "pinned" not in response.json()["plays"][0]["board"]


def test_the_admin_draws_a_point_holding_both_colours(pinned_codec):
    pinned_codec.pinned = (6,)
    position = BACKGAMMON_RULES.initial()
    svg = board_svg(position)
    stacks = dict(re.findall(r'<g class="stack" data-point="(\d+)" data-color="(\w+)"', svg))
    assert stacks["6"] == "mixed" and stacks["24"] == "white"
    assert "5 white, 1 black on point 6" in svg
    assert position.in_perspective(WHITE)[6] == 5
