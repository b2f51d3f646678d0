"""The admin: match list, match page, game page with its history and board, user stats,
read-only history, the abort action, filters, search and a flat query count."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.admin import helpers
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.admin import MARS_MARK, pass_text
from games.models import Event, Game, Match, Turn
from games.selectors import steps_text
from tests.admin.conftest import resigned_match, short_match, started_match

pytestmark = pytest.mark.django_db


def _ids(response: Any) -> set[int]:
    assert response.status_code == 200, response.content[:300]
    return {m.pk for m in response.context["cl"].result_list}


def test_staff_follow_a_finished_match_with_a_mars_move_by_move(staff_client, finished_match):
    match = finished_match
    games = list(match.games.order_by("number"))

    listing = staff_client.get(reverse("admin:games_match_changelist"))
    assert listing.status_code == 200
    row = next(r for r in re.findall(r"<tr>.*?</tr>", listing.content.decode(), re.S)
               if f"/admin/games/match/{match.pk}/change/" in r)
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
    text = [re.sub(r"<[^>]+>", "", c).strip() for c in cells]
    # id, rules, players, length, score, status, winner, games, mars wins, created, finished
    assert text[1:10] == [str(match.pk), "Long Nardy", "alice v bob", "3", "4–1", "Finished",
                          "alice (white)", "3", "2"]

    page = staff_client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for game in games:
        assert f'href="/admin/games/game/{game.pk}/change/">Game {game.number}</a>' in html
    assert html.count(MARS_MARK) == 2
    assert "Borne off" in html and "alice v bob" in html
    assert f"/api/v1/matches/{match.pk}/export/" in html
    inline = page.context["inline_admin_formsets"][0]
    assert [f.original.turns for f in inline] == [g.turns for g in games]

    mars_game = games[0]
    page = staff_client.get(reverse("admin:games_game_change", args=[mars_game.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    turns = list(Turn.objects.filter(game=mars_game).order_by("number"))
    rows = re.findall(r'<tr class="turn[^"]*" data-turn="(\d+)">(.*?)</tr>', html, re.S)
    assert [int(n) for n, _ in rows] == [t.number for t in turns]
    for (_, row), turn in zip(rows, turns, strict=True):
        assert f"<td class=\"steps\">{steps_text(turn.steps)}</td>" in row
        assert turn.position_after in row
        assert f"<td class=\"dice\">{turn.dice[0]}-{turn.dice[1]}</td>" in row
        if turn.pass_reason:  # "pass: no legal move", or "the 5 could not be played"
            assert f'<td class="pass">{pass_text(turn.dice, turn.steps, turn.pass_reason)}' in row
    assert any(t.pass_reason for t in turns) and any("(6)" in steps_text(t.steps) for t in turns)
    assert '<svg class="nard-board"' in html and "Final board" in html
    assert 'data-color="white" data-count="15"' in html  # White bore off all fifteen
    assert re.search(r'<g class="off" data-color="black" data-count="0">', html)
    assert "mars" in html and MARS_MARK in html

    after = staff_client.get(reverse("admin:games_game_change", args=[mars_game.pk]),
                             {"turn": "1"})
    assert "Board after turn 1 (white)" in after.content.decode()
    assert f'data-position="{turns[0].position_after}"' in after.content.decode()

    for name in ("games_game_changelist", "games_turn_changelist", "games_event_changelist"):
        assert staff_client.get(reverse(f"admin:{name}")).status_code == 200
    events = staff_client.get(reverse("admin:games_event_changelist"),
                              {"match__id__exact": match.pk})
    assert len(events.context["cl"].result_list) == min(100, match.last_event_seq)

    # The user admin shows each player's stats.
    bob = match.black
    listing = staff_client.get(reverse("admin:accounts_user_changelist"))
    html = listing.content.decode()
    assert listing.status_code == 200
    alice_row = next(r for r in re.findall(r"<tr>.*?</tr>", html, re.S) if ">alice<" in r)
    assert "1 (1)" in alice_row and "2–1" in alice_row and "2–0" in alice_row
    bob_row = next(r for r in re.findall(r"<tr>.*?</tr>", html, re.S) if ">bob<" in r)
    assert "1 (0)" in bob_row and "1–2" in bob_row and "0–2" in bob_row

    page = staff_client.get(reverse("admin:accounts_user_change", args=[bob.pk]))
    assert page.status_code == 200
    assert ("Matches played 1, won 0 · games won 1, lost 2 · mars won 0, lost 2"
            in page.content.decode())
    assert staff_client.get(reverse("admin:accounts_user_add")).status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_non_staff_are_sent_to_the_login_page(who, players):
    match = resigned_match(*players, mars=True)
    client = Client()
    if who == "player":
        client.force_login(players[0])
    game = match.games.first()
    for url in (reverse("admin:games_match_changelist"),
                reverse("admin:games_match_change", args=[match.pk]),
                reverse("admin:games_game_change", args=[game.pk]),
                reverse("admin:accounts_user_changelist")):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("admin:login")), response["Location"]


def test_history_is_read_only(staff_client, players):
    match = short_match(*players)
    game = match.games.order_by("number").first()
    turn = game.turn_records.order_by("number").first()
    event = match.events.order_by("seq").first()
    before = (Match.objects.values().get(pk=match.pk), list(Game.objects.values()),
              Turn.objects.count(), Event.objects.count())
    for model, obj in (("match", match), ("game", game), ("turn", turn), ("event", event)):
        change = reverse(f"admin:games_{model}_change", args=[obj.pk])
        delete = reverse(f"admin:games_{model}_delete", args=[obj.pk])
        add = reverse(f"admin:games_{model}_add")
        assert staff_client.get(change).status_code == 200
        assert staff_client.post(change, {"number": 9, "winner": "black"}).status_code == 403
        assert staff_client.get(delete).status_code == 403
        assert staff_client.post(delete, {"post": "yes"}).status_code == 403
        assert staff_client.get(add).status_code == 403
        assert staff_client.post(add, {}).status_code == 403
        changelist = staff_client.get(reverse(f"admin:games_{model}_changelist"))
        actions = [name for name, _ in changelist.context["cl"].model_admin.get_action_choices(
            changelist.wsgi_request)]
        assert "delete_selected" not in actions
        # The bulk delete action is refused as well.
        response = staff_client.post(reverse(f"admin:games_{model}_changelist"), {
            "action": "delete_selected", helpers.ACTION_CHECKBOX_NAME: [obj.pk], "post": "yes"})
        assert response.status_code in (200, 302)
    after = (Match.objects.values().get(pk=match.pk), list(Game.objects.values()),
             Turn.objects.count(), Event.objects.count())
    assert after == before


def test_abort_action_goes_through_the_service_and_reports_refusals(staff_client, players,
                                                                   staff_user):
    alice, bob = players
    stuck = started_match(alice, bob, length=3)
    done = resigned_match(alice, bob, mars=True)
    response = staff_client.post(reverse("admin:games_match_changelist"), {
        "action": "abort_matches", helpers.ACTION_CHECKBOX_NAME: [stuck.pk, done.pk]},
        follow=True)
    assert response.status_code == 200
    messages = [str(m) for m in response.context["messages"]]
    assert f"Aborted match {stuck.pk}." in messages
    assert any(f"Match {done.pk} was not aborted" in m and "already finished" in m
               for m in messages)
    stuck.refresh_from_db()
    done.refresh_from_db()
    assert stuck.status == "aborted" and stuck.finished_at is not None
    assert done.status == "finished"
    event = stuck.events.order_by("-seq").first()
    game = stuck.current_game  # the abort reveals the dice seed of the game it ends
    assert (event.type, event.data) == ("aborted", {
        "by": staff_user.username, "reason": "aborted by staff", "game": game.number,
        "commitment": game.dice_commitment, "server_seed": game.dice_seed})
    assert list(stuck.events.values_list("seq", flat=True)) == list(
        range(1, stuck.last_event_seq + 1))


def test_abort_needs_the_change_permission(players, make_user):
    viewer = make_user("viewer", is_staff=True)
    viewer.user_permissions.add(*Permission.objects.filter(codename__in=["view_match",
                                                                          "view_game"]))
    client = Client()
    client.force_login(viewer)
    stuck = started_match(*players)
    listing = client.get(reverse("admin:games_match_changelist"))
    assert listing.status_code == 200
    assert "abort_matches" not in listing.content.decode()
    client.post(reverse("admin:games_match_changelist"), {
        "action": "abort_matches", helpers.ACTION_CHECKBOX_NAME: [stuck.pk]})
    stuck.refresh_from_db()
    assert stuck.status == "active"


def test_filters_and_search_return_the_right_rows(staff_client, players, make_user):
    alice, bob = players
    carol = make_user("carol")
    mars = resigned_match(alice, bob, mars=True)
    single = resigned_match(bob, carol, mars=False)
    active = started_match(alice, carol, length=3)
    seek = services.match_create(user=carol, length=5)
    old = resigned_match(carol, alice, mars=True)
    last_year = timezone.now() - dt.timedelta(days=400)
    Match.objects.filter(pk=old.pk).update(finished_at=last_year, created_at=last_year)
    url = reverse("admin:games_match_changelist")
    everything = {mars.pk, single.pk, active.pk, seek.pk, old.pk}

    assert _ids(staff_client.get(url)) == everything
    assert _ids(staff_client.get(url, {"status__exact": "finished"})) == {
        mars.pk, single.pk, old.pk}
    assert _ids(staff_client.get(url, {"status__exact": "active"})) == {active.pk}
    assert _ids(staff_client.get(url, {"length": "3"})) == {active.pk}
    assert _ids(staff_client.get(url, {"length": "5"})) == {seek.pk}
    assert _ids(staff_client.get(url, {"length": "1"})) == {mars.pk, single.pk, old.pk}
    assert _ids(staff_client.get(url, {"mars": "yes"})) == {mars.pk, old.pk}
    assert _ids(staff_client.get(url, {"mars": "no"})) == {single.pk, active.pk, seek.pk}
    midnight = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    recent = {"finished_at__gte": str(midnight - dt.timedelta(days=7)),
              "finished_at__lt": str(midnight + dt.timedelta(days=1))}
    assert _ids(staff_client.get(url, recent)) == {mars.pk, single.pk}
    assert _ids(staff_client.get(url, {"finished_at__isnull": "True"})) == {active.pk, seek.pk}
    assert _ids(staff_client.get(url, {"mars": "yes", **recent})) == {mars.pk}
    assert _ids(staff_client.get(url, {"created_at__year": str(last_year.year)})) == {old.pk}

    assert _ids(staff_client.get(url, {"q": "bob"})) == {mars.pk, single.pk}
    assert _ids(staff_client.get(url, {"q": "CAROL"})) == {single.pk, active.pk, seek.pk, old.pk}
    assert _ids(staff_client.get(url, {"q": "nobody"})) == set()
    assert _ids(staff_client.get(url, {"q": "alice", "status__exact": "active"})) == {active.pk}

    games = staff_client.get(reverse("admin:games_game_changelist"), {"mars__exact": "1"})
    assert {g.match_id for g in games.context["cl"].result_list} == {mars.pk, old.pk}


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


def test_changelist_query_counts_do_not_grow_with_rows(staff_client, make_user):
    lists = [reverse(f"admin:{name}") for name in (
        "games_match_changelist", "games_game_changelist", "games_turn_changelist",
        "games_event_changelist", "accounts_user_changelist")]

    def add_matches(n: int) -> None:
        for _ in range(n):
            white, black = make_user(), make_user()
            resigned_match(white, black, mars=True)
            started_match(white, black, length=3)

    add_matches(1)
    few = [_queries(staff_client, url) for url in lists]
    add_matches(4)
    many = [_queries(staff_client, url) for url in lists]
    assert many == few
    assert Match.objects.count() == 10


def test_no_history_button_beside_the_move_history(staff_client, finished_match):
    """Django's change history of a match or game is always empty (the admin changes
    none): its button is not shown, so it is not taken for the move history."""
    game = finished_match.games.order_by("number").first()
    for url in (reverse("admin:games_match_change", args=[finished_match.pk]),
                reverse("admin:games_game_change", args=[game.pk])):
        html = staff_client.get(url).content.decode()
        assert 'class="historylink"' not in html and "/history/" not in html, url
        assert 'class="object-tools"' not in html, url
