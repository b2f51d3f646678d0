#!/usr/bin/env bash
# Run nginx with deploy/nginx.conf in the foreground: listening on LISTEN (a port or
# address:port), in front of the server at UPSTREAM (address:port), its pid, logs and
# temporary files under PREFIX (made if missing; default: a new temporary directory).
#
#     deploy/run-nginx.sh 8080 127.0.0.1:8000 [/var/lib/nard-nginx]
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
sed -e "s|@LISTEN@|$LISTEN|g" -e "s|@UPSTREAM@|$UPSTREAM|g" -e "s|@PREFIX@|$PREFIX|g" \
  "$HERE/nginx.conf" > "$PREFIX/nginx.conf"
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
"$NGINX" -t -q -p "$PREFIX" -c "$PREFIX/nginx.conf"
exec "$NGINX" -p "$PREFIX" -c "$PREFIX/nginx.conf" -g "daemon off;"
