#!/usr/bin/env bash
# Command 1: install, migrate the embedded SQLite database (or DATABASE_URL's), create
# the demo accounts and a finished demo match, and start the server on
# http://127.0.0.1:${PORT:-8000}, with the task queue's worker beside it (the computer's
# turns).  This is the development server: DEBUG is on unless DEBUG=0 is set (the settings
# default it off).
source "$(dirname "$0")/bootstrap.sh"
export DEBUG="${DEBUG:-1}"
python manage.py migrate --no-input -v 0
# Throttling and log-in counters (no REDIS_URL): migrate makes the table; quiet when it has.
python manage.py createcachetable -v 0
python manage.py collectstatic --no-input -v 0
# Demo data only on the embedded database, or when asked with SEED_DEMO=1.
if [ -z "${DATABASE_URL:-}" ] || [ "${SEED_DEMO:-}" = 1 ]; then
  echo "==> demo accounts:"
  python manage.py seed_demo
  echo "==> demo matches (a finished 3-point match of each rule set, with a mars or gammon,"
  echo "    to replay and to browse in the admin):"
  python manage.py seed_demo_match
else
  echo "==> DATABASE_URL is set: no demo accounts or match (SEED_DEMO=1 creates them)"
fi
PORT="${PORT:-8000}"
echo "==> serving on http://127.0.0.1:$PORT/  (API docs: /api/v1/docs/, admin: /admin/)"
# The ASGI server, as in production: the REST API and the live streams (runserver is WSGI
# and cannot stream; docs/architecture.md). Reloads on code changes unless
# RUNSERVER_ARGS=--noreload.
reload=(--reload)  # watching the Python packages only (not the database, static files)
for package in */__init__.py; do reload+=(--reload-paths "$(dirname "$package")"); done
case " ${RUNSERVER_ARGS:-} " in *" --noreload "*) reload=() ;; esac
# The computer's turns run on the task queue's worker beside the server (docs/architecture.md,
# "The computer's turns"): the worker itself queues again the turns a stopped worker left,
# when it starts; when the worker or the server stops, or this script does, both are stopped.
worker_args=(--interval 2 -v 0)  # a fallback poll: the worker wakes on the doorbell
[ ${#reload[@]} -gt 0 ] || worker_args+=(--no-reload)
children=()
stop() {  # each child and its own children (a reloader's), by process id
  for pid in "${children[@]}"; do
    pkill -TERM -P "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
  done
  wait || true
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
python manage.py db_worker "${worker_args[@]}" &
children+=($!)
# Game reviews on their own queue and worker (niced: docs/architecture.md)
python manage.py db_worker "${worker_args[@]}" --queue-name analysis &
children+=($!)
granian --interface asgi nard_site.asgi:application --host 127.0.0.1 --port "$PORT" \
  --workers 1 --log-level warning "${reload[@]}" &
children+=($!)
wait -n
