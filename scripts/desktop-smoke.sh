#!/usr/bin/env bash
# Desktop smoke test: runs the real Wails build in a virtual X display, waits until
# the page inside the window reports that it reached the API and the socket and
# painted (painted=true in its "ui ready" log line), then takes screenshots of the
# window until one is not blank and saves it; then closes the window the way a user
# does and expects exit 0. A second round ends it with SIGTERM instead. A third, on a
# session bus of its own, launches Wisp again on the same state folder while the window
# is hidden: that launch must bring the window back and end, and `wisp serve` there must
# be refused naming the first one's URL. A fourth, on a session bus with a stand-in
# notification server (tools/fakenotifyd), hides the window and sets a reminder: the
# reminder must show a desktop notification, and its click must bring the window back
# on that conversation. A fifth uploads the VRM fixture and sets the speech server to the fake
# one (runtime/llm/llmtest/fakellm) with "speak replies" on: the window must report that it
# shows the VRM character and, after a click in it (XTEST: WebKit lets a page's sound start
# after a gesture of the user's) and a reminder, that it spoke the reminder through WebKit's
# audio (GStreamer's ALSA sink into ALSA's null device: CI has no sound card); then a click
# on the hands-free switch must turn Wisp's own capture on (WISP_MIC_FILE: a WAV made by the
# e2e tests' generator), and what it heard must be transcribed by the fake server and sent
# (voice.autoSend: the user's message is found by search); then a screenshot of the window with the character, checked not blank
# (WISP_SMOKE_VOICE_SHOT, default artifacts/desktop-voice.png; WISP_SMOKE_VOICE=1 runs
# this round alone).
# Usage: scripts/desktop-smoke.sh [binary]   (WISP_SMOKE_SHOT: where the screenshot goes,
# default artifacts/desktop.png)
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

await_ready() { # await_ready NAME PID LOG: until the page reports it reached the API and /ws and painted
  local name=$1 pid=$2 log=$3
  for _ in $(seq 1 120); do
    grep -qsF "$READY" "$log" && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "smoke[$name]: wisp exited before the page reported in" >&2; exit 1; }
    sleep 0.5
  done
  cat "$log"
  echo "smoke[$name]: the page never reported that it reached the API and the socket and painted ($READY)" >&2
  kill "$pid"
  exit 1
}

