"""``GET rules/`` serves every rule set's descriptor (public, cacheable)."""

from __future__ import annotations

import pytest

import nardy
from tests.support import assert_error

pytestmark = pytest.mark.django_db

URL = "/api/v1/rules/"


def test_every_descriptor_is_served_with_its_facts(api) -> None:
    response = api.get(URL)
    assert response.status_code == 200, response.content
    body = response.json()
    assert [d["name"] for d in body] == [d.name for d in nardy.descriptors()]
    for served, d in zip(body, nardy.descriptors(), strict=True):
        assert (served["title"], served["tag"], served["head"], served["hits"], served["bar"],
                served["bears_off"], served["cap"], served["numbering"], served["opening"],
                served["later_games"], served["home"], served["summary"]) == (
            d.title, d.tag, d.head, d.hits, d.bar, d.bears_off, d.cap, d.numbering,
            d.opening, d.later_games, list(d.home), d.summary)
        assert served["start"] == {str(p): n for p, n in d.start.items()}
        assert [(r["name"], r["worth"], r["title"], r["explanation"])
                for r in served["results"]] == [
            (r.name, r.points, r.title, r.explanation) for r in d.results]
        assert served["stakes"] == ["none", "cube", "dave"]
        assert served["default"] is (d.name == nardy.DEFAULT_RULES)
    assert sum(d["default"] for d in body) == 1


def test_one_rule_set_and_an_unknown_one(api) -> None:
    one = api.get(URL + "short_nardy/")
    assert one.status_code == 200 and one.json()["title"] == "Short Nardy"
    error = assert_error(api.get(URL + "plakoto/"), 404, "not_found")
    assert "long_nardy" in error["details"]["known"]


def test_public_and_cacheable_with_an_etag(api) -> None:
    first = api.get(URL)
    assert "public" in first["Cache-Control"] and "max-age=" in first["Cache-Control"]
    tag = first["ETag"]
    assert tag.startswith('"') and tag == api.get(URL)["ETag"]
    again = api.get(URL, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and not again.content and again["ETag"] == tag
    assert api.get(URL, HTTP_IF_NONE_MATCH='"stale"').status_code == 200
    one = api.get(URL + "nard/")
    assert api.get(URL + "nard/", HTTP_IF_NONE_MATCH=one["ETag"]).status_code == 304


def test_in_the_openapi_schema(api) -> None:
    schema = api.get("/api/v1/schema/?format=json").json()
    assert "/api/v1/rules/" in schema["paths"] and "/api/v1/rules/{name}/" in schema["paths"]
    props = schema["components"]["schemas"]["RuleSet"]["properties"]
    assert {"name", "title", "results", "head", "hits", "bar", "bears_off", "cap",
            "numbering", "start", "opening", "later_games", "home", "stakes"} <= set(props)
