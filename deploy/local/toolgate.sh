#!/usr/bin/env bash
# Runs a toolgate management command against the reference deployment (its configuration, databases and
# secrets), e.g.: deploy/local/toolgate.sh keys create --app try --env production --json
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
toolgate_env
export TOOLGATE_DATA_DIR="$RUN_DIR/cli"
mkdir -p "$TOOLGATE_DATA_DIR"
exec node "$REPO_DIR/bin/toolgate.js" "$@"
