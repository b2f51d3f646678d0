"""/play/verify/ recomputes the dice in the browser (Web Crypto) and catches a
tampered roll, a tampered seed and a swapped game; it shows a player's dice statistics."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from games import selectors, services
from games.models import Match
from nardy import Step
from tests.web.conftest import shot

pytestmark = pytest.mark.django_db(transaction=True)


def _finished_match(make_user: Callable[..., Any]) -> Match:
    """Two resigned games of a 3-point match, with the server's own committed dice."""
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(user=alice, length=3, opponent="bob", color="white")
    services.match_join(match_id=match.pk, user=bob, seed="bob's seed")
    rng = random.Random(7)
    users = {"white": alice, "black": bob}
    for _ in range(2):
        for _ in range(400):
            match = selectors.match_get(match.pk)
            assert match is not None
            game = match.current_game
            assert game is not None
            if game.phase == "roll-off":
                side = "white" if game.rolloff_white is None else "black"
                services.match_roll(match_id=match.pk, user=users[side])
                continue
            user = users[game.turn]
            if game.phase == "roll":
                if game.turns >= 6:
                    break
                services.match_roll(match_id=match.pk, user=user)
            else:
                state = selectors.match_state(match, user)
                assert state is not None
                step = rng.choice(state["legal_steps"])
                services.match_move(match_id=match.pk, user=user,
                                   steps=[Step(step["from"], step["to"], step["die"])])
        services.match_resign(match_id=match.pk, user=users[game.turn])
    done = Match.objects.get(pk=match.pk)
    assert done.status == "finished" and done.games.count() == 2
    return done


def _paste(page: Any, record: Any) -> str:
    page.fill("#record", record if isinstance(record, str) else json.dumps(record))
    page.click("#by-record button")
    page.wait_for_function("document.getElementById('verdict').textContent.length > 0")
    text = page.text_content("#verdict")
    page.evaluate("document.getElementById('verdict').textContent = ''")
    return text


def test_the_page_verifies_a_record_and_catches_tampering(
        browser: Any, live_server: Any, make_user: Callable[..., Any]) -> None:
    match = _finished_match(make_user)
    record = selectors.match_record(match)
    record = json.loads(json.dumps(record, default=str))
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/play/verify/")
    page.wait_for_selector("#verify[data-ready='1']")
    # by match id: the page reads the export itself
    page.fill("#match-id", str(match.pk))
    page.click("#by-id button")
    page.wait_for_selector("#verdict[data-status='ok']")
    assert "2 games verified" in page.text_content("#verdict")
    assert page.locator("#games li[data-status='verified']").count() == 2
    page.evaluate("document.getElementById('verdict').textContent = ''")
    assert "2 games verified" in _paste(page, record)
    # a tampered roll
    rolled = copy.deepcopy(record)
    turn = rolled["games"][0]["turns"][2]
    turn["dice"] = [d % 6 + 1 for d in turn["dice"]]
    shown = _paste(page, rolled)
    assert "MISMATCH in game 1" in shown and f"turn {turn['number']}:" in shown, shown
    # a tampered server seed
    seeded = copy.deepcopy(record)
    fair = seeded["games"][1]["fairness"]
    fair["server_seed"] = ("0" if fair["server_seed"][0] != "0" else "1") + fair["server_seed"][1:]
    shown = _paste(page, seeded)
    assert "MISMATCH in game 2" in shown and "does not match the commitment" in shown, shown
    # swapped games
    swapped = copy.deepcopy(record)
    first, second = swapped["games"]
    first["number"], second["number"] = 2, 1
    swapped["games"] = [second, first]
    assert "MISMATCH" in _paste(page, swapped)
    # not a record; a record without commitments
    assert "not a match record" in _paste(page, "Long Nardy match record")
    bare = copy.deepcopy(record)
    for game in bare["games"]:
        game["fairness"] = None
    shown = _paste(page, bare)
    assert "nothing to check" in shown and "verified" not in shown
    # a player's dice statistics, as the API counts them
    page.fill("#player", "alice")
    page.click("#by-player button")
    page.wait_for_selector("#dice-stats tr[data-rules='long_nardy']")
    stats = selectors.dice_stats(match.white)["by_rules"]["long_nardy"]
    cells = page.locator("#dice-stats tr[data-rules='long_nardy'] td").all_text_contents()
    assert cells[1] == str(stats["rolls"]) and cells[2:8] == [str(f) for f in stats["faces"]]
    assert not errors, errors
    page.close()


