#!/usr/bin/env bash
# The production topology on one machine (docs/scaling.md): nginx in front of
# two granian app nodes, two task-queue workers, PgBouncer (transaction mode) in front of
# a PostgreSQL primary with a streaming hot-standby replica, and Redis.
#
#     bash deploy/cluster.sh up|down|status|env
#
# Everything lives under CLUSTER_DIR (default deploy/.cluster, gitignored): data, logs,
# pid files. Ports CLUSTER_PORT .. +13 (default 7400: nginx 7400, app nodes 7401/7402,
# PgBouncer 7410, primary 7411, replica 7412, Redis 7413), never the usual defaults.
# Nothing runs unless asked; `down` stops every process `up` started and removes the
# state directory (KEEP=1 keeps it). Debian packages: nginx-light (or nginx), pgbouncer,
# postgresql (15), redis-server; pgbouncer is installed with apt if missing.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
DIR="${CLUSTER_DIR:-$HERE/.cluster}"
BASE="${CLUSTER_PORT:-7400}"
P_NGINX=$BASE P_APP1=$((BASE + 1)) P_APP2=$((BASE + 2))
P_BOUNCER=$((BASE + 10)) P_PRIMARY=$((BASE + 11)) P_REPLICA=$((BASE + 12)) P_REDIS=$((BASE + 13))
PY="${PYTHON:-$ROOT/.venv/bin/python}"
GRANIAN="${GRANIAN:-$(dirname "$PY")/granian}"
PGBIN="${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
DB=nard

# PostgreSQL and PgBouncer refuse to run as root: as root, run them as `postgres`.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# The environment of an app node or worker (printed by `env`).
app_env() {
  cat <<ENV
DATABASE_URL=postgres://postgres@127.0.0.1:$P_BOUNCER/$DB
DATABASE_REPLICA_URL=postgres://postgres@127.0.0.1:$P_REPLICA/$DB
DOORBELL_DATABASE_URL=postgres://postgres@127.0.0.1:$P_PRIMARY/$DB
DB_PREPARE_THRESHOLD=0
DB_DISABLE_SERVER_SIDE_CURSORS=1
DB_CONN_MAX_AGE=60
REDIS_URL=redis://127.0.0.1:$P_REDIS/0
NUM_PROXIES=1
SECRET_KEY=cluster-test-secret-key-not-for-production-0123456789abcdef
ALLOWED_HOSTS=127.0.0.1,localhost
SECURE_SSL_REDIRECT=0
SECURE_COOKIES=0
SECURE_HSTS_SECONDS=0
METRICS_ALLOWED=127.0.0.1/32
LOG_FORMAT=json
WORKER_HEARTBEAT_SECONDS=${WORKER_HEARTBEAT_SECONDS:-5}
WORKER_LEASE_SECONDS=${WORKER_LEASE_SECONDS:-30}
REPLICA_RETRY_SECONDS=${REPLICA_RETRY_SECONDS:-5}
THROTTLE_USER=${THROTTLE_USER:-20000/min}
ENV
}

# Run a command detached in its own process group (setsid), its pid in $DIR/run/NAME.pid.
spawn() {
  local name="$1"; shift
  env $(app_env | xargs) setsid "$@" >"$DIR/log/$name.log" 2>&1 < /dev/null &
  echo $! > "$DIR/run/$name.pid"
}

alive() { [ -f "$DIR/run/$1.pid" ] && kill -0 "$(cat "$DIR/run/$1.pid")" 2>/dev/null; }

# Stop a process group started by spawn (TERM, then KILL after 10 s).
stop_group() {
  local name="$1" pid
  [ -f "$DIR/run/$name.pid" ] || return 0
  pid="$(cat "$DIR/run/$name.pid")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  rm -f "$DIR/run/$name.pid"
}

wait_port() {  # PORT [SECONDS]
  for _ in $(seq $((${2:-30} * 10))); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "port $1 did not open" >&2; return 1
}

