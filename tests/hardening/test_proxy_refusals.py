"""What the production topology (granian behind deploy/nginx.conf, ``NUM_PROXIES=1``)
answers to probes of its edges: any method of capital letters, malformed requests, the
readiness check from the public.

- A method the server does not know is refused by nginx (405, in the error shape); sent
  straight to granian, it is labelled ``other`` on ``/metrics``: before, each new word
  was a new series of the request histogram, kept for ever (25,700 random methods grew
  the workers 254 → 388 MB).
- nginx's own 400/404/405 answers are the API's error shape, not HTML pages.
- ``health/?ready`` through nginx says up or down only; the queue's figures are for the
  metrics' networks (``METRICS_ALLOWED``/``METRICS_TOKEN``)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.hardening.test_proxy import NGINX, Proxy
from tests.support import AsgiServer, call, prepare_database, server_env

pytestmark = pytest.mark.skipif(NGINX is None, reason="needs nginx")
TOKEN = "metrics-token-for-the-test"


@pytest.fixture(scope="module")
def topology(tmp_path_factory: Any) -> Iterator[dict[str, Any]]:
    tmp = Path(tmp_path_factory.mktemp("refusals"))
    # The metrics' network is not this machine's: the probes here are "the public".
    env = server_env(tmp / "refusals.sqlite3", NUM_PROXIES="1",
                     METRICS_ALLOWED="192.0.2.0/24", METRICS_TOKEN=TOKEN)
    tokens = prepare_database(env, {"alice": None})
    server = AsgiServer(env, 1)
    try:
        proxy = Proxy(server.port, tmp / "nginx")
        try:
            yield {"port": proxy.port, "server": server, **tokens}
        finally:
            proxy.stop()
    finally:
        server.stop()


def raw_request(port: int, head: bytes) -> tuple[int, dict[str, str], bytes]:
    """``head`` sent as is on a new connection: the status, headers and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in
               (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def error_code(headers: dict[str, str], body: bytes) -> str:
    assert headers.get("content-type", "").startswith("application/json"), (headers, body)
    error = json.loads(body)["error"]
    assert set(error) == {"code", "message", "details"}, error
    return str(error["code"])


def test_nginx_refuses_unknown_methods_in_the_error_shape(topology: dict[str, Any]) -> None:
    for method in ("FOOBAR", "PROPFIND", "BREW"):
        status, headers, body = raw_request(
            topology["port"],
            f"{method} /api/v1/nothing/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            .encode())
        assert status == 405, (method, body)
        assert error_code(headers, body) == "method_not_allowed"
    assert call(topology["port"], "GET", "/api/v1/health/").status == 200


def test_unknown_methods_are_one_label_on_the_metrics(topology: dict[str, Any]) -> None:
    port = topology["server"].port  # straight to granian, past nginx
    words = [f"PROBE{chr(65 + i)}{chr(65 + j)}" for i in range(5) for j in range(5)]
    for word in words:
        assert call(port, word, "/api/v1/no-such-thing/").status == 404
    scraped = call(port, "GET", "/metrics", Authorization=f"Bearer {TOKEN}")
    assert scraped.status == 200
    text = scraped.raw.decode()
    assert "PROBE" not in text
    assert 'method="other"' in text


def test_nginx_own_answers_are_the_error_shape(topology: dict[str, Any]) -> None:
    port = topology["port"]
    status, headers, body = raw_request(
        port, b"GET /api/v1/health/ HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
    assert status == 400, body
    assert error_code(headers, body) == "bad_request"
    status, headers, body = raw_request(
        port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status == 404, body
    assert error_code(headers, body) == "not_found"
    # The server's own 404 passes through as the server wrote it.
    answer = call(port, "GET", "/api/v1/no-such-thing/")
    assert answer.status == 404 and answer.json["error"]["code"] == "not_found"


def test_readiness_through_nginx_says_only_up_or_down(topology: dict[str, Any]) -> None:
    answer = call(topology["port"], "GET", "/api/v1/health/?ready")
    assert answer.status == 200, answer.raw
    assert answer.json == {"status": "ok", "database": "ok", "ready": True}
    told = call(topology["port"], "GET", "/api/v1/health/?ready",
                Authorization=f"Bearer {TOKEN}")
    assert told.status == 200
    assert told.json["queue_lag_seconds"] == 0.0 and told.json["review_lag_seconds"] == 0.0
