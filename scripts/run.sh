#!/usr/bin/env bash
# Command 1: install, migrate the embedded SQLite database (or DATABASE_URL's), create
# the demo accounts and a finished demo match, and start the server on
# http://127.0.0.1:${PORT:-8000}.
source "$(dirname "$0")/bootstrap.sh"
python manage.py migrate --no-input -v 0
python manage.py collectstatic --no-input -v 0
echo "==> demo accounts:"
python manage.py seed_demo
echo "==> demo match (a finished 3-point match with a mars, to browse in the admin):"
python manage.py seed_demo_match
PORT="${PORT:-8000}"
echo "==> serving on http://127.0.0.1:$PORT/  (API docs: /api/v1/docs/, admin: /admin/)"
exec python manage.py runserver "127.0.0.1:$PORT" ${RUNSERVER_ARGS:-}
