"""The play page and its session login, without a browser: served, CSRF kept on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.support import assert_error

PASSWORD = "correct-horse-battery"


@pytest.fixture
def csrf_client() -> Client:
    return Client(enforce_csrf_checks=True)


def token_of(client: Client) -> str:
    response = client.get("/play/")
    assert response.status_code == 200
    return response.cookies["csrftoken"].value


def test_the_root_points_to_the_play_page(client: Client) -> None:
    response = client.get("/")
    assert (response.status_code, response["Location"]) == (302, "/play/")


@pytest.mark.django_db
def test_the_page_is_served_with_its_modules_and_a_csrf_cookie(client: Client) -> None:
    response = client.get("/play/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'type="module"' in html and "/static/web/app.js" in html
    assert 'data-api="/api/v1/"' in html and 'data-session="/play/session/"' in html
    assert "csrftoken" in response.cookies
    assert "http://" not in html.replace("http://www.w3.org", "")  # no CDN
    assert client.get("/api/v1/docs/").status_code == 200  # the API docs stay


@pytest.mark.django_db
@pytest.mark.parametrize("path, module", [("/play/", "app.js"), ("/play/verify/", "verify.js")])
def test_both_pages_share_one_frame_and_speak_russian(client: Client, path: str,
                                                      module: str) -> None:
    """play.html and verify.html extend web/base.html: the same head and top bar, their own
    module; every text of the frame and of the page in Russian when asked."""
    html = client.get(path, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<html lang="ru">' in html and f"/static/web/{module}" in html
    assert 'class="topbar"' in html and ">Нарды</a>" in html and "Лобби" in html
    assert "/play/jsi18n/?language=ru" in html
    for english in ("Verify the", "Lobby", "Match id", "Player", "Show the statistics",
                    "Nardy —"):
        assert english not in html, english


@pytest.mark.django_db
def test_login_needs_the_csrf_token(csrf_client: Client, make_user: Callable[..., Any]) -> None:
    make_user("dora", password=PASSWORD)
    body = {"username": "dora", "password": PASSWORD}
    refused = csrf_client.post("/play/session/", body, content_type="application/json")
    assert refused.status_code == 403
    token = token_of(csrf_client)
    response = csrf_client.post("/play/session/", body, content_type="application/json",
                                HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200, response.content
    assert response.json()["username"] == "dora"
    assert csrf_client.get("/play/session/").json()["username"] == "dora"
    assert csrf_client.get("/api/v1/accounts/me/").json()["username"] == "dora"


@pytest.mark.django_db
def test_login_refusals_have_the_api_error_shape(csrf_client: Client,
                                                 make_user: Callable[..., Any]) -> None:
    make_user("dora", password=PASSWORD)
    token = token_of(csrf_client)

    def post(body: Any) -> Any:
        return csrf_client.post("/play/session/", body, content_type="application/json",
                                HTTP_X_CSRFTOKEN=token)

    assert_error(post({"username": "dora", "password": "wrong"}), 401, "not_authenticated")
    error = assert_error(post({"username": "dora"}), 400, "validation_error")
    assert "password" in error["details"]
    assert_error(post(["dora"]), 400, "validation_error")
    assert_error(csrf_client.post("/play/session/", "{not json", content_type="application/json",
                                  HTTP_X_CSRFTOKEN=token), 400, "validation_error")
    assert_error(post({"username": "do\x00ra", "password": PASSWORD}), 400, "validation_error")
    assert csrf_client.get("/play/session/").json() == {"username": None}


@pytest.mark.django_db
def test_logout_ends_the_session(csrf_client: Client, make_user: Callable[..., Any]) -> None:
    make_user("dora", password=PASSWORD)
    token = token_of(csrf_client)
    csrf_client.post("/play/session/", {"username": "dora", "password": PASSWORD},
                     content_type="application/json", HTTP_X_CSRFTOKEN=token)
    token = csrf_client.cookies["csrftoken"].value  # login rotates it
    assert csrf_client.delete("/play/session/").status_code == 403  # CSRF here too
    assert csrf_client.delete("/play/session/", HTTP_X_CSRFTOKEN=token).status_code == 204
    assert csrf_client.get("/play/session/").json() == {"username": None}
    assert_error(csrf_client.get("/api/v1/accounts/me/"), 401, "not_authenticated")


@pytest.mark.django_db
def test_session_writes_to_the_api_need_the_csrf_header(
        csrf_client: Client, make_user: Callable[..., Any]) -> None:
    make_user("dora", password=PASSWORD)
    token = token_of(csrf_client)
    csrf_client.post("/play/session/", {"username": "dora", "password": PASSWORD},
                     content_type="application/json", HTTP_X_CSRFTOKEN=token)
    token = csrf_client.cookies["csrftoken"].value
    body = {"length": 1, "hotseat": True}
    assert_error(csrf_client.post("/api/v1/matches/", body, content_type="application/json"),
                 403, "csrf_failed")  # its own code, in the shape
    created = csrf_client.post("/api/v1/matches/", body, content_type="application/json",
                               HTTP_X_CSRFTOKEN=token)
    assert created.status_code == 201, created.content
    assert created.json()["status"] == "active"
