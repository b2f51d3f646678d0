"""CPU cost of one request, in process, without HTTP: where the time of a move goes.

    python -m bench.inprocess [--requests 300] [--blocks 6]

Runs Django's WSGI handler directly (no server, no sockets) on PostgreSQL
(``BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/nard_bench``;
the database must exist and be migrated — ``python -m bench.load`` leaves one) with
production settings, and prints, per request, the CPU time of this process and of
its PostgreSQL backend for: the health endpoint, reading a match, and playing
(roll and move requests of hotseat matches, one step per request). Each figure is
the second lowest of ``--blocks`` blocks, which keeps other load on the machine out.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/nard_bench"


def setup() -> Callable[..., tuple[int, Any]]:
    sys.path.insert(0, str(ROOT))
    # run as a script too: the repository joins the path first
    from bench.load import django_env

    os.environ.update(django_env(os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)))
    os.environ["ALLOWED_HOSTS"] += ",testserver"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nard_site.settings")
    import django

    django.setup()
    # the settings are chosen above and the apps set up first: Django's modules load only then
    from django.core.handlers.wsgi import WSGIHandler

    from accounts.models import User
    from accounts.services import token_obtain

    app = WSGIHandler()
    user, _ = User.objects.get_or_create(username="inprocess")
    token = token_obtain(user=user).key

    def call(method: str, path: str, body: Any = None, auth: bool = True) -> tuple[int, Any]:
        payload = b"" if body is None else json.dumps(body).encode()
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
                   "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1",
                   "wsgi.input": io.BytesIO(payload), "CONTENT_LENGTH": str(len(payload)),
                   "wsgi.url_scheme": "http", "HTTP_ACCEPT": "application/json",
                   "CONTENT_TYPE": "application/json"}
        if auth:
            environ["HTTP_AUTHORIZATION"] = f"Token {token}"
        status: list[str] = []
        body_bytes = b"".join(app(environ, lambda s, h, e=None: status.append(s)))
        return int(status[0][:3]), json.loads(body_bytes)

    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="per block")
    parser.add_argument("--blocks", type=int, default=6)
    args = parser.parse_args()
    call = setup()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]

    def backend_cpu() -> float:
        fields = Path(f"/proc/{backend}/stat").read_text().split()  # same machine only
        return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")

    def own_cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    state: dict[str, Any] = {}

    def play(n: int) -> None:
        for _ in range(n):
            match = state.get("match")
            if match is None or match["status"] != "active":
                match = call("POST", "/api/v1/matches/", {"length": 1, "hotseat": True})[1]
            url, current = f"/api/v1/matches/{match['id']}/", match["state"]
            if current["phase"] == "move" and current["legal_steps"]:
                body = {"steps": current["legal_steps"][:1], "expected_version": match["version"]}
                status, state["match"] = call("POST", url + "moves/", body)
            else:
                status, state["match"] = call("POST", url + "roll/",
                                              {"expected_version": match["version"]})
            assert status == 200, state["match"]

    def read(n: int) -> None:
        url = f"/api/v1/matches/{state['match']['id']}/"
        for _ in range(n):
            assert call("GET", url)[0] == 200

    def health(n: int) -> None:
        for _ in range(n):
            assert call("GET", "/api/v1/health/", auth=False)[0] == 200

    kinds = {"health": health, "GET match": read, "roll+move": play}
    play(args.requests)  # warm up: connections, prepared statements, caches
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in kinds}
    for _ in range(args.blocks):
        for name, run in kinds.items():
            mine, theirs = own_cpu(), backend_cpu()
            run(args.requests)
            results[name].append(((own_cpu() - mine) / args.requests * 1e3,
                                   (backend_cpu() - theirs) / args.requests * 1e3))
    print(f"CPU per request ({connection.vendor}, {args.blocks} blocks of {args.requests}):")
    for name, blocks in results.items():
        python = sorted(p for p, _ in blocks)[min(1, len(blocks) - 1)]
        database = sorted(d for _, d in blocks)[min(1, len(blocks) - 1)]
        print(f"  {name:10s} python {python:5.2f} ms + PostgreSQL {database:5.2f} ms"
              f" = {python + database:5.2f} ms")


if __name__ == "__main__":
    main()
