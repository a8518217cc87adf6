#!/usr/bin/env bash
# Installs what the reference deployment runs on from the Debian archive (run as root, once):
#   sudo deploy/local/install-packages.sh
# haproxy, prometheus, redis-server, postgresql (+ curl, used by start.sh). When PostgreSQL is new, starts
# its cluster and creates a login role for the deployment with a generated password, kept in
# deploy/.run/postgres.env (mode 0600), which start.sh reads when DATABASE_URL is not set.
set -euo pipefail
if [[ "$(id -u)" != 0 ]]; then
  echo "run as root: sudo $0" >&2
  exit 1
fi
RUN_DIR="${TOOLGATE_DEPLOY_RUN_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.run}"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends haproxy prometheus redis-server postgresql postgresql-client curl ca-certificates

# Debian starts the packaged services (system haproxy, prometheus, redis on their default ports); the
# deployment runs its own processes on other ports, so those are left as they are.
pg_lsclusters -h | while read -r version cluster _; do pg_ctlcluster "$version" "$cluster" start 2>/dev/null || true; done

mkdir -p "$RUN_DIR"
if [[ ! -f "$RUN_DIR/postgres.env" ]] && ! psql postgres://postgres@127.0.0.1:5432/postgres -qAtc 'SELECT 1' >/dev/null 2>&1; then
  password="$(head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
  su postgres -c "psql -qAt" <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'toolgate_deploy') THEN
    CREATE ROLE toolgate_deploy LOGIN CREATEDB;
  END IF;
END \$\$;
ALTER ROLE toolgate_deploy PASSWORD '$password';
SQL
  umask 077
  printf 'DATABASE_URL=postgres://toolgate_deploy:%s@127.0.0.1:5432/postgres\n' "$password" >"$RUN_DIR/postgres.env"
  echo "PostgreSQL role toolgate_deploy created; its URL is in $RUN_DIR/postgres.env"
fi
if [[ -n "${SUDO_USER:-}" ]]; then chown -R "$SUDO_USER" "$RUN_DIR"; fi
echo "Debian packages installed. Start the deployment: npm run deploy:start"