round() { # round NAME HOW(close|term) SCREENSHOT
  local name=$1 how=$2 shot=${3:-}
  local state log pid code
  state=$(mktemp -d)
  log=$state/wisp.log
  WISP_STATE_DIR=$state WISP_API_TOKEN= "$bin" --port 0 >"$log" 2>&1 &
  pid=$!
  await_ready "$name" "$pid" "$log"
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

window_state_is() { # window_state_is NAME PID LOG STATE: waits up to 15 s for the window's state
  local name=$1 pid=$2 log=$3 want=$4
  for _ in $(seq 1 60); do
    [ "$(/usr/bin/python3 scripts/x11-window.py state Wisp 2>/dev/null)" = "$want" ] && return 0
    sleep 0.25
  done
  cat "$log"; echo "smoke[$name]: the window never became $want" >&2; kill "$pid"; exit 1
}

handover() { # run on a session bus: a second launch on the folder shows the first window
  local name=second-launch state log pid code
  state=$(mktemp -d)
  log=$state/wisp.log
  WISP_STATE_DIR=$state WISP_API_TOKEN= "$bin" --port 0 >"$log" 2>&1 &
  pid=$!
  await_ready "$name" "$pid" "$log"
  /usr/bin/python3 scripts/x11-window.py hide Wisp
  window_state_is "$name" "$pid" "$log" unmapped
  code=0
  WISP_STATE_DIR=$state WISP_API_TOKEN= timeout 60 "$bin" --port 0 >"$state/second.log" 2>&1 || code=$?
  if [ "$code" -ne 0 ] || ! grep -q 'its window was asked to come forward' "$state/second.log"; then
    cat "$log" "$state/second.log"; echo "smoke[$name]: the second launch exited $code without handing over" >&2; kill "$pid"; exit 1
  fi
  window_state_is "$name" "$pid" "$log" viewable
  grep -q 'msg="Wisp launched again: showing its window"' "$log" || {
    cat "$log"; echo "smoke[$name]: the first Wisp did not log the second launch" >&2; kill "$pid"; exit 1
  }
  code=0
  WISP_STATE_DIR=$state WISP_API_TOKEN= timeout 60 "$bin" serve --port 0 >"$state/serve.log" 2>&1 || code=$?
  if [ "$code" -ne 1 ] || ! grep -q "another Wisp is already running on this state folder (http://127.0.0.1:[0-9]*, pid $pid)" "$state/serve.log"; then
    cat "$state/serve.log"; echo "smoke[$name]: wisp serve on the same folder exited $code, not refused naming the first" >&2; kill "$pid"; exit 1
  fi
  kill -TERM "$pid"
  code=0
  wait "$pid" || code=$?
  if [ "$code" -ne 0 ] || ! grep -q 'msg="wisp stopped"' "$log"; then
    cat "$log"; echo "smoke[$name]: exit code $code, or no clean stop" >&2; exit 1
  fi
  rm -rf "$state"
  echo "smoke[$name]: ok (the second launch brought the hidden window back and ended; wisp serve was refused)"
}

api() { # api URL TOKEN METHOD PATH [JSON]: the JSON answer of a call to Wisp's API
  /usr/bin/python3 - "$@" <<'PY'
import json, sys, urllib.request
url, token, method, path = sys.argv[1:5]
body = sys.argv[5].encode() if len(sys.argv) > 5 else None
req = urllib.request.Request(url + path, data=body, method=method,
                             headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
with urllib.request.urlopen(req, timeout=10) as res:
    print(res.read().decode())
PY
}

json_field() { # json_field EXPR: evaluates EXPR on the JSON read from stdin (as j)
  /usr/bin/python3 -c "import json, sys; j = json.load(sys.stdin); print($1)"
}

notification() { # run on a session bus: a reminder while the window is hidden notifies; its click opens it
  local name=notification state log pid code token=smoke-notify url conv at notifyd unread=""
  state=$(mktemp -d)
  log=$state/wisp.log
  go build -o "$state/fakenotifyd" ./tools/fakenotifyd
  "$state/fakenotifyd" >"$state/notifyd.log" 2>&1 &
  notifyd=$!
  for _ in $(seq 1 60); do grep -qs 'fakenotifyd ready' "$state/notifyd.log" && break; sleep 0.25; done
  grep -qs 'fakenotifyd ready' "$state/notifyd.log" || { cat "$state/notifyd.log"; echo "smoke[$name]: no notification server" >&2; exit 1; }
  WISP_STATE_DIR=$state WISP_API_TOKEN=$token "$bin" --port 0 >"$log" 2>&1 &
  pid=$!
  await_ready "$name" "$pid" "$log"
  url=$(grep -o 'msg="wisp started" url=http://[0-9.:]*' "$log" | sed 's/.*url=//')
  conv=$(api "$url" "$token" POST /api/conversations '{"title":"Smoke"}' | json_field 'j["conversation"]["id"]')
  /usr/bin/python3 scripts/x11-window.py hide Wisp
  window_state_is "$name" "$pid" "$log" unmapped
  at=$(/usr/bin/python3 -c 'import datetime as d; print((d.datetime.now(d.timezone.utc) + d.timedelta(seconds=1)).isoformat())')
  api "$url" "$token" POST /api/reminders "{\"conversationId\":\"$conv\",\"text\":\"smoke reminder\",\"at\":\"$at\"}" >/dev/null
  # Once Wisp has the notification's id (its Notify call returned), the user clicks it.
  for _ in $(seq 1 120); do grep -qs 'msg="desktop notification shown"' "$log" && break; sleep 0.25; done
  kill -USR1 "$notifyd"
  for _ in $(seq 1 120); do grep -qs '^clicked ' "$state/notifyd.log" && break; sleep 0.25; done
  if ! grep -q '^notify .*"summary":"Reminder from Wisp".*smoke reminder' "$state/notifyd.log" ||
    ! grep -q "^notify .*$conv" "$state/notifyd.log" || ! grep -q '^clicked ' "$state/notifyd.log"; then
    cat "$log" "$state/notifyd.log"; echo "smoke[$name]: no desktop notification for the reminder, or no click" >&2; kill "$pid" "$notifyd"; exit 1
  fi
  window_state_is "$name" "$pid" "$log" viewable
  # The page opened the conversation: its unread mark is gone.
  for _ in $(seq 1 60); do
    unread=$(api "$url" "$token" GET /api/conversations | json_field "[c['unread'] for c in j['conversations'] if c['id'] == '$conv'][0]")
    [ "$unread" = False ] && break
    sleep 0.25
  done
  if [ "$unread" != False ] || ! grep -q "msg=\"desktop notification clicked\" conversation=$conv" "$log"; then
    cat "$log"; echo "smoke[$name]: the click did not open the conversation (unread: $unread)" >&2; kill "$pid" "$notifyd"; exit 1
  fi
  kill -TERM "$pid"
  code=0
  wait "$pid" || code=$?
  kill "$notifyd"
  if [ "$code" -ne 0 ] || ! grep -q 'msg="wisp stopped"' "$log"; then
    cat "$log"; echo "smoke[$name]: exit code $code, or no clean stop" >&2; exit 1
  fi
  rm -rf "$state"
  echo "smoke[$name]: ok (a reminder while hidden notified through D-Bus; the click showed the window on its conversation)"
}

upload() { # upload URL TOKEN PATH FILE: POSTs FILE's bytes as an upload (X-Wisp-Upload), prints the answer
  /usr/bin/python3 - "$@" <<'PY'
import sys, urllib.request
url, token, path, file = sys.argv[1:5]
with open(file, "rb") as f:
    body = f.read()
req = urllib.request.Request(url + path, data=body, method="POST", headers={
    "Authorization": "Bearer " + token, "Content-Type": "model/gltf-binary", "X-Wisp-Upload": "1"})
with urllib.request.urlopen(req, timeout=30) as res:
    print(res.read().decode())
PY
}

await_log() { # await_log NAME PID LOG PATTERN WHAT: waits up to 60 s for a line of the log
  local name=$1 pid=$2 log=$3 pattern=$4 what=$5
  for _ in $(seq 1 240); do
    grep -qsE "$pattern" "$log" && return 0
    sleep 0.25
  done
  cat "$log"; echo "smoke[$name]: $what (no line matching $pattern in 60 s)" >&2; kill "$pid"; exit 1
}

voice() { # the window shows the user's VRM character and speaks a reminder aloud
  local name=voice state log pid code token=smoke-voice url llm llmurl conv at hits shot=${WISP_SMOKE_VOICE_SHOT:-artifacts/desktop-voice.png}
  state=$(mktemp -d)
  log=$state/wisp.log
  go build -o "$state/fakellm" ./runtime/llm/llmtest/fakellm
  "$state/fakellm" >"$state/llm.log" 2>&1 &
  llm=$!
  for _ in $(seq 1 60); do grep -qs 'listening on' "$state/llm.log" && break; sleep 0.25; done
  llmurl=$(grep -o 'http://[0-9.:]*' "$state/llm.log" | head -1)
  [ -n "$llmurl" ] || { cat "$state/llm.log"; echo "smoke[$name]: no fake speech server" >&2; exit 1; }
  # CI has no sound card: WebKit plays through GStreamer's ALSA sink (gstreamer1.0-alsa)
  # into ALSA's null device, named the default by a home of this round's own.
  mkdir -p "$state/home"
  printf 'pcm.!default { type null }\n' >"$state/home/.asoundrc"
  # The microphone: Wisp's own capture (WebKitGTK has no getUserMedia) plays a WAV made
  # by the e2e tests' generator as if it were spoken.
  node frontend/e2e/fixtures/makeSpeechWav.mjs "$state/speech.wav" >/dev/null
  WISP_MIC_FILE=$state/speech.wav WISP_PROVIDER=openai WISP_BASE_URL=$llmurl/v1 WISP_MODEL=fake \
    GST_PLUGIN_FEATURE_RANK=pulsesink:NONE GST_DEBUG=${GST_DEBUG:-1} HOME=$state/home WISP_STATE_DIR=$state WISP_API_TOKEN=$token "$bin" --port 0 >"$log" 2>&1 &
  pid=$!
  await_ready "$name" "$pid" "$log"
  url=$(grep -o 'msg="wisp started" url=http://[0-9.:]*' "$log" | sed 's/.*url=//')
  api "$url" "$token" PUT /api/config "{\"voice\":{\"tts\":{\"baseURL\":\"$llmurl/v1\"},\"stt\":{\"baseURL\":\"$llmurl/v1\"},\"speakReplies\":true,\"autoSend\":true}}" >/dev/null
  upload "$url" "$token" "/api/avatar?name=wisp-test.vrm" frontend/e2e/fixtures/wisp-test.vrm >/dev/null
  # Every window loads the new character (avatar-changed); the page reports what it shows.
  await_log "$name" "$pid" "$log" 'msg="ui report" event=avatar-loaded detail=vrm' "the window did not show the VRM character"
  # A user who has clicked in the window once (WebKit lets a page's sound start after a
  # gesture of the user's): a click on the character.
  /usr/bin/python3 scripts/x11-window.py click Wisp 1030 200
  conv=$(api "$url" "$token" POST /api/conversations '{"title":"Smoke"}' | json_field 'j["conversation"]["id"]')
  at=$(/usr/bin/python3 -c 'import datetime as d; print((d.datetime.now(d.timezone.utc) + d.timedelta(seconds=1)).isoformat())')
  api "$url" "$token" POST /api/reminders "{\"conversationId\":\"$conv\",\"text\":\"Time to stretch. Stand up for a minute.\",\"at\":\"$at\"}" >/dev/null
  # The desktop window speaks what Wisp says on its own: the clauses were fetched,
  # decoded and played through WebKit's audio, and the page says so once they ended.
  await_log "$name" "$pid" "$log" 'msg="ui report" event=speech-(played|failed)' "the window did not speak the reminder"
  if ! grep -q 'msg="ui report" event=speech-played detail="1 clause"' "$log" || grep -q 'event=speech-failed' "$log"; then
    cat "$log"; echo "smoke[$name]: the window could not play the speech" >&2; kill "$pid" "$llm"; exit 1
  fi
  # Listening, hands-free: the switch beside the mic button turns Wisp's capture on; its
  # voice detector ends the utterance by itself, the fake transcription server answers, and
  # the transcript is sent (voice.autoSend): the user's message is then in the history.
  /usr/bin/python3 scripts/x11-window.py click Wisp 362 767
  await_log "$name" "$pid" "$log" 'msg="microphone on" source="file [^"]*" mode=hands-free' "the hands-free switch did not turn the microphone on"
  hits=0
  for _ in $(seq 1 120); do
    hits=$(api "$url" "$token" GET '/api/search?q=weather' | json_field "len([r for r in j['results'] if r['role'] == 'user'])")
    [ "$hits" -gt 0 ] && break
    sleep 0.25
  done
  if [ "$hits" -eq 0 ]; then
    cat "$log"; echo "smoke[$name]: what the microphone heard was not transcribed and sent" >&2; kill "$pid" "$llm"; exit 1
  fi
  grep -E 'msg="ui report"|msg="microphone' "$log" | sed "s/^/smoke[$name]: /"
  rm -f "$shot" "${shot%.png}-blank.png"
  screenshot "$name" "$pid" "$log" "$shot"
  kill -TERM "$pid"
  code=0
  wait "$pid" || code=$?
  kill "$llm"
  if [ "$code" -ne 0 ] || ! grep -q 'msg="wisp stopped"' "$log"; then
    cat "$log"; echo "smoke[$name]: exit code $code, or no clean stop" >&2; exit 1
  fi
  rm -rf "$state"
  echo "smoke[$name]: ok (the window showed the uploaded VRM character, spoke a reminder through WebKit's audio, and sent what Wisp's own capture heard hands-free)"
}

if [ -n "${WISP_SMOKE_VOICE:-}" ]; then # this round alone
  voice
  exit 0
fi
if [ -n "${WISP_SMOKE_HANDOVER:-}" ]; then
  handover
  exit 0
fi
if [ -n "${WISP_SMOKE_NOTIFY:-}" ]; then
  notification
  exit 0
fi

shot=${WISP_SMOKE_SHOT:-artifacts/desktop.png}
rm -f "$shot" "${shot%.png}-blank.png"
round window-close close "$shot"
round sigterm term
# Wails' single-instance lock speaks D-Bus: that round gets a session bus of its own.
WISP_SMOKE_HANDOVER=1 dbus-run-session -- "$0" "$bin"
# So does the desktop's notifications': a bus with a stand-in notification server.
WISP_SMOKE_NOTIFY=1 dbus-run-session -- "$0" "$bin"
voice
echo "smoke: 5 passed, 0 failed"
