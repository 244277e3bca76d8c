#!/usr/bin/env bash
# Installs what building and testing Wisp needs on Debian/Ubuntu, and nothing twice:
# Debian packages (C toolchain, GTK/WebKit 4.1, Xvfb, D-Bus for the single-instance
# test, ImageMagick, Chromium), the frontend's npm packages (npm ci, skipped while
# package-lock.json is unchanged) and the Go modules.
# Usage: scripts/deps.sh [build|test|bench]  ("build" skips test-only tools; "bench"
# adds what the benchmarks compare against).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-test}

# dpkg-dev: dpkg-shlibdeps, for the Depends of the package (make package).
build_pkgs=(gcc libc6-dev pkg-config libwebkit2gtk-4.1-dev dpkg-dev)
# desktop-file-utils: desktop-file-validate, for the package test. curl: the confinement
# tests play an agent that calls Wisp's API with it.
# gstreamer1.0-alsa: the desktop smoke test's window plays speech into ALSA's null device.
test_pkgs=(xvfb xauth dbus imagemagick chromium python3-xlib fonts-dejavu-core desktop-file-utils curl gstreamer1.0-alsa)
# poppler-utils: pdftotext, the floor of bench/pdftext.
bench_pkgs=(poppler-utils)
pkgs=("${build_pkgs[@]}")
[ "$mode" = test ] && pkgs+=("${test_pkgs[@]}")
[ "$mode" = bench ] && pkgs+=("${bench_pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

need() { command -v "$1" >/dev/null || { echo "deps: $1 is required: $2" >&2; exit 1; }; }
need go "install Go 1.25 or newer from https://go.dev/dl/ (older Go 1.21+ fetches the right toolchain itself)"
need node "install Node.js 20.19 or newer (https://nodejs.org or NodeSource packages)"
need npm "install npm (comes with Node.js)"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || { echo "deps: Node.js 20.19 or newer is required (found $(node --version))" >&2; exit 1; }

stamp=frontend/node_modules/.wisp-lock.sha256
want=$(sha256sum frontend/package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "deps: npm ci"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi

go mod download
