"""On the play page: the computer's answers shown however fast they come,
a roll-off against it without a conflict, its levels in Russian, and the registration's
field errors beside the fields. The computer plays through the real worker
(games/management/commands/db_worker.py) in a thread of the test, woken by the doorbell:
its answers come within milliseconds, as on command 1. Playwright on Debian's chromium."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games import services
from tests.dice import planned as planned_dice
from tests.support import running_worker
from tests.web.conftest import PASSWORD, elsewhere, shot
from tests.web.test_browser import login, settle

pytestmark = pytest.mark.django_db(transaction=True)
DATABASE = "django_tasks_db.DatabaseBackend"


@pytest.fixture
def worker(settings: Any) -> Iterator[Any]:
    """The task queue's worker, in a thread, sleeping on the doorbell (interval: 1 h)."""
    settings.TASKS = {"default": {"BACKEND": DATABASE, "QUEUES": ["default"]}}
    with running_worker() as found:
        yield found


def writes(page: Any) -> list[tuple[str, int]]:
    """Every answer to a write of the page (method, path, status), from now on."""
    seen: list[tuple[str, int]] = []
    page.on("response", lambda r: seen.append((r.url, r.status))
            if r.request.method == "POST" else None)
    return seen


def computer_match(open_page: Callable[..., Any], make_user: Callable[..., Any], **create: Any
                   ) -> tuple[Any, int]:
    alice = make_user("alice", password=PASSWORD)
    match = elsewhere(services.match_create, user=alice, length=3, computer="heuristic",
                      color="white", **create)
    page = open_page()
    login(page, "alice")
    page.goto(page.url.split("#")[0] + f"#/match/{match.pk}")
    page.wait_for_selector("#live[data-state=live]")
    return page, match.pk


def test_the_computers_instant_accept_of_a_double_is_shown(
        worker: Any, open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    with planned_dice([6, 1]):  # our roll-off die 6, then the computer's 1 (after ours)
        page, match_id = computer_match(open_page, make_user, stakes="cube")
        page.click("#roll")
        page.wait_for_selector("#offer")
    settle(page, match_id)
    page.click("#offer")
    expect(page.locator("#notice")).to_have_text(
        "The computer accepts your raise: the stake is now 2.")
    expect(page.locator("#notice")).to_have_attribute("data-answer", "accept")
    expect(page.locator("#stake")).to_contain_text("2")
    shot(page, "computer-accepts")


def test_a_roll_off_against_the_computer_has_no_conflict(
        worker: Any, open_page: Callable[..., Any], make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    # Three ties (the computer rolls after our die each time), then 6-1.
    with planned_dice([3, 3, 5, 5, 2, 2, 6, 6, 1, 1, 4, 4, 5, 5, 2, 2, 3, 3]):
        page, _match_id = computer_match(open_page, make_user)
        answers = writes(page)
        for _ in range(4):
            page.wait_for_selector("#roll")
            page.click("#roll")
            page.wait_for_function("() => !document.querySelector('#roll')"
                                   " || document.querySelector('#roll').disabled === false")
        expect(page.locator("#status")).not_to_contain_text("roll-off", timeout=15_000)
    rolls = [status for url, status in answers if url.endswith("/roll/")]
    assert rolls and all(status == 200 for status in rolls), answers
    assert not page.locator(".toast", has_text="moved on").count()


def russian_page(browser: Any, live_server: Any) -> Any:
    context = browser.new_context(locale="ru-RU", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"{live_server.url}/play/")
    return page


CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
LATIN = re.compile("[a-z]{3,}", re.IGNORECASE)


def test_the_computers_levels_in_russian(browser: Any, live_server: Any,
                                         make_user: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("alice", password=PASSWORD)
    page = russian_page(browser, live_server)
    login(page, "alice")
    page.select_option("#create-mode", "computer")
    names = page.eval_on_selector_all("#create-computer option",
                                      "els => els.map(e => [e.value, e.textContent, e.title])")
    assert {value for value, _, _ in names} >= {"random", "heuristic"}
    for value, name, sentence in names:
        assert CYRILLIC.search(name) and not LATIN.search(name), (value, name)
        assert CYRILLIC.search(sentence) and not LATIN.search(sentence.replace("TD", "")), (
            value, sentence)
    expect(page.locator("#create-computer option[value=random]")).to_have_text("Случайный")
    page.select_option("#create-computer", "heuristic")
    expect(page.locator("#create-level-text")).to_have_text(re.compile("^Оценивает"))
    assert page.errors == []


def test_registration_errors_beside_their_fields_in_the_pages_language(
        browser: Any, live_server: Any, make_user: Callable[..., Any],
        open_page: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    make_user("taken", password=PASSWORD)
    page = russian_page(browser, live_server)
    name_error = page.locator("#register-form-username-error")
    password_error = page.locator("#register-form-password-error")
    for name, password, error, field in (("taken", PASSWORD, name_error, "username"),
                                         ("fresh-name", "1", password_error, "password")):
        page.fill("#register-form [name=username]", name)
        page.fill("#register-form [name=password]", password)
        page.click("#register-form button[type=submit]")
        expect(error).to_contain_text(CYRILLIC)
        assert not LATIN.search(error.inner_text()), error.inner_text()
        # Beside its field: right after the input, which says it is invalid and why.
        described = page.locator(f"#register-form [name={field}]")
        expect(described).to_have_attribute("aria-invalid", "true")
        expect(described).to_have_attribute("aria-describedby", error.get_attribute("id"))
        assert described.evaluate("el => el.nextElementSibling.id") == error.get_attribute("id")
        expect(described).to_be_focused()
        assert page.locator(".field-error").count() == 1   # the last try's only
    expect(name_error).to_have_count(0)
    shot(page, "register-errors-ru")
    # Corrected: the errors go with the next try, which succeeds.
    page.fill("#register-form [name=username]", "fresh-name")
    page.fill("#register-form [name=password]", PASSWORD)
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("#create-form")
    assert page.locator(".field-error").count() == 0

    # English page, log-in refused: said under the form, in English, not only a toast.
    english = open_page()
    english.fill("#login-form [name=username]", "taken")
    english.fill("#login-form [name=password]", "wrong-password")
    english.click("#login-form button[type=submit]")
    expect(english.locator("#login-form .form-error")).to_have_text(
        "Invalid username or password.")
    assert page.errors == []
