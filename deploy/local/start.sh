#!/usr/bin/env bash
# Starts the reference deployment on loopback ports (docs/operations.md, "Reference deployment"):
#   deploy/local/start.sh                 everything (idempotent: running parts are left alone)
#   deploy/local/start.sh gateway-2 …     only the named parts (after a crash or a stop.sh of one part)
# Parts: postgres (databases on $DATABASE_URL) redis-primary redis-replica sentinel-1..3 payments-1..2
#        gateway-1..3 haproxy prometheus. Pids and logs: $TOOLGATE_DEPLOY_RUN_DIR (deploy/.run).
# Needs Debian's haproxy, prometheus, redis-server and postgresql: sudo deploy/local/install-packages.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

for binary in /usr/sbin/haproxy /usr/bin/prometheus /usr/bin/redis-server /usr/bin/psql /usr/bin/curl; do
  if [[ ! -x "$binary" ]]; then
    if [[ "$(id -u)" == 0 ]]; then
      "$DEPLOY_DIR/local/install-packages.sh"
      choose_database_url
      break
    fi
    log "missing $binary: run sudo deploy/local/install-packages.sh first"
    exit 1
  fi
done
if [[ ! -f "$REPO_DIR/dist/src/cli/main.js" ]]; then
  log "building toolgate (npm run build)"
  (cd "$REPO_DIR" && npm run build >/dev/null)
fi

mkdir -p "$RUN_DIR/pids" "$RUN_DIR/logs"
node "$DEPLOY_DIR/local/make-secrets.mjs" "$RUN_DIR/secrets"
printf 'http://127.0.0.1:%s\n' "$TG_LB_GATEWAY_PORT" >"$RUN_DIR/public-url"

# Runs one part in the background, in its own session (so stop.sh can signal it alone), logging to a file.
launch() {
  local name="$1"
  shift
  if running "$name"; then
    log "$name already running (pid $(pid_of "$name"))"
    return 0
  fi
  setsid "$@" >>"$RUN_DIR/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN_DIR/pids/$name.pid"
  log "$name started (pid $!)"
}

