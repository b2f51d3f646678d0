"""The admin speaks of each rule set in its own words: the board's numbering note, the
rule set's one title everywhere (the engine's ``RuleSet.title``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.models import Game, Match, rules_names
from nardy import RULESETS

pytestmark = pytest.mark.django_db

HEAD_SENTENCE = "Black's head is White's 12"


def active_match(white: Any, black: Any, rules: str, **extra: Any) -> Match:
    """An invitation to ``black`` accepted: game 1 waits for its roll-off."""
    match = services.match_create(user=white, length=3, opponent=black.username,
                                  color="white", rules=rules, **extra)
    services.match_join(match_id=match.pk, user=black)
    return Match.objects.get(pk=match.pk)


def note_of(html: str) -> str:
    found = re.search(r'<span class="board-note">(.*?)</span>', html, re.S)
    assert found, "the board has no numbering note"
    return re.sub(r"\s+", " ", found.group(1)).replace("&#x27;", "'")


@pytest.mark.parametrize("rules", rules_names())
def test_the_board_note_fits_the_rule_set(staff_client, players, rules):
    match = active_match(*players, rules)
    game = Game.objects.get(pk=match.current_game_id)
    html = staff_client.get(reverse("admin:games_game_change", args=[game.pk])).text
    note = note_of(html)
    if rules == "long_nardy":
        assert HEAD_SENTENCE in note
    else:  # the hitting games (H1): no heads, the opponent's point q is our 25 − q
        assert HEAD_SENTENCE not in html
        assert "head" not in note
        assert "25 − q" in note and "bar" in note


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def _inline_table(html: str) -> tuple[list[str], list[dict[str, str]]]:
    """The match page's games table: its column headings, and each row's cells by
    heading, as text."""
    group = html[html.index('id="games-group"'):]
    group = group[:group.index("</table>")]
    columns = re.findall(r'<th class="column-(\w+)">(.*?)</th>', group, re.S)
    heads = {name: _text(head) for name, head in columns}
    rows = [{heads[name]: _text(cell) for name, cell in
             re.findall(r'<td class="field-(\w+)">(.*?)</td>', row, re.S)}
            for row in re.findall(r'<tr class="form-row[^"]*"[^>]*>(.*?)</tr>', group, re.S)]
    return list(heads.values()), rows


def test_the_match_page_names_the_rules_the_computer_and_explains_the_points(
        staff_client, alice, bob, scripted_dice):
    from accounts.models import User

    created = alice.create(length=3, opponent="bob", color="white", stakes="cube",
                           rules="backgammon").json()
    match_id = created["id"]
    bob.ok(match_id, "join")
    scripted_dice(6, 1)
    alice.ok(match_id, "roll")
    bob.ok(match_id, "roll")  # backgammon: White plays the roll-off's 6-1 at once (H5)
    alice.ok(match_id, "moves", {"steps": [{"from": 13, "to": 7}, {"from": 8, "to": 7}]})
    bob.ok(match_id, "offer")
    alice.ok(match_id, "accept")
    scripted_dice(6, 5)
    bob.ok(match_id, "roll")
    bob.ok(match_id, "moves", {"steps": [{"from": 13, "to": 7}, {"from": 13, "to": 8}]})
    alice.ok(match_id, "offer")
    bob.ok(match_id, "refuse")  # White scores the stake before the offer: 2, "refused"
    # A program plays Black: the built-in computer's account is named by its level.
    User.objects.filter(username="bob").update(username="computer-expert", is_bot=True)

    html = staff_client.get(reverse("admin:games_match_change", args=[match_id])).text
    rules = re.search(r"field-rules_title.*?<div class=\"readonly\">(.*?)</div>", html, re.S)
    assert rules and rules.group(1) == "Backgammon"
    black = re.search(r"field-black_player.*?<div class=\"readonly\">(.*?)</div>", html, re.S)
    assert black and black.group(1) == "computer-expert (computer, level expert)"
    white = re.search(r"field-white_player.*?<div class=\"readonly\">(.*?)</div>", html, re.S)
    assert white and white.group(1) == "alice"

    heads, rows = _inline_table(html)
    assert "Stake" in heads and "Result" in heads and "Mars" not in heads, heads
    game = rows[0]
    assert (game["Stake"], game["Points won"], game["Result"]) == ("2", "2", "refused")


def test_an_outside_bot_is_called_computer(staff_client, players):
    from accounts.models import User

    match = active_match(*players, "long_nardy")
    User.objects.filter(pk=match.black_id).update(is_bot=True)
    html = staff_client.get(reverse("admin:games_match_change", args=[match.pk])).text
    black = re.search(r"field-black_player.*?<div class=\"readonly\">(.*?)</div>", html, re.S)
    assert black and black.group(1) == f"{match.black.username} (computer)"


def test_a_mars_result_is_named_and_marked(staff_client, finished_match):
    html = staff_client.get(reverse("admin:games_match_change", args=[finished_match.pk])).text
    _, rows = _inline_table(html)
    results = [row["Result"] for row in rows]
    assert results == [("♛ mars" if g.mars else g.result) if g.result != "resigned"
                       else ("resigned (♛ mars)" if g.mars else "resigned")
                       for g in finished_match.games.order_by("number")]


JARGON = re.compile(r"\bissue \d+|RULES-FAMILY|\b[RSH]\d+\b|games\.engine")


def _help_texts(html: str) -> list[str]:
    """Help texts under fields, fieldsets' descriptions and the inlines' help tooltips."""
    found = re.findall(r'<div class="(?:help|description)"[^>]*>(.*?)</div>', html, re.S)
    found += re.findall(r'class="help help-tooltip"[^>]*title="([^"]*)"', html)
    return [_text(t) for t in found]


def test_no_internal_jargon_in_the_admins_help_texts(staff_client, alice, bob, scripted_dice):
    created = alice.create(length=3, opponent="bob", color="white", stakes="cube").json()
    bob.ok(created["id"], "join")
    scripted_dice(6, 1, 3, 1)
    alice.ok(created["id"], "roll")
    bob.ok(created["id"], "roll")
    alice.ok(created["id"], "roll")
    game = Game.objects.get(match_id=created["id"], number=1)
    turn = game.turn_records.get()
    pages = {reverse("admin:games_match_change", args=[created["id"]]): True,
             reverse("admin:games_game_change", args=[game.pk]): True,
             reverse("admin:games_turn_change", args=[turn.pk]): True,
             reverse("admin:games_match_changelist"): False,
             reverse("admin:games_game_changelist"): False}
    for url, has_help in pages.items():
        texts = _help_texts(staff_client.get(url).text)
        assert bool(texts) or not has_help, url
        assert [t for t in texts if JARGON.search(t)] == [], (url, texts)


def test_one_title_for_each_rule_set(staff_client, players):
    """The engine's title ("Short Nardy", as the lobby writes it) in the match list, its
    filter, the game list and the game page; never the model's own label."""
    matches = {rules: active_match(*players, rules) for rules in rules_names()}
    listing = staff_client.get(reverse("admin:games_match_changelist")).text
    games = staff_client.get(reverse("admin:games_game_changelist")).text
    for rules, match in matches.items():
        title = RULESETS[rules].title
        label = Match(rules=rules).get_rules_display()
        row = re.search(rf'<tr>(?:(?!</tr>).)*?/admin/games/match/{match.pk}/change/.*?</tr>',
                        listing, re.S)
        assert row and f'<td class="field-rules_title">{title}</td>' in row.group(0)
        assert re.search(rf'<a href="\?rules__exact={rules}"[^>]*>{title}</a>', listing)
        assert re.search(rf'<a href="\?match__rules__exact={rules}"[^>]*>{title}</a>', games)
        game = staff_client.get(reverse("admin:games_game_change",
                                        args=[match.current_game_id])).text
        assert re.search(rf'field-rules.*?<div class="readonly">{title}</div>', game, re.S)
        if label != title:
            for html in (listing, games, game):
                assert label not in html
        filtered = staff_client.get(reverse("admin:games_match_changelist"),
                                    {"rules__exact": rules})
        assert [m.pk for m in filtered.context["cl"].result_list] == [match.pk]
