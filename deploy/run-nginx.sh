#!/usr/bin/env bash
# Run nginx with deploy/nginx.conf in the foreground: listening on LISTEN (a port or
# address:port), in front of the server(s) at UPSTREAM (address:port, or several
# separated by commas: nginx balances over them), its pid, logs and temporary files under
# PREFIX (made if missing; default: a new temporary directory). MAX_FAILS (default 1) and
# FAIL_TIMEOUT (default 5s): the passive health check of each upstream server.
#
#     deploy/run-nginx.sh 8080 127.0.0.1:8000 [/var/lib/nard-nginx]
#     deploy/run-nginx.sh 8080 127.0.0.1:8001,127.0.0.1:8002
#
# Debian: apt-get install nginx-light (or nginx). Stop it with SIGTERM (or SIGQUIT to
# let open requests finish).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 LISTEN UPSTREAM [PREFIX]" >&2
  exit 2
fi
LISTEN="$1" UPSTREAM="$2" PREFIX="${3:-$(mktemp -d)}"
mkdir -p "$PREFIX"
chmod 755 "$PREFIX"  # nginx's workers (another user when started as root) write here
HERE="$(cd "$(dirname "$0")" && pwd)"
MAX_FAILS="${MAX_FAILS:-1}" FAIL_TIMEOUT="${FAIL_TIMEOUT:-5s}"
# The `server @UPSTREAM@ …;` line once per address.
awk -v ups="$UPSTREAM" '/server @UPSTREAM@/ { n = split(ups, a, ","); line = $0
    for (i = 1; i <= n; i++) { l = line; sub(/@UPSTREAM@/, a[i], l); print l }; next }
  { print }' "$HERE/nginx.conf" \
  | sed -e "s|@LISTEN@|$LISTEN|g" -e "s|@PREFIX@|$PREFIX|g" \
        -e "s|@MAX_FAILS@|$MAX_FAILS|g" -e "s|@FAIL_TIMEOUT@|$FAIL_TIMEOUT|g" \
  > "$PREFIX/nginx.conf"
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
"$NGINX" -t -q -p "$PREFIX" -c "$PREFIX/nginx.conf"
exec "$NGINX" -p "$PREFIX" -c "$PREFIX/nginx.conf" -g "daemon off;"
