"""A refused CSRF check answers in the error shape on the JSON endpoints:
403 ``csrf_failed`` from ``/play/session/`` and from the API under session
authentication; the admin keeps Django's HTML page."""

from __future__ import annotations

from django.test import Client

from tests.support import assert_error


def _session_client(make_user, name="csrfer"):
    make_user(name)
    client = Client(enforce_csrf_checks=True)
    assert client.login(username=name, password="correct-horse-battery")
    return client


def test_the_web_login_without_the_csrf_token_is_a_json_403(db):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/play/session/", {"username": "x", "password": "y"},
                           content_type="application/json")
    assert response["Content-Type"] == "application/json"
    error = assert_error(response, 403, "csrf_failed")
    assert "X-CSRFToken" in error["message"]


def test_the_web_logout_without_the_csrf_token_is_a_json_403(make_user):
    client = _session_client(make_user)
    assert_error(client.delete("/play/session/"), 403, "csrf_failed")
    assert client.get("/play/session/").json()["username"] == "csrfer"  # still logged in


def test_an_api_write_by_session_without_the_csrf_token_is_csrf_failed(make_user):
    client = _session_client(make_user)
    response = client.patch("/api/v1/accounts/me/", {"display_name": "Zed"},
                            content_type="application/json")
    error = assert_error(response, 403, "csrf_failed")
    assert "X-CSRFToken" in error["message"]


def test_the_admin_keeps_its_html_csrf_page(make_user):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    assert b"CSRF" in response.content
