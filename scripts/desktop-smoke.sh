#!/usr/bin/env bash
# Desktop smoke test: runs the real Wails build in a virtual X display, waits until
# the page inside the window reports that it reached the API and the socket and
# painted (painted=true in its "ui ready" log line), then takes screenshots of the
# window until one is not blank and saves it; then closes the window the way a user
# does and expects exit 0. A second round ends it with SIGTERM instead.
# Usage: scripts/desktop-smoke.sh [binary]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin/wisp}
[ -x "$bin" ] || { echo "smoke: $bin not built (make build)" >&2; exit 1; }
mkdir -p artifacts

if [ -z "${WISP_SMOKE_IN_X:-}" ]; then
  exec env WISP_SMOKE_IN_X=1 xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$bin"
fi

READY='msg="ui ready" api=true ws=true painted=true origin=wails://wails'
# A screenshot whose most common colour covers more than this share of it is blank.
BLANK_PERCENT=97
# WebKitGTK can take a few seconds after the page reports before Xvfb has its pixels.
SHOT_DEADLINE=30

window_id() { # the largest window named Wisp, or nothing
  /usr/bin/python3 scripts/x11-window.py id Wisp 2>/dev/null
}

dominant() { # dominant PNG: "PERCENT COLOUR" of its most common colour
  local total
  total=$(identify -format '%[fx:w*h]' "$1")
  convert "$1" -format %c histogram:info:- | awk -v total="$total" '
    { n = $1; sub(":", "", n); if (n + 0 > max) { max = n + 0; colour = ($0 ~ /#[0-9A-Fa-f]+/) ? substr($0, match($0, /#[0-9A-Fa-f]+/), RLENGTH) : "?" } }
    END { if (total > 0) printf "%.2f %s\n", 100 * max / total, colour; else print "100 none" }'
}

screenshot() { # screenshot NAME PID LOG OUT: the window, once it is not blank, to OUT
  local name=$1 pid=$2 log=$3 out=$4
  local tmp=$out.tmp.png deadline=$((SECONDS + SHOT_DEADLINE)) wid="" share colour tries=0
  while :; do
    tries=$((tries + 1))
    share=100 colour=none
    [ -n "$wid" ] || wid=$(window_id || true)
    if [ -z "$wid" ]; then
      : # not mapped yet
    elif ! import -window "$wid" "$tmp" 2>/dev/null; then
      wid="" # gone or replaced: look it up again
    else
      read -r share colour < <(dominant "$tmp" || echo "100 unreadable") || true
      if awk -v s="$share" -v max="$BLANK_PERCENT" 'BEGIN { exit !(s <= max) }'; then
        mv "$tmp" "$out"
        echo "smoke[$name]: screenshot $out (window $wid, try $tries; most common colour $colour covers $share%)"
        return 0
      fi
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      [ -f "$tmp" ] && mv "$tmp" "${out%.png}-blank.png"
      cat "$log"
      echo "smoke[$name]: the window was still blank ${SHOT_DEADLINE} s after the page reported it painted" \
        "(window '${wid:-none}', $tries attempts; the last screenshot's most common colour $colour covers $share% of it," \
        "over $BLANK_PERCENT%; saved as ${out%.png}-blank.png)" >&2
      kill "$pid"
      exit 1
    fi
    sleep 0.5
  done
}

round() { # round NAME HOW(close|term) SCREENSHOT
  local name=$1 how=$2 shot=${3:-}
  local state log pid code
  state=$(mktemp -d)
  log=$state/wisp.log
  WISP_STATE_DIR=$state WISP_API_TOKEN= "$bin" --port 0 >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do
    grep -qF "$READY" "$log" && break
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "smoke[$name]: wisp exited before the page reported in" >&2; exit 1; }
    sleep 0.5
  done
  grep -qF "$READY" "$log" || {
    cat "$log"
    echo "smoke[$name]: the page never reported that it reached the API and the socket and painted ($READY)" >&2
    kill "$pid"
    exit 1
  }
  if [ -n "$shot" ]; then
    screenshot "$name" "$pid" "$log" "$shot"
  fi
  ask() {
    if [ "$how" = close ]; then /usr/bin/python3 scripts/x11-window.py close Wisp || true; else kill -TERM "$pid"; fi
  }
  gone() { # wait up to 15 s for the process to end
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.25; done
    return 1
  }
  code=0
  ask
  if ! gone; then
    # Wails v2 quits GTK from a goroutine (gtk_main_quit off the main thread), which can
    # very rarely miss; a user would click again. Say so loudly, then ask once more.
    echo "smoke[$name]: WARNING: still running 15 s after $how; asking again" >&2
    ask
    if ! gone; then
      cat "$log"; echo "smoke[$name]: still running after a second $how" >&2; kill -KILL "$pid"; exit 1
    fi
  fi
  wait "$pid" || code=$?
  if [ "$code" -ne 0 ] || ! grep -q 'msg="wisp stopped"' "$log"; then
    cat "$log"; echo "smoke[$name]: exit code $code, or no clean stop" >&2; exit 1
  fi
  rm -rf "$state"
  echo "smoke[$name]: ok (the page reached the API and /ws and painted; $how → exit 0)"
}

rm -f artifacts/desktop.png artifacts/desktop-blank.png
round window-close close artifacts/desktop.png
round sigterm term
echo "smoke: 2 passed, 0 failed"