pg_up() {
  mkdir -p "$DIR/pg"; chown postgres: "$DIR/pg" 2>/dev/null || true
  if [ ! -f "$DIR/pg/primary/PG_VERSION" ]; then
    as_pg "$PGBIN/initdb" -D "$DIR/pg/primary" -U postgres --auth=trust -E UTF8 \
      --locale=C.UTF-8 >"$DIR/log/initdb.log"
    cat >> "$DIR/pg/primary/postgresql.conf" <<CONF
port = $P_PRIMARY
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR/pg'
wal_level = replica
max_wal_senders = 5
hot_standby = on
max_connections = 200
fsync = off
CONF
    echo "host replication postgres 127.0.0.1/32 trust" >> "$DIR/pg/primary/pg_hba.conf"
  fi
  as_pg "$PGBIN/pg_ctl" -D "$DIR/pg/primary" -l "$DIR/pg/primary.log" -w start >/dev/null
  as_pg "$PGBIN/psql" -h 127.0.0.1 -p "$P_PRIMARY" -U postgres -qtAc \
    "SELECT 1 FROM pg_database WHERE datname='$DB'" | grep -q 1 \
    || as_pg "$PGBIN/createdb" -h 127.0.0.1 -p "$P_PRIMARY" -U postgres "$DB"
  # The schema first, straight on the primary (not through PgBouncer), so that the
  # replica's base backup has it.
  env $(app_env | xargs) DATABASE_URL="postgres://postgres@127.0.0.1:$P_PRIMARY/$DB" \
    DATABASE_REPLICA_URL= "$PY" "$ROOT/manage.py" migrate --noinput >"$DIR/log/migrate.log"
  if [ ! -f "$DIR/pg/replica/PG_VERSION" ]; then
    as_pg "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$P_PRIMARY" -U postgres \
      -D "$DIR/pg/replica" -R -X stream -c fast
    echo "port = $P_REPLICA" >> "$DIR/pg/replica/postgresql.auto.conf"
  fi
  replica_start
}

replica_start() {
  as_pg "$PGBIN/pg_ctl" -D "$DIR/pg/replica" -l "$DIR/pg/replica.log" -w start >/dev/null
}
replica_stop() {
  as_pg "$PGBIN/pg_ctl" -D "$DIR/pg/replica" -m fast -w stop >/dev/null 2>&1 || true
}

bouncer_conf() {
  mkdir -p "$DIR/bouncer"
  echo '"postgres" ""' > "$DIR/bouncer/users.txt"
  cat > "$DIR/bouncer/pgbouncer.ini" <<INI
[databases]
$DB = host=127.0.0.1 port=$P_PRIMARY dbname=$DB
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $P_BOUNCER
unix_socket_dir =
auth_type = trust
auth_file = $DIR/bouncer/users.txt
pool_mode = transaction
default_pool_size = 20
max_client_conn = 2000
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
logfile = $DIR/bouncer/pgbouncer.log
pidfile = $DIR/bouncer/pgbouncer.pid
admin_users = postgres
INI
  chown -R postgres: "$DIR/bouncer" 2>/dev/null || true
}

bouncer_start() {
  as_pg pgbouncer -d "$DIR/bouncer/pgbouncer.ini"
  wait_port "$P_BOUNCER" 10
}
bouncer_stop() {
  local f="$DIR/bouncer/pgbouncer.pid" pid
  [ -f "$f" ] || return 0
  pid="$(cat "$f")"
  kill -INT "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$f"
}

redis_up() {
  mkdir -p "$DIR/redis"
  redis-server --port "$P_REDIS" --bind 127.0.0.1 --daemonize yes --save "" \
    --appendonly no --dir "$DIR/redis" --pidfile "$DIR/redis/redis.pid" \
    --logfile "$DIR/redis/redis.log"
  wait_port "$P_REDIS" 10
}

