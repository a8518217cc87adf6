# Shared by start.sh, stop.sh and toolgate.sh: where things are and which ports they use.
# Sourced, not run. Every value can be overridden from the environment.
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEPLOY_DIR="$REPO_DIR/deploy"
RUN_DIR="${TOOLGATE_DEPLOY_RUN_DIR:-$DEPLOY_DIR/.run}"
BASE="${TOOLGATE_DEPLOY_BASE_PORT:-18000}"
DB_PREFIX="${TOOLGATE_DEPLOY_DB_PREFIX:-toolgate_deploy}"

export TG_RUN_DIR="$RUN_DIR"
export TG_BIND=127.0.0.1
export TG_LB_GATEWAY_PORT=$((BASE + 80))
export TG_LB_PAYMENTS_PORT=$((BASE + 81))
export TG_HAPROXY_STATS_PORT=$((BASE + 82))
export TG_GATEWAY_1_PORT=$((BASE + 90))
export TG_GATEWAY_2_PORT=$((BASE + 91))
export TG_GATEWAY_3_PORT=$((BASE + 92))
export TG_PAYMENTS_1_PORT=$((BASE + 95))
export TG_PAYMENTS_2_PORT=$((BASE + 96))
REDIS_PRIMARY_PORT=$((BASE + 379))
REDIS_REPLICA_PORT=$((BASE + 380))
SENTINEL_1_PORT=$((BASE + 389))
SENTINEL_2_PORT=$((BASE + 390))
SENTINEL_3_PORT=$((BASE + 391))
PROMETHEUS_PORT=$((BASE + 490))
REDIS_MASTER_NAME=toolgate

ALL_COMPONENTS=(postgres redis-primary redis-replica sentinel-1 sentinel-2 sentinel-3
  payments-1 payments-2 gateway-1 gateway-2 gateway-3 haproxy prometheus)

pid_of() { cat "$RUN_DIR/pids/$1.pid" 2>/dev/null || true; }
running() {
  local pid
  pid="$(pid_of "$1")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null
}
log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# The URL of a database next to the one DATABASE_URL names (same server and credentials).
database_url_for() {
  local base="${DATABASE_URL%%\?*}"
  printf '%s/%s' "${base%/*}" "$1"
}

# The environment every toolgate process of the deployment runs with (secrets read from the run folder).
toolgate_env() {
  local secrets="$RUN_DIR/secrets"
  export TOOLGATE_CONFIG="$DEPLOY_DIR/local/toolgate.yaml"
  export TOOLGATE_DEPLOY_PUBLIC_URL="http://127.0.0.1:$TG_LB_GATEWAY_PORT"
  export TOOLGATE_DEPLOY_PAYMENTS_URL="http://127.0.0.1:$TG_LB_PAYMENTS_PORT"
  export TOOLGATE_DEPLOY_GATEWAY_DATABASE_URL="$(database_url_for "${DB_PREFIX}_gateway")"
  export TOOLGATE_DEPLOY_PAYMENTS_DATABASE_URL="$(database_url_for "${DB_PREFIX}_payments")"
  # Through the sentinels: the gateways follow whichever node they promote.
  local sentinels="127.0.0.1:$SENTINEL_1_PORT,127.0.0.1:$SENTINEL_2_PORT,127.0.0.1:$SENTINEL_3_PORT"
  export TOOLGATE_DEPLOY_REDIS_URL="${TOOLGATE_DEPLOY_REDIS_URL:-redis+sentinel://$sentinels/$REDIS_MASTER_NAME}"
  export TOOLGATE_DEPLOY_KEY_PEPPER="$(cat "$secrets/key-pepper")"
  export TOOLGATE_DEPLOY_REQUEST_STATE_SECRET="$(cat "$secrets/request-state-secret")"
  export TOOLGATE_DEPLOY_IDENTITY_SECRET="$(cat "$secrets/identity-secret")"
  export TOOLGATE_DEPLOY_JWT_PUBLIC_PEM="$(cat "$secrets/jwt-public.pem")"
  # The file says where the databases and Redis are; these would override it.
  unset DATABASE_URL REDIS_URL TOOLGATE_DATA_DIR TOOLGATE_GATEWAY_PORT TOOLGATE_PAYMENTS_PORT
}

# PostgreSQL the deployment uses: $DATABASE_URL, else the role install-packages.sh created, else the
# machine's postgres superuser over loopback.
# Called again by start.sh after it installed the packages (install-packages.sh may have created the role).
DATABASE_URL_GIVEN="${DATABASE_URL:+yes}"
choose_database_url() {
  [[ -n "$DATABASE_URL_GIVEN" ]] && return 0
  unset DATABASE_URL
  if [[ -f "$RUN_DIR/postgres.env" ]]; then
    # shellcheck source=/dev/null
    source "$RUN_DIR/postgres.env"
  fi
  export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
}
choose_database_url
