#!/usr/bin/env bash
# Stops the reference deployment (or only the named parts): SIGTERM, so the services drain, then SIGKILL
# for anything still running after 20 s. The databases, the run folder's secrets and logs are kept
# (rm -rf deploy/.run to forget the keys; drop the toolgate_deploy_* databases to forget the data).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

parts=("$@")
if ((${#parts[@]} == 0)); then
  # Front to back: nothing new arrives while the services behind drain.
  parts=(prometheus haproxy gateway-1 gateway-2 gateway-3 payments-1 payments-2
    sentinel-1 sentinel-2 sentinel-3 redis-replica redis-primary)
fi
stopping=()
for part in "${parts[@]}"; do
  [[ "$part" == postgres ]] && continue
  if running "$part"; then
    kill -TERM "$(pid_of "$part")"
    stopping+=("$part")
  else
    rm -f "$RUN_DIR/pids/$part.pid"
  fi
done
deadline=$((SECONDS + 20))
for part in "${stopping[@]}"; do
  while running "$part" && ((SECONDS < deadline)); do sleep 0.1; done
  if running "$part"; then
    log "$part did not stop within 20 s; killing it"
    kill -KILL "$(pid_of "$part")" || true
  fi
  rm -f "$RUN_DIR/pids/$part.pid"
  log "$part stopped"
done