def test_the_play_page_adds_its_own_seed_with_the_games_first_die(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    """docs/fairness.md: the page sends a fresh random seed with the roll that draws the
    game's first die (the server's own dice: no script)."""
    from tests.web.test_browser import PASSWORD, login, settle

    alice = make_user("alice", password=PASSWORD)
    bob = make_user("bob", password=PASSWORD)
    match = services.match_create(user=alice, length=1, opponent="bob", color="white")
    services.match_join(match_id=match.pk, user=bob)
    page = open_page()
    login(page, "alice")
    page.goto(page.url.split("#")[0] + f"#/match/{match.pk}")
    settle(page, match.pk)
    committed = Match.objects.get(pk=match.pk).games.get()
    assert committed.dice_commitment and committed.dice_drawn == 0, "no commitment to add to"
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/roll/")) as sent:
        page.click("#roll")
    body = json.loads(sent.value.post_data or "{}")
    assert len(body.get("seed", "")) == 32, body
    # The roll's answer is sent after its transaction commits: wait for it. (Polling the
    # match from the page instead let the read below see the game before the roll in
    # about one run of three.)
    answer = sent.value.response()
    assert answer is not None and answer.ok, answer and answer.text()
    game = Match.objects.get(pk=match.pk).games.get()
    assert game.white_seed == body["seed"]
    assert len(game.white_seed) == 32 and int(game.white_seed, 16) >= 0
    assert game.black_seed == "" and game.dice_drawn == 1
    from games import dice

    derived = dice.game_dice(game)
    assert derived is not None and game.rolloff_white == derived.roll_off(0, 0)


def test_the_verifier_is_linked_from_every_finished_game_and_speaks_russian(
        open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    """The match page, the replay and the profile link the dice verifier with the match
    filled in and checked at once; its page has the language links, its results in the
    page's language, the rule sets by their titles and its bracketed figures explained."""
    from playwright.sync_api import expect

    match = _finished_match(make_user)
    page = open_page()
    base = page.url.split("#")[0]
    for where, hash_ in (("match", f"#/match/{match.pk}"),
                         ("replay", f"#/matches/{match.pk}/replay/1"),
                         ("profile", "#/players/alice")):
        page.goto(base + hash_)
        link = page.locator(f".verify-link[data-verify='{match.pk}']").first
        expect(link).to_have_attribute("href", f"/play/verify/?match={match.pk}")
        if where == "match":
            link.click()
            page.wait_for_selector("#verdict[data-status='ok']")
            assert page.text_content("#verdict") == f"Match {match.pk}: 2 games verified"
    page.goto(f"{base.rsplit('/play/', 1)[0]}/play/verify/?match={match.pk}&lang=ru")
    page.wait_for_selector("#verdict[data-status='ok']")
    assert page.text_content("#verdict") == f"Матч {match.pk}: проверены 2 партии"
    expect(page.locator("#languages a[data-lang='en']")).to_be_visible()
    assert "verified" not in page.inner_text("#games")
    page.fill("#player", "alice")
    page.click("#by-player button")
    row = page.locator("#dice-stats tr[data-rules='long_nardy'] td").first
    expect(row).to_have_text("Длинные нарды")
    expect(page.locator("#stats-note")).to_contain_text("В скобках")
    shot(page, "verify-ru")
    page.goto(f"{base.rsplit('/play/', 1)[0]}/play/verify/?lang=en")