app_start() {  # N (1 or 2)
  local port=$((BASE + $1))
  spawn "app$1" "$GRANIAN" --interface asgi nard_site.asgi:application --host 127.0.0.1 \
    --port "$port" --workers 1 --workers-kill-timeout 10 --backlog 4096 --backpressure 2048
  wait_port "$port" 60
}
worker_start() {  # N
  spawn "worker$1" "$PY" "$ROOT/manage.py" db_worker --no-reload --worker-id "cluster-$1"
}
review_worker_start() {  # game reviews on their own queue, niced (docs/architecture.md)
  spawn "review1" "$PY" "$ROOT/manage.py" db_worker --no-reload --queue-name analysis \
    --worker-id "cluster-review-1"
}

nginx_up() {
  "$HERE/run-nginx.sh" "127.0.0.1:$P_NGINX" "127.0.0.1:$P_APP1,127.0.0.1:$P_APP2" \
    "$DIR/nginx" >"$DIR/log/nginx.log" 2>&1 < /dev/null &
  echo $! > "$DIR/run/nginx.pid"
  wait_port "$P_NGINX" 10
}

up() {
  command -v pgbouncer >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer
    # Debian's package starts its own service on 6432: not ours.
    { systemctl disable --now pgbouncer || service pgbouncer stop; } >/dev/null 2>&1 || true
  }
  mkdir -p "$DIR/run" "$DIR/log"
  chmod 755 "$DIR"
  cd "$ROOT"
  pg_up
  bouncer_conf; bouncer_start
  redis_up
  app_start 1; app_start 2
  worker_start 1; worker_start 2
  review_worker_start
  nginx_up
  echo "up: http://127.0.0.1:$P_NGINX/ (CLUSTER_DIR=$DIR)"
}

down() {
  for n in nginx worker1 worker2 review1 app1 app2; do stop_group "$n"; done
  [ -f "$DIR/redis/redis.pid" ] && { kill "$(cat "$DIR/redis/redis.pid")" 2>/dev/null || true; }
  bouncer_stop
  replica_stop
  [ -d "$DIR/pg/primary" ] && as_pg "$PGBIN/pg_ctl" -D "$DIR/pg/primary" -m fast -w stop \
    >/dev/null 2>&1 || true
  if [ "${KEEP:-0}" != 1 ] && [ -d "$DIR" ]; then rm -rf "$DIR"; fi
  echo "down"
}

status() {
  local rc=0
  for n in nginx app1 app2 worker1 worker2 review1; do
    if alive "$n"; then echo "$n: up (pid $(cat "$DIR/run/$n.pid"))"; else echo "$n: down"; rc=1; fi
  done
  if [ -f "$DIR/bouncer/pgbouncer.pid" ] && kill -0 "$(cat "$DIR/bouncer/pgbouncer.pid")" 2>/dev/null
  then echo "pgbouncer: up (:$P_BOUNCER)"; else echo "pgbouncer: down"; rc=1; fi
  for r in primary:$P_PRIMARY replica:$P_REPLICA; do
    if "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "${r#*:}"; then echo "${r%:*}: up (:${r#*:})"
    else echo "${r%:*}: down"; rc=1; fi
  done
  if redis-cli -p "$P_REDIS" ping >/dev/null 2>&1; then echo "redis: up (:$P_REDIS)"
  else echo "redis: down"; rc=1; fi
  return $rc
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  env) app_env ;;
  # Single parts, for the fault test (bench/cluster.py).
  stop-app|start-app) [ "$1" = stop-app ] && stop_group "app$2" || app_start "$2" ;;
  kill-app) kill -KILL -- "-$(cat "$DIR/run/app$2.pid")"; rm -f "$DIR/run/app$2.pid" ;;
  kill-worker) kill -KILL -- "-$(cat "$DIR/run/worker$2.pid")"; rm -f "$DIR/run/worker$2.pid" ;;
  start-worker) worker_start "$2" ;;
  stop-replica) replica_stop ;;
  start-replica) replica_start ;;
  restart-bouncer) bouncer_stop; bouncer_start ;;
  *) echo "usage: $0 up|down|status|env" >&2; exit 2 ;;
esac
