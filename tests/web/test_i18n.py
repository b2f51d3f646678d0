"""The play page in English and Russian (Django's i18n, web/locale): the compiled
catalogues match the .po files, the language follows Accept-Language, ``?lang=`` and
its cookie, the API's messages by Accept-Language alone, and in a browser no English
text of the catalogue is left on the Russian lobby and game page."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.web.conftest import PASSWORD, shot

LOCALE = Path(__file__).resolve().parents[2] / "web" / "locale"
DOMAINS = ("django", "djangojs")


def catalogue(mo: Path) -> dict[Any, str]:
    with mo.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_mo_files_match_the_po_files(domain: str, tmp_path: Path) -> None:
    if shutil.which("msgfmt") is None:
        pytest.skip("GNU gettext (msgfmt) is missing")
    po = LOCALE / "ru" / "LC_MESSAGES" / f"{domain}.po"
    fresh = tmp_path / f"{domain}.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(fresh), str(po)], check=True)
    assert catalogue(fresh) == catalogue(po.with_suffix(".mo")), (
        f"{po.with_suffix('.mo')} is stale: run manage.py compilemessages")


MODULES = sorted((LOCALE.parent / "static" / "web").glob("*.js"))


def module_texts() -> set[str]:
    """Every text the JS modules translate: ``_("…")`` (literal pieces joined with
    ``+``) and ``ngettext("…", …)``'s singular."""
    texts = set()
    for module in MODULES:
        source = module.read_text()
        for found in re.finditer(r'\b_\(\s*((?:"(?:[^"\\]|\\.)*"\s*\+?\s*)+)\)', source):
            texts.add("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', found.group(1))))
        for found in re.finditer(r'\bngettext\(\s*"((?:[^"\\]|\\.)*)"', source):
            texts.add(found.group(1))
    return texts


def test_every_text_of_the_modules_has_its_russian() -> None:
    """A text added to (or changed in) the page's modules without its Russian line in
    djangojs.po (and the .mo compiled) would be shown in English on the Russian page."""
    russian = catalogue(LOCALE / "ru" / "LC_MESSAGES" / "djangojs.mo")
    known = {key[0] if isinstance(key, tuple) else key: value for key, value in russian.items()}
    texts = module_texts()
    assert len(texts) > 150, len(texts)   # the pattern still finds them
    assert sorted(t for t in texts if not known.get(t)) == []


def english_texts() -> list[str]:
    """The English msgids that Russian translates to something else, both domains."""
    texts = []
    for domain in DOMAINS:
        for key, value in catalogue(LOCALE / "ru" / "LC_MESSAGES" / f"{domain}.mo").items():
            msgid = key[0] if isinstance(key, tuple) else key
            if msgid and msgid != value:
                texts.append(msgid)
    return sorted(set(texts))


@pytest.mark.django_db
def test_the_language_follows_the_browser_and_the_choice(client: Client) -> None:
    page = client.get("/play/", HTTP_ACCEPT_LANGUAGE="ru,en;q=0.5")
    assert page["Content-Language"] == "ru"
    html = page.content.decode()
    assert '<html lang="ru">' in html and "<title>Нарды — игра</title>" in html
    assert "/play/jsi18n/" in html
    catalog = client.get("/play/jsi18n/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '"Roll": "\\u0411' in catalog  # "Бросить кости"

    chosen = client.get("/play/?lang=en", HTTP_ACCEPT_LANGUAGE="ru")
    assert chosen.cookies["django_language"].value == "en"
    assert '<html lang="en">' in chosen.content.decode()
    # Remembered: the cookie now wins over the browser's Accept-Language.
    again = client.get("/play/", HTTP_ACCEPT_LANGUAGE="ru")
    assert '<html lang="en">' in again.content.decode()
    assert "Lobby" in again.content.decode()
    assert client.get("/play/?lang=xx").cookies.get("django_language") is None


@pytest.mark.django_db
def test_the_api_reads_accept_language_only_and_translates_only_messages(
        client: Client) -> None:
    """The API's messages follow ``Accept-Language`` (tests/api/
    test_translations.py); the play page's language cookie alone changes nothing, and
    an answer that is not an error is the same in any language."""
    plain = client.get("/api/v1/matches/1/")
    cookie = client.get("/api/v1/matches/1/", HTTP_COOKIE="django_language=ru")
    assert (cookie.status_code, cookie.content) == (plain.status_code, plain.content)
    assert "Content-Language" not in cookie
    russian = client.get("/api/v1/matches/1/", HTTP_ACCEPT_LANGUAGE="ru")
    assert russian.json()["error"]["code"] == plain.json()["error"]["code"]
    assert russian.json()["error"]["message"] != plain.json()["error"]["message"]
    ok, ok_ru = client.get("/api/v1/rules/"), client.get("/api/v1/rules/",
                                                          HTTP_ACCEPT_LANGUAGE="ru")
    assert ok_ru.content == ok.content
    assert "Accept-Language" not in ok_ru.get("Vary", "")


TEXTS_JS = """() => {
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, text = node.textContent.trim();
    const el = node.parentElement;
    // The computer's level names and sentences come from the API (GET computer/) and are
    // translated by the page: they are checked like the rest.
    if (!text || el.closest('noscript, script, style')) continue;
    out.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]'))
    for (const name of ['aria-label', 'title', 'placeholder'])
      if (el.getAttribute(name)) out.push(el.getAttribute(name));
  return out;
}"""


def untranslated(page: Any, allowed: set[str]) -> list[str]:
    """Texts on the page that are an English msgid (its values filled in or not), or that
    hold an English-looking word outside ``allowed`` (usernames and the like)."""
    patterns = [re.compile(re.sub(r"%\\\(\w+\\\)s", ".+?", re.escape(text)))
                for text in english_texts() if len(text) > 2]
    bad = []
    for text in page.evaluate(TEXTS_JS):
        words = set(re.findall(r"[A-Za-z]{3,}", text)) - allowed
        if words or any(p.fullmatch(text) for p in patterns):
            bad.append(text)
    return bad


@pytest.mark.django_db(transaction=True)
def test_the_russian_page_and_back_to_english(
        browser: Any, live_server: Any, seeded_dice: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(locale="ru-RU", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/play/")
    assert page.locator("html").get_attribute("lang") == "ru"
    expect(page.locator("#login-h")).to_have_text("Войти")
    # The switch names each language in its own; key names (Enter, Backspace) stay Latin.
    allowed = {"API", "Enter", "Backspace", "russkiy", "English"}
    assert untranslated(page, allowed) == []

    page.fill("#register-form [name=username]", "russkiy")
    page.fill("#register-form [name=password]", PASSWORD)
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("#create-form")
    expect(page.locator("#create-h")).to_have_text("Новый матч")
    expect(page.locator("#create-rules option[value=long_nardy]")).to_have_text(
        "Длинные нарды")
    expect(page.locator("#create-rules option[value=backgammon]")).to_have_text(
        "Нарды (международные)")
    page.wait_for_timeout(300)
    assert untranslated(page, allowed) == []
    shot(page, "lobby-ru")

    # A hotseat game: the roll-off, then White's 6-6 with the head counter (R13).
    page.select_option("#create-mode", "hotseat")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"#/match/\d+"))
    seeded_dice(5, 2, 6, 6)
    page.click("#roll")
    expect(page.locator("#status")).to_contain_text("белые 5")
    page.click("#roll")
    page.wait_for_selector("#roll")
    expect(page.locator("#roll")).to_have_text("Бросить кости")
    page.click("#roll")
    expect(page.locator("#head-counter")).to_have_text("может выйти: 2")
    expect(page.locator("#dice-left")).to_have_text("Осталось кубиков: 6, 6, 6, 6")
    expect(page.locator("#resign")).to_contain_text("Сдаться")
    page.click('#board svg [data-key="p24"]')
    label = page.locator('#board svg [data-key="p18"]').get_attribute("aria-label")
    assert label == "пункт 18, пусто, допустимое поле", label
    page.locator("#live[data-state=live]").wait_for()
    assert untranslated(page, allowed) == []
    page.click('#board svg [data-key="p18"]')
    expect(page.locator("#head-counter")).to_have_text("может выйти: 1")
    expect(page.locator("#log")).to_contain_text("Партия 1 — начинают Белые")
    assert untranslated(page, allowed) == []

    # Back to English from the page: the match stays open, and the choice is remembered.
    page.click("#languages a[data-lang=en]")
    page.wait_for_url(re.compile(r"\?lang=en#/match/\d+"))
    # The drafted step was the page's own: the reload drops it.
    expect(page.locator("#head-counter")).to_have_text("2 may leave")
    assert page.locator("html").get_attribute("lang") == "en"
    page.goto(f"{live_server.url}/play/")
    expect(page.locator("#create-h")).to_have_text("New match")
    assert not errors, errors
    context.close()
