"""Bodies are bounded by their declared size whatever their type; JSON only; unknown API
URLs are JSON 404s even with CSRF checks on (as a browser-less client meets them)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.support import assert_error


class _Unreadable:
    """A request body that fails the test if anything reads it."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


@pytest.mark.parametrize("content_type", [
    "multipart/form-data; boundary=xyz", "application/json", "application/octet-stream"])
def test_a_body_declared_too_large_is_refused_unread(db, content_type):
    response = Client().generic(
        "POST", "/api/v1/accounts/register/", b"", content_type=content_type,
        CONTENT_LENGTH=str(20 * 1024 * 1024), **{"wsgi.input": _Unreadable()})
    error = assert_error(response, 413, "payload_too_large")
    assert error["details"] == {"limit": 256 * 1024}


def test_form_and_multipart_bodies_are_not_parsed(db):
    client = APIClient()
    form = client.post("/api/v1/accounts/register/", "username=zed&password=long-secret-42",
                       content_type="application/x-www-form-urlencoded")
    assert_error(form, 415, "unsupported_media_type")
    multipart = client.post("/api/v1/accounts/register/",
                            {"username": "zed", "password": "long-secret-42"},
                            format="multipart")
    assert_error(multipart, 415, "unsupported_media_type")


@pytest.mark.parametrize("path", ["/api/v1/nowhere/", "/api/v1/matches", "/api/v1/accounts/token"])
def test_a_post_to_no_url_is_a_json_404_with_csrf_checks_on(db, path):
    for client in (Client(enforce_csrf_checks=True), APIClient(enforce_csrf_checks=True)):
        response = client.post(path, "{}", content_type="application/json")
        assert_error(response, 404, "not_found")


def test_a_logged_in_browser_gets_the_json_404_too(db, make_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user())
    assert_error(client.post("/api/v1/nowhere/", "{}", content_type="application/json"),
                 404, "not_found")
