#!/usr/bin/env bash
# Prints the Debian package version of this checkout, made from `git describe`:
#   v1.2.3                  → 1.2.3
#   v1.2.3-rc.1             → 1.2.3~rc.1           (a pre-release sorts before its release)
#   v1.2.3-4-gabc1234       → 1.2.3+4.gabc1234     (4 commits after the tag)
#   abc1234 (no v* tag)     → 0~N.gabc1234         (N: the commit count, so newer builds sort higher)
#   … with -dirty           → …+dirty, or ….dirty after a "+" part
# Usage: scripts/deb-version.sh [DESCRIBE COUNT]   (both from git when left out)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ge 1 ]; then
  describe=$1 count=${2:-0}
elif ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "0~dev" # not a git checkout (a source archive): the lowest version there is
  exit 0
else
  describe=$(git describe --tags --match 'v[0-9]*' --always --dirty --abbrev=7)
  count=$(git rev-list --count HEAD)
fi

dirty=""
if [[ $describe == *-dirty ]]; then
  dirty=1
  describe=${describe%-dirty}
fi

if [[ $describe =~ ^v([0-9][0-9A-Za-z.~-]*)-([0-9]+)-g([0-9a-f]+)$ ]]; then
  version="${BASH_REMATCH[1]//-/\~}+${BASH_REMATCH[2]}.g${BASH_REMATCH[3]}"
elif [[ $describe =~ ^v([0-9][0-9A-Za-z.~-]*)$ ]]; then
  version=${BASH_REMATCH[1]//-/\~}
elif [[ $describe =~ ^[0-9a-f]{4,40}$ ]]; then
  version="0~${count}.g${describe}"
else
  echo "deb-version: cannot make a Debian version of '$describe' (tags must look like v1.2.3)" >&2
  exit 1
fi

if [ -n "$dirty" ]; then
  if [[ $version == *+* ]]; then version+=".dirty"; else version+="+dirty"; fi
fi
echo "$version"
