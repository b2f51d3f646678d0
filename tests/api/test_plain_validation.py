"""Bodies the views accept without building a serializer (``plainly_valid``) get
exactly what the serializer would have given; anything else goes to the serializer."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.serializers import MovesInputSerializer, ResignInputSerializer, VersionInputSerializer

ints = st.one_of(st.integers(-3, 30), st.booleans(), st.none(), st.floats(0, 30),
                 st.sampled_from(["5", "x", ""]))
step = st.dictionaries(st.sampled_from(["from", "to", "die", "extra"]), ints, max_size=4)
body = st.dictionaries(
    st.sampled_from(["steps", "expected_version", "side", "other"]),
    st.one_of(ints, st.lists(st.one_of(step, ints), max_size=6)), max_size=3)
good_step = st.fixed_dictionaries(
    {"from": st.integers(1, 24), "to": st.integers(0, 24)},
    optional={"die": st.one_of(st.none(), st.integers(1, 6))})
good_moves = st.fixed_dictionaries(
    {"steps": st.lists(good_step, min_size=1, max_size=4)},
    optional={"expected_version": st.one_of(st.none(), st.integers(0, 10**6))})


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _agrees(serializer_class: type, data: Any) -> Any:
    quick = serializer_class.plainly_valid(data)
    if quick is not None:
        serializer = serializer_class(data=data)
        assert serializer.is_valid(), (data, serializer.errors)
        assert _plain(quick) == _plain(serializer.validated_data)
    return quick


@settings(max_examples=400, deadline=None)
@given(body)
def test_arbitrary_bodies_agree_with_the_serializers(data: dict[str, Any]) -> None:
    for serializer_class in (VersionInputSerializer, MovesInputSerializer):
        _agrees(serializer_class, data)


@settings(max_examples=200, deadline=None)
@given(good_moves)
def test_well_formed_moves_take_the_quick_path(data: dict[str, Any]) -> None:
    assert _agrees(MovesInputSerializer, data) is not None
    version_only = {k: v for k, v in data.items() if k == "expected_version"}
    assert _agrees(VersionInputSerializer, version_only) == version_only


def test_what_the_quick_path_leaves_to_the_serializer() -> None:
    refused = [[], "x", {"expected_version": True}, {"expected_version": -1},
               {"expected_version": "3"}, {"steps": []}, {"steps": [{"from": 26, "to": 1}]},
               {"steps": [{"from": 24, "to": 18, "die": 7, "hit": False}]}, {"steps": [{"to": 18}]},
               {"steps": [{"from": 24, "to": 18}] * 5}, {"steps": [{"from": 1.0, "to": 0}]}]
    for data in refused:
        assert MovesInputSerializer.plainly_valid(data) is None, data
    assert "plainly_valid" not in vars(ResignInputSerializer)  # a subclass brings its own
