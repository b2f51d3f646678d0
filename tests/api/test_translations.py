"""The API's messages in the client's language: ``Accept-Language``
picks the language of the error shape's ``message`` (Russian or English); the ``code``
and ``details`` never change, the language cookie is not read, successes are untouched."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import MATCHES, start_match

pytestmark = pytest.mark.django_db
CYRILLIC = set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")


def russian(text: str) -> bool:
    return bool(CYRILLIC & set(text.lower())) and not any("a" <= c <= "z" for c in
                                                          text.lower().replace("s3", ""))


def error(response: Any) -> dict[str, Any]:
    return response.json()["error"]


def test_a_version_conflict_in_russian_and_in_english(alice: Any, bob: Any,
                                                      scripted_dice: Any) -> None:
    match = start_match(alice, bob, script=scripted_dice)
    url = f"{MATCHES}{match['id']}/roll/"
    stale = {"expected_version": match["version"] - 1}
    english = alice.client.post(url, stale, format="json")
    in_russian = alice.client.post(url, stale, format="json", HTTP_ACCEPT_LANGUAGE="ru")

    assert english.status_code == in_russian.status_code == 409
    assert error(english)["code"] == error(in_russian)["code"] == "version_conflict"
    assert error(english)["details"] == error(in_russian)["details"]
    assert error(english)["message"] == (
        f"The match is at version {match['version']}, not {match['version'] - 1}.")
    assert error(in_russian)["message"] == (
        f"Матч уже в версии {match['version']}, а не {match['version'] - 1}.")
    assert in_russian["Content-Language"] == "ru"
    assert "Accept-Language" in in_russian["Vary"]
    assert "Content-Language" not in english


@pytest.mark.parametrize(("action", "code"), [("moves", "wrong_phase"),
                                              ("roll", "not_your_turn")])
def test_the_guards_messages_in_russian(alice: Any, bob: Any, scripted_dice: Any,
                                        action: str, code: str) -> None:
    match = start_match(alice, bob, script=scripted_dice)  # White to roll
    who = alice if action == "moves" else bob
    body = {"steps": [{"from": 24, "to": 18}]} if action == "moves" else {}
    for language, check in (("ru-RU,ru;q=0.9,en;q=0.5", russian),
                            ("en", lambda text: not russian(text))):
        answer = who.client.post(f"{MATCHES}{match['id']}/{action}/", body, format="json",
                                 HTTP_ACCEPT_LANGUAGE=language)
        assert error(answer)["code"] == code
        assert check(error(answer)["message"]), error(answer)["message"]


def test_registration_field_errors_in_russian(api: Any) -> None:
    body = {"username": "short-password", "password": "1"}
    english = api.post("/api/v1/accounts/register/", body, format="json")
    in_russian = api.post("/api/v1/accounts/register/", body, format="json",
                          HTTP_ACCEPT_LANGUAGE="ru")
    assert error(english)["code"] == error(in_russian)["code"] == "validation_error"
    assert set(error(english)["details"]) == set(error(in_russian)["details"]) == {"password"}
    assert all(russian(m) or CYRILLIC & set(m.lower())
               for m in error(in_russian)["details"]["password"])
    assert not any(CYRILLIC & set(m.lower()) for m in error(english)["details"]["password"])
    assert russian(error(in_russian)["message"])


def test_an_unknown_url_and_a_missing_match(api: Any) -> None:
    for path in ("/api/v1/nowhere/", f"{MATCHES}999999/"):
        english = api.get(path)
        in_russian = api.get(path, HTTP_ACCEPT_LANGUAGE="ru")
        assert error(english)["code"] == error(in_russian)["code"] == "not_found"
        assert not CYRILLIC & set(error(english)["message"].lower())
        assert CYRILLIC & set(error(in_russian)["message"].lower())


def test_the_cookie_alone_changes_nothing_and_successes_are_untouched(api: Any) -> None:
    plain = api.get(f"{MATCHES}999999/")
    cookie = api.get(f"{MATCHES}999999/", HTTP_COOKIE="django_language=ru")
    assert cookie.content == plain.content
    ok = api.get("/api/v1/rules/")
    ok_ru = api.get("/api/v1/rules/", HTTP_ACCEPT_LANGUAGE="ru")
    assert ok_ru.content == ok.content and "Content-Language" not in ok_ru


@pytest.mark.parametrize("header", ["ru;q=0", "ru;q=0, en;q=0.5", "ru-RU;q=0.0"])
def test_a_language_of_quality_zero_is_refused(api: Any, header: str) -> None:
    """``ru;q=0`` says "not Russian": the API and the page answer in English (before,
    in Russian)."""
    answer = api.get("/api/v1/matches/999999/", HTTP_ACCEPT_LANGUAGE=header)
    assert answer.status_code == 404
    assert answer.get("Content-Language", "en").startswith("en")
    assert answer.json()["error"]["message"] == api.get("/api/v1/matches/999999/").json()[
        "error"]["message"]
    page = api.get("/play/", HTTP_ACCEPT_LANGUAGE=header)
    assert page.status_code == 200
    assert page["Content-Language"].startswith("en")