# Waits until a command succeeds (up to $2 seconds), else shows the part's log and fails.
await() {
  local name="$1" seconds="$2"
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)) || ! running "$name"; then
      log "$name did not become ready; the end of $RUN_DIR/logs/$name.log:"
      tail -n 20 "$RUN_DIR/logs/$name.log" >&2 || true
      exit 1
    fi
    sleep 0.2
  done
}
ready() { [[ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" == 200 ]]; }

start_postgres() {
  if ! psql "$DATABASE_URL" -qAtc 'SELECT 1' >/dev/null 2>&1; then
    if [[ "$(id -u)" == 0 ]] && command -v pg_ctlcluster >/dev/null; then
      log "starting Debian's PostgreSQL cluster"
      pg_lsclusters -h | while read -r version cluster _; do pg_ctlcluster "$version" "$cluster" start || true; done
    fi
    local tries=0
    until psql "$DATABASE_URL" -qAtc 'SELECT 1' >/dev/null 2>&1 || ((++tries > 60)); do sleep 0.5; done
  fi
  if ! psql "$DATABASE_URL" -qAtc 'SELECT 1' >/dev/null 2>&1; then
    log "PostgreSQL does not answer at …@${DATABASE_URL##*@}; set DATABASE_URL or run sudo deploy/local/install-packages.sh"
    exit 1
  fi
  local db
  for db in "${DB_PREFIX}_gateway" "${DB_PREFIX}_payments"; do
    if [[ "$(psql "$DATABASE_URL" -qAtc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]]; then
      psql "$DATABASE_URL" -qAtc "CREATE DATABASE \"$db\"" >/dev/null
      log "created database $db"
    fi
  done
}

# The primary the sentinels agree on (host port), or nothing before they run.
current_primary() {
  local port
  for port in $SENTINEL_1_PORT $SENTINEL_2_PORT $SENTINEL_3_PORT; do
    redis-cli -p "$port" --raw SENTINEL get-master-addr-by-name "$REDIS_MASTER_NAME" 2>/dev/null |
      paste -sd' ' - | grep -E '^[0-9.]+ [0-9]+$' && return 0
  done
  return 0
}

start_redis() {
  local name="$1" port="$2" role_args=()
  mkdir -p "$RUN_DIR/$name"
  # A node restarted after a failover rejoins as a replica of whichever node the sentinels promoted.
  local primary
  primary="$(current_primary)"
  if [[ -n "$primary" && "$primary" != "127.0.0.1 $port" ]]; then
    role_args=(--replicaof ${primary})
  elif [[ -z "$primary" && "$name" == redis-replica ]]; then
    role_args=(--replicaof 127.0.0.1 "$REDIS_PRIMARY_PORT")
  fi
  launch "$name" redis-server --bind 127.0.0.1 --port "$port" --dir "$RUN_DIR/$name" \
    --save '' --appendonly no "${role_args[@]}"
  await "$name" 10 redis-cli -p "$port" PING
}

start_sentinel() {
  local name="$1" port="$2" conf="$RUN_DIR/$1/sentinel.conf"
  mkdir -p "$RUN_DIR/$name"
  # Sentinels rewrite their file with what they learn; write it only the first time.
  if [[ ! -f "$conf" ]]; then
    cat >"$conf" <<CONF
bind 127.0.0.1
port $port
dir $RUN_DIR/$name
sentinel monitor $REDIS_MASTER_NAME 127.0.0.1 $REDIS_PRIMARY_PORT 2
sentinel down-after-milliseconds $REDIS_MASTER_NAME 1000
sentinel failover-timeout $REDIS_MASTER_NAME 10000
sentinel parallel-syncs $REDIS_MASTER_NAME 1
CONF
  fi
  launch "$name" redis-server "$conf" --sentinel
  await "$name" 10 redis-cli -p "$port" PING
}

# Replicas start together (migrations are safe with several replicas starting at once); readiness is
# awaited before the next part that is not a replica (HAProxy, Prometheus) or at the end.
pending=()
start_toolgate() {
  local name="$1" service="$2" port="$3"
  mkdir -p "$RUN_DIR/$name"
  (
    toolgate_env
    if [[ "$service" == gateway ]]; then export TOOLGATE_GATEWAY_PORT="$port"; else export TOOLGATE_PAYMENTS_PORT="$port"; fi
    export TOOLGATE_DATA_DIR="$RUN_DIR/$name"
    launch "$name" node "$REPO_DIR/bin/toolgate.js" "$service"
  )
  pending+=("$name:$port")
}
await_replicas() {
  local item
  for item in "${pending[@]}"; do await "${item%%:*}" 90 ready "http://127.0.0.1:${item##*:}/readyz"; done
  pending=()
}

start_haproxy() {
  haproxy -c -q -f "$DEPLOY_DIR/haproxy/haproxy.cfg"
  launch haproxy haproxy -db -f "$DEPLOY_DIR/haproxy/haproxy.cfg"
  await haproxy 10 ready "http://127.0.0.1:$TG_HAPROXY_STATS_PORT/metrics"
}

start_prometheus() {
  # deploy/prometheus/prometheus.yml with this run's ports (offsets from 18000) and its rule files by path.
  perl -pe "s/127\\.0\\.0\\.1:18(\\d\\d\\d)/'127.0.0.1:'.($BASE+\$1)/ge; s#'(alerts[^']*\\.yml)'#'$DEPLOY_DIR/prometheus/\$1'#g" \
    "$DEPLOY_DIR/prometheus/prometheus.yml" >"$RUN_DIR/prometheus.yml"
  mkdir -p "$RUN_DIR/prometheus"
  launch prometheus prometheus --config.file="$RUN_DIR/prometheus.yml" \
    --storage.tsdb.path="$RUN_DIR/prometheus" --storage.tsdb.retention.time=2d \
    --web.listen-address="127.0.0.1:$PROMETHEUS_PORT"
  await prometheus 30 ready "http://127.0.0.1:$PROMETHEUS_PORT/-/ready"
}

start_part() {
  case "$1" in
    postgres) start_postgres ;;
    redis-primary) start_redis redis-primary "$REDIS_PRIMARY_PORT" ;;
    redis-replica) start_redis redis-replica "$REDIS_REPLICA_PORT" ;;
    sentinel-1) start_sentinel sentinel-1 "$SENTINEL_1_PORT" ;;
    sentinel-2) start_sentinel sentinel-2 "$SENTINEL_2_PORT" ;;
    sentinel-3) start_sentinel sentinel-3 "$SENTINEL_3_PORT" ;;
    payments-1) start_toolgate payments-1 payments "$TG_PAYMENTS_1_PORT" ;;
    payments-2) start_toolgate payments-2 payments "$TG_PAYMENTS_2_PORT" ;;
    gateway-1) start_toolgate gateway-1 gateway "$TG_GATEWAY_1_PORT" ;;
    gateway-2) start_toolgate gateway-2 gateway "$TG_GATEWAY_2_PORT" ;;
    gateway-3) start_toolgate gateway-3 gateway "$TG_GATEWAY_3_PORT" ;;
    haproxy) start_haproxy ;;
    prometheus) start_prometheus ;;
    *)
      log "unknown part $1 (one of: ${ALL_COMPONENTS[*]})"
      exit 2
      ;;
  esac
}

parts=("$@")
((${#parts[@]})) || parts=("${ALL_COMPONENTS[@]}")
for part in "${parts[@]}"; do
  [[ "$part" == gateway-* || "$part" == payments-* ]] || await_replicas
  start_part "$part"
done
await_replicas

if (($# == 0)); then
  cat >&2 <<SUMMARY

Reference deployment running (run folder $RUN_DIR):
  MCP endpoint (HAProxy)   http://127.0.0.1:$TG_LB_GATEWAY_PORT/mcp
  payments (HAProxy)       http://127.0.0.1:$TG_LB_PAYMENTS_PORT
  HAProxy stats/metrics    http://127.0.0.1:$TG_HAPROXY_STATS_PORT/stats  /metrics
  gateways                 127.0.0.1:$TG_GATEWAY_1_PORT $TG_GATEWAY_2_PORT $TG_GATEWAY_3_PORT
  payment service          127.0.0.1:$TG_PAYMENTS_1_PORT $TG_PAYMENTS_2_PORT
  Redis primary / replica  127.0.0.1:$REDIS_PRIMARY_PORT / $REDIS_REPLICA_PORT (sentinels $SENTINEL_1_PORT $SENTINEL_2_PORT $SENTINEL_3_PORT, master name $REDIS_MASTER_NAME)
  Prometheus               http://127.0.0.1:$PROMETHEUS_PORT
  PostgreSQL               ${DB_PREFIX}_gateway, ${DB_PREFIX}_payments on …@${DATABASE_URL##*@}
Try it:
  KEY=\$(deploy/local/toolgate.sh keys create --app try --env production --json | jq -r .primaryKey)
  TOKEN=\$(node deploy/local/mint-token.mjs alice)
Stop: deploy/local/stop.sh
SUMMARY
fi
