#!/usr/bin/env bash
# Checks that `make dev` (wails dev) comes up: in a virtual X display and on a state folder of
# its own, it waits until the page inside the dev window reports that it reached the API and
# the socket (the app's "ui ready" log line, origin wails://wails), then rewrites a stylesheet
# with the same bytes and waits for Vite to send the change to that page (its "hmr update"
# line: the window's page is the one Vite serves), then stops wails dev, Vite and the app.
# Not part of `make test`: the first run compiles a debug build of everything (minutes on
# two cores); later runs take seconds.
# Usage: scripts/wails-dev-check.sh   (WISP_DEV_DEADLINE: seconds to wait for each step,
# default 1200)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${WISP_DEV_IN_X:-}" ]; then
  exec env WISP_DEV_IN_X=1 xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$@"
fi

limit=${WISP_DEV_DEADLINE:-1200}
state=$(mktemp -d)
log=$state/dev.log
touched=frontend/src/styles/tokens.css

# A session of its own (setsid execs in place, so $! is its id and its process group), so that
# one signal reaches make, the Wails CLI, Vite and the app.
WISP_STATE_DIR=$state WISP_PORT=0 setsid make --no-print-directory dev >"$log" 2>&1 &
pid=$!

stop() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  local until=$((SECONDS + 20))
  while kill -0 -- "-$pid" 2>/dev/null && [ $SECONDS -lt $until ]; do sleep 0.2; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -rf "$state"
}
trap stop EXIT

wait_for() { # wait_for PATTERN WHAT: until the log has PATTERN
  local until=$((SECONDS + limit))
  until grep -q -- "$1" "$log"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "dev-check: make dev ended before $2" >&2
      tail -40 "$log" >&2
      exit 1
    fi
    if [ $SECONDS -ge $until ]; then
      echo "dev-check: no $2 after ${limit}s" >&2
      tail -40 "$log" >&2
      exit 1
    fi
    sleep 1
  done
}

start=$SECONDS
wait_for 'msg="ui ready" api=true ws=true' "page in the dev window"
echo "dev-check: the dev window's page is up after $((SECONDS - start))s"

cp "$touched" "$state/touched.css"
cat "$state/touched.css" >"$touched"
wait_for 'hmr update' "update from Vite after rewriting $touched"
echo "dev-check: Vite sent the page the rewritten $touched"
echo "dev-check: ok"
