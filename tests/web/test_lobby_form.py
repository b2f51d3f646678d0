"""The lobby's new-match form as a player reads it: inviting a player,
no two visible fields bear the same label ("Opponent" twice, before), in English and
in Russian."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import PASSWORD
from tests.web.test_browser import login

pytestmark = pytest.mark.django_db(transaction=True)

LABELS = """() => [...document.querySelectorAll('#create-form label')]
  .filter((l) => l.offsetParent !== null)
  .map((l) => [...l.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent)
                .join('').trim())
  .filter(Boolean)"""


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_inviting_no_two_fields_share_a_label(
        open_page: Callable[..., Any], make_user: Callable[..., Any], locale: str) -> None:
    make_user("host", password=PASSWORD)
    page = open_page(locale=locale)
    login(page, "host")
    page.select_option("#create-mode", "invite")
    page.wait_for_selector("#create-opponent", state="visible")
    labels = page.evaluate(LABELS)
    assert len(labels) >= 3 and len(labels) == len(set(labels)), labels
    assert page.get_by_label("Player's username" if locale == "en-GB"
                             else "Имя игрока").is_visible()
