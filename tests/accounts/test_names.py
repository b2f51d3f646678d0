"""Usernames are normalised before they are validated or looked up, never overflow a
column, and cannot pass for another name; display names hide nothing."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.support import assert_error

API = "/api/v1"
PASSWORD = "long-nardy-2026"


def _register(api, username, **extra):
    return api.post(f"{API}/accounts/register/",
                    {"username": username, "password": PASSWORD, **extra}, format="json")


@pytest.mark.parametrize("length", [255, 300, 320])
def test_an_email_longer_than_the_column_is_a_400(api, db, length):
    email = "a" * (length - len("@example.org")) + "@example.org"
    error = assert_error(_register(api, "mailer", email=email), 400, "validation_error")
    assert "email" in error["details"]


def test_a_name_that_grows_past_150_once_normalised_is_a_400(api, db):
    error = assert_error(_register(api, "\ufdfa" * 150), 400, "validation_error")
    assert "username" in error["details"]
    assert_error(_register(api, "\ufdfa" * 9), 400, "validation_error")  # 162 once NFKC
    assert not User.objects.exists()


def test_the_stored_name_is_the_one_its_owner_logs_in_with(api, db):
    assert _register(api, "ﬁsh").status_code == 201  # the ligature ﬁ is "fi"
    assert User.objects.get().username == "fish"
    for name in ("ﬁsh", "fish", "FISH"):
        response = api.post(f"{API}/accounts/token/", {"username": name, "password": PASSWORD},
                            format="json")
        assert response.status_code == 200, (name, response.content)
    assert_error(_register(api, "FIsh"), 400, "validation_error")  # taken
    assert api.get(f"{API}/accounts/users/ﬁsh/").json()["username"] == "fish"


@pytest.mark.parametrize("name", ["аdmin", "pаypal", "admın", "асе", "ΑΒΟ"])
def test_look_alike_usernames_are_refused(api, db, name):
    error = assert_error(_register(api, name), 400, "validation_error")
    assert "username" in error["details"]


@pytest.mark.parametrize("name", ["Émile", "Иван", "Ζωή", "nardist_7"])
def test_names_in_one_script_are_welcome(api, db, name):
    assert _register(api, name).status_code == 201


@pytest.mark.parametrize("name", ["admin", "Administrator", "SUPPORT", "ﬆaff"])
def test_reserved_names_are_refused(api, db, name):
    error = assert_error(_register(api, name), 400, "validation_error")
    assert error["details"]["username"] == ["This username is reserved."]


def test_a_staff_members_name_is_reserved_in_any_disguise(api, make_user):
    make_user("Referee", is_staff=True)
    for name in ("referee", "REFEREE"):
        assert_error(_register(api, name), 400, "validation_error")


@pytest.mark.parametrize("display_name", ["admin\u202e", "\u202eevil", "a\u2066b", "x\u200fy",
                                          "bell\x07"])
def test_display_names_with_direction_or_control_characters_are_refused(
        make_user, client_for, display_name):
    client = client_for(make_user())
    response = client.patch(f"{API}/accounts/me/", {"display_name": display_name}, format="json")
    error = assert_error(response, 400, "validation_error")
    assert "display_name" in error["details"]


def test_a_display_name_may_not_be_a_staff_or_reserved_name(make_user, client_for):
    make_user("Referee", is_staff=True)
    client = client_for(make_user("plain"))
    for taken in ("Admin", "referee"):
        response = client.patch(f"{API}/accounts/me/", {"display_name": taken}, format="json")
        assert_error(response, 400, "validation_error")
    for fine in ("Plain", "Plain Jane", "Émile"):
        response = client.patch(f"{API}/accounts/me/", {"display_name": fine}, format="json")
        assert response.status_code == 200, response.content


def test_the_admin_refuses_a_look_alike_username(make_user, client):
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    response = client.post("/admin/accounts/user/add/", {
        "username": "bоss", "password1": "a-long-secret-42", "password2": "a-long-secret-42",
        "usable_password": "true"})
    assert response.status_code == 200
    assert "may not mix scripts" in response.text
    assert User.objects.count() == 1


# --- look-alike and invisible names --------------------------------------

SMALL_CAPITALS = ["ᴄᴏᴍᴘᴜᴛᴇʀ-ᴇxᴘᴇʀᴛ", "ᴀᴅᴍɪɴ", "ꜱᴜᴘᴘᴏʀᴛ", "ʀᴏᴏᴛ"]


@pytest.mark.parametrize("name", SMALL_CAPITALS)
def test_small_capital_disguises_are_refused(api, db, name):
    error = assert_error(_register(api, name), 400, "validation_error")
    assert "look-alike" in error["details"]["username"][0]
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["\u115f", "\u115f\u115f\u115f", "\u3164", "\u3164\u3164",
                                  "\u1160x", "ab\uffa0", "ad\u200bmin", "a\u2060b",
                                  "eve\ufe0f", "x\U000e0041"])
def test_usernames_with_filler_or_invisible_characters_are_refused(api, db, name):
    error = assert_error(_register(api, name), 400, "validation_error")
    assert "username" in error["details"]
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["\u115f", "\u3164\u3164", "\u1160x", "ab\uffa0",
                                  "ad\u200bmin", "eve\ufe0f", "x\U000e0041"])
def test_the_names_logic_refuses_invisible_characters_in_usernames(name):
    from accounts import names

    assert "invisible" in names.username_problem(names.normalize(name))


@pytest.mark.parametrize("name", ["computer-expert", "Computer-Network", "computer_expert",
                                  "computer.random", "COMPUTER", "ad-min", "adrnin",
                                  "c0mputer-expert"])
def test_the_computers_account_names_and_their_spellings_are_reserved(api, db, name):
    error = assert_error(_register(api, name), 400, "validation_error")
    assert error["details"]["username"] == ["This username is reserved."]


@pytest.mark.parametrize("display_name", [
    "Computer (expert)", "computer (heuristic)", "COMPUTER (random)", "computer-expert",
    "ᴄᴏᴍᴘᴜᴛᴇʀ-ᴇxᴘᴇʀᴛ", "ᴄᴏᴍᴘᴜᴛᴇʀ (ᴇxᴘᴇʀᴛ)", "ᴀᴅᴍɪɴ", "Ad Min"])
def test_the_computers_display_names_and_disguises_are_reserved(make_user, client_for,
                                                                display_name):
    client = client_for(make_user("plain"))
    response = client.patch(f"{API}/accounts/me/", {"display_name": display_name},
                            format="json")
    error = assert_error(response, 400, "validation_error")
    assert error["details"]["display_name"] == ["This display name is reserved."]


@pytest.mark.parametrize("display_name", ["\u200b", "\u200b\u200c\u200d", "\ufeff",
                                          "\u3164", "\u115f\u1160", "\uffa0", "\u2800\u2800",
                                          "Bob\u200b", "a\ufe0fb", "\u2061x"])
def test_invisible_or_filler_display_names_are_refused(make_user, client_for, display_name):
    user = make_user("plain")
    client = client_for(user)
    response = client.patch(f"{API}/accounts/me/", {"display_name": display_name},
                            format="json")
    error = assert_error(response, 400, "validation_error")
    assert "invisible" in error["details"]["display_name"][0]
    user.refresh_from_db()
    assert user.display_name == ""


@pytest.mark.parametrize("blank", [" ", "   ", "\u3000", "\u2003\u00a0", "\t"])
def test_a_whitespace_only_display_name_is_never_stored(make_user, client_for, blank):
    user = make_user("plain")
    client = client_for(user)
    client.patch(f"{API}/accounts/me/", {"display_name": "Plain"}, format="json")
    response = client.patch(f"{API}/accounts/me/", {"display_name": blank}, format="json")
    assert response.status_code in (200, 400)
    user.refresh_from_db()
    assert user.display_name.strip() == user.display_name  # cleared or unchanged, not blank
    assert user.display_name in ("", "Plain")


def test_the_names_logic_refuses_blank_names_directly():
    from accounts import names

    for blank in ("\u3000", "  ", "\u0301"):
        assert "must show" in names.display_name_problem(blank)


@pytest.mark.parametrize("display_name", ["Player ❤️", "Émile", "Иван Петров", "Plain Jane",
                                          "☕︎ lover", "Player 7"])
def test_ordinary_display_names_are_welcome(make_user, client_for, display_name):
    client = client_for(make_user("plain"))
    response = client.patch(f"{API}/accounts/me/", {"display_name": display_name},
                            format="json")
    assert response.status_code == 200, response.content
