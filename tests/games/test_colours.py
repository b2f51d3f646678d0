"""One colour vocabulary: the engine's side names, which the models' choices, the
converters and the schema's ``ColorEnum`` all take (none spells the colours again)."""

from __future__ import annotations

import pytest

from games.models import Color, color_of, side_of
from nardy import BLACK, SIDE_NAMES, WHITE, parse_side, side_name


def test_the_models_choices_are_the_engines_side_names():
    assert tuple(Color.values) == SIDE_NAMES == (side_name(WHITE), side_name(BLACK))
    assert (SIDE_NAMES[WHITE], SIDE_NAMES[BLACK]) == (Color.WHITE, Color.BLACK)


@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_colour_and_side_convert_both_ways(side):
    assert side_of(color_of(side)) == side == parse_side(color_of(side))
    assert side_of(Color.choices[side][0]) == side


@pytest.mark.parametrize("text", ["", "White", "red"])
def test_side_of_takes_only_a_side_name(text):
    """A stored colour is exactly a side name; a blank column is no side (not Black)."""
    with pytest.raises(ValueError):
        side_of(text)
