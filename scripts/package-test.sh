#!/usr/bin/env bash
# Tests the Debian package (scripts/package.sh). Anyone: its control data and file
# list are checked (dpkg-deb --info/--field/--contents, desktop-file-validate).
# As root (CI): it is installed with apt-get, which brings its Depends from
# Debian; `wisp version` and the desktop smoke test run from /usr/bin/wisp; then it
# is removed and every file it brought must be gone. Not root: the install part is
# skipped, and says so.
# Usage: scripts/package-test.sh [package.deb]   (default: the one in build/package)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "package-test: $*"; }
fail() {
  echo "package-test: FAIL: $*" >&2
  exit 1
}

if [ $# -ge 1 ]; then
  deb=$1
else
  debs=(build/package/wisp_*.deb)
  [ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one package in build/package (make package), found: ${debs[*]}"
  deb=${debs[0]}
fi
deb=$(realpath "$deb")
x=$(mktemp -d) # the package, extracted
we_installed=""
cleanup() { # leaves the machine as the test found it, even after a failure
  rm -rf "$x"
  if [ -n "$we_installed" ] && installed; then apt-get remove -y -q wisp >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
files=(/usr/bin/wisp /usr/share/applications/wisp.desktop /usr/share/icons/hicolor/512x512/apps/wisp.png)

# --- The control data and the file list -----------------------------------------
lint() {
  local field version contents extra
  dpkg-deb --info "$deb" >/dev/null || fail "dpkg-deb cannot read $deb"
  field() { dpkg-deb --field "$deb" "$1"; }
  [ "$(field Package)" = wisp ] || fail "Package is '$(field Package)', not wisp"
  version=$(field Version)
  dpkg --validate-version "$version" || fail "Version '$version' is not a Debian version"
  [ "$(basename "$deb")" = "wisp_${version}_$(field Architecture).deb" ] || fail "$(basename "$deb") does not match its Version and Architecture"
  [ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture is '$(field Architecture)'"
  for f in Maintainer Installed-Size Section Priority Description Depends; do
    [ -n "$(field "$f")" ] || fail "no $f field"
  done
  [[ $(field Installed-Size) =~ ^[0-9]+$ ]] || fail "Installed-Size '$(field Installed-Size)' is not a number of KiB"
  # The libraries the window needs, each from a package apt knows.
  local depends
  depends=$(field Depends | tr ',' '\n')
  for p in libwebkit2gtk-4.1-0 libgtk-3-0 libsoup-3.0-0 libc6; do
    grep -qE "^ *$p( |\$)" <<<"$depends" || fail "Depends lacks $p: $(field Depends)"
  done
  for p in $(sed -E 's/^ *([^ ]+).*/\1/' <<<"$depends"); do
    apt-cache show --no-all-versions "$p" >/dev/null 2>&1 || fail "Depends names $p, which apt does not know"
  done
  # The files, their owners and modes: nothing but these, all root's.
  contents=$(dpkg-deb --contents "$deb")
  awk '$2 != "root/root" { bad = 1; print "not root/root: " $0 } END { exit bad }' <<<"$contents" >&2 || fail "files not owned by root"
  grep -qE '^-rwxr-xr-x .* \./usr/bin/wisp$' <<<"$contents" || fail "no executable ./usr/bin/wisp (mode 0755)"
  for f in "${files[@]:1}"; do
    grep -qE "^-rw-r--r-- .* \\.${f//./\\.}\$" <<<"$contents" || fail "no .$f (mode 0644)"
  done
  extra=$(awk '$1 ~ /^-/ { print $NF }' <<<"$contents" | grep -vxF -e ./usr/bin/wisp -e ".${files[1]}" -e ".${files[2]}" || true)
  [ -z "$extra" ] || fail "unexpected files: $extra"
  awk '$1 ~ /^d/ && $1 != "drwxr-xr-x" { bad = 1; print "directory mode: " $0 } END { exit bad }' <<<"$contents" >&2 || fail "directory modes"
  # What is in them: a valid desktop entry that runs wisp, a 512x512 PNG, the desktop build.
  dpkg-deb --extract "$deb" "$x"
  desktop-file-validate "$x/usr/share/applications/wisp.desktop" || fail "the desktop entry does not validate"
  grep -qx 'Exec=wisp' "$x/usr/share/applications/wisp.desktop" || fail "the desktop entry does not run wisp"
  grep -qx 'Icon=wisp' "$x/usr/share/applications/wisp.desktop" || fail "the desktop entry's icon is not wisp"
  [ "$(identify -format '%m %wx%h' "$x/usr/share/icons/hicolor/512x512/apps/wisp.png")" = "PNG 512x512" ] || fail "the icon is not a 512x512 PNG"
  local needed # (no grep -q in a pipe: with pipefail, objdump's SIGPIPE would fail it)
  needed=$(objdump -p "$x/usr/bin/wisp")
  grep -q 'NEEDED *libwebkit2gtk-4.1.so.0' <<<"$needed" || fail "/usr/bin/wisp is not the desktop build"
  say "lint ok: wisp $version, Depends: $(field Depends)"
}

# --- Installed, run and removed (root) -------------------------------------------
installed() { dpkg-query -W -f='${db:Status-Status}' wisp 2>/dev/null | grep -qx installed; }

install_it() {
  export DEBIAN_FRONTEND=noninteractive
  # --no-remove: installing Wisp must not take anything else away.
  we_installed=1
  if ! apt-get install -y -q --no-remove "$deb"; then
    say "apt-get install failed; reading the package lists again and retrying once"
    apt-get update -qq
    apt-get install -y -q --no-remove "$deb" || fail "apt-get install $deb"
  fi
  installed || fail "wisp is not installed after apt-get install"
}

run_it() {
  local out
  [ "$(command -v wisp)" = /usr/bin/wisp ] || fail "wisp on PATH is '$(command -v wisp)', not /usr/bin/wisp"
  for f in "${files[@]}"; do [ -f "$f" ] || fail "$f was not installed"; done
  dpkg --verify wisp || fail "the installed files differ from the package's md5sums"
  out=$(ldd /usr/bin/wisp)
  ! grep 'not found' <<<"$out" || fail "libraries missing after the install"
  out=$(/usr/bin/wisp version) || fail "wisp version failed"
  [[ $out =~ ^wisp\ [0-9A-Za-z.+~-]+$ ]] || fail "wisp version printed '$out'"
  say "$out"
  WISP_SMOKE_SHOT=artifacts/desktop-installed.png scripts/desktop-smoke.sh /usr/bin/wisp || fail "the desktop smoke test of /usr/bin/wisp"
}

remove_it() {
  apt-get remove -y -q wisp || fail "apt-get remove wisp"
  ! installed || fail "wisp is still installed after apt-get remove"
  for f in "${files[@]}"; do [ ! -e "$f" ] || fail "$f is still there after the removal"; done
}

lint
if [ "$(id -u)" -ne 0 ]; then
  say "SKIPPED the install test (install, run from /usr/bin, remove): it needs root, and you are $(id -un)." \
    "CI runs it as root; to run it here: sudo scripts/package-test.sh"
  exit 0
fi
installed && fail "a wisp package is installed already; remove it first (apt-get remove wisp): this test installs and removes its own"
install_it
run_it
remove_it
say "ok: installed with its dependencies, ran from /usr/bin/wisp (version, desktop smoke test), removed"
