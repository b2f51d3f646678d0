"""The demo match the README's run command loads (a record of chosen dice, imported), and
the board diagram."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.board_svg import board_svg
from games.demo import demo_record
from games.models import Event, Match, rules_names
from games.selectors import record_text
from nardy import BLACK, WHITE, Position
from tests.games.play import play_match


@pytest.mark.django_db
def test_seed_demo_match_creates_one_finished_match_of_each_rule_set_once(settings):
    settings.DEBUG = True  # seed_demo refuses otherwise
    with pytest.raises(CommandError, match="seed_demo"):
        call_command("seed_demo_match", stdout=StringIO())
    call_command("seed_demo", "--any-database", stdout=StringIO())
    out = StringIO()
    call_command("seed_demo_match", stdout=out)
    assert sorted(Match.objects.values_list("rules", flat=True)) == sorted(rules_names())
    for other in Match.objects.exclude(rules="long_nardy"):
        assert other.status == "finished" and other.winner == "white"
        assert other.games.filter(mars=True).exists(), other.rules  # a mars / gammon
    backgammon = Match.objects.get(rules="backgammon")
    assert set(backgammon.games.values_list("result", flat=True)) <= {"single", "gammon",
                                                                     "backgammon"}
    match = Match.objects.get(rules="long_nardy")
    assert f"long_nardy demo match {match.pk}: demo v rival, 4-1" in out.getvalue()
    assert (match.white.username, match.black.username, match.length, match.status,
            match.winner) == ("demo", "rival", 3, "finished", "white")
    assert list(match.games.order_by("number").values_list("winner", "points_won", "mars")) == [
        ("white", 2, True), ("black", 1, False), ("white", 2, True)]
    again = StringIO()
    call_command("seed_demo_match", stdout=again)
    assert "demo match exists" in again.getvalue() and Match.objects.count() == 4
    verified = StringIO()
    call_command("verify_games", stdout=verified)
    games = sum(m.games.count() for m in Match.objects.all())
    assert f"{games} games replayed, 0 differ." in verified.getvalue()
    created = Event.objects.get(match=match, seq=1)
    assert (created.type, created.data["imported"], created.data["imported_by"]) == (
        "match_created", True, "demo")


@pytest.mark.django_db
@pytest.mark.parametrize("rules", rules_names())
def test_the_demo_record_is_the_match_the_services_play_with_its_dice(make_user, rules):
    """The demo's games, written in the engine, are move for move the match the services
    play when the server rolls the same dice (planned by the test)."""
    alice, bob = make_user("alice"), make_user("bob")
    played = record_text(play_match(alice, bob, rules=rules))
    assert [line for line in played.splitlines() if not line.startswith("Date: ")] == (
        demo_record("alice", "bob", rules=rules).splitlines())


def _stacks(svg: str) -> dict[int, tuple[str, int]]:
    return {int(p): (c, int(n)) for p, c, n in re.findall(
        r'<g class="stack" data-point="(\d+)" data-color="(\w+)" data-count="(\d+)">', svg)}


def test_the_board_is_drawn_in_whites_numbering():
    svg = board_svg(Position.initial(), caption="Start")
    assert svg.startswith('<svg class="nard-board"') and svg.endswith("</svg>")
    assert _stacks(svg) == {24: ("white", 15), 12: ("black", 15)}  # R3, R2: Black's 24 = 12
    assert svg.count('<circle class="checker') == 10  # five drawn per stack, the rest counted
    assert re.findall(r'class="stack-count"[^>]*>(\d+)<', svg) == ["15", "15"]
    labels = [int(n) for n in re.findall(r'class="point-number"[^>]*>(\d+)<', svg)]
    assert sorted(labels) == list(range(1, 25))
    assert 'aria-label="Start: White 0 off, Black 0 off"' in svg

    position = Position.from_perspective(WHITE, {3: 2, 1: 1, 13: -4}, 12, 11)
    svg = board_svg(position)
    assert _stacks(svg) == {3: ("white", 2), 1: ("white", 1), 13: ("black", 4)}
    assert re.findall(r'<g class="off" data-color="(\w+)" data-count="(\d+)">', svg) == [
        ("black", "11"), ("white", "12")]
    assert position.off_of(BLACK) == 11


def test_head_at_top_right_home_at_bottom_right():
    """R33: White's head (24) at the top right, its home (1..6) at the bottom right."""
    labels = re.findall(r'<text class="point-number" x="([\d.]+)" y="([\d.]+)"[^>]*>(\d+)<',
                        board_svg(Position.initial()))
    where = {int(n): (float(x), float(y)) for x, y, n in labels}
    assert where[24][0] > where[13][0] and where[24][1] < where[12][1]  # 24 top right
    assert where[1][0] > where[12][0] and where[1][1] == where[12][1]  # 1 bottom right
    assert where[13][0] == where[12][0]  # 13 above 12, at the left
