#!/usr/bin/env bash
# Builds the Debian package of the desktop build: build/package/wisp_<version>_<arch>.deb
# with the binary in /usr/bin, the .desktop file in /usr/share/applications and the
# icon in /usr/share/icons/hicolor/512x512/apps. Depends come from dpkg-shlibdeps
# (the libraries the binary links against: WebKitGTK 4.1, GTK 3, libsoup 3, GLib,
# libc). Built with `dpkg-deb --root-owner-group`: no root or fakeroot needed.
# Usage: scripts/package.sh [binary [out-dir]]
# Environment: DEB_VERSION (default scripts/deb-version.sh), DEB_MAINTAINER.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin/wisp}
out=${2:-build/package}
[ -x "$bin" ] || { echo "package: $bin not built (make build)" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || { echo "package: $tool is missing (apt-get install dpkg-dev)" >&2; exit 1; }
done

version=${DEB_VERSION:-$(scripts/deb-version.sh)}
dpkg --validate-version "$version" || { echo "package: '$version' is not a Debian version" >&2; exit 1; }
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-Wisp maintainers <maintainers@wispapp.invalid>}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The layout dpkg-shlibdeps expects: debian/control, and the package's tree in debian/wisp.
root=$work/debian/wisp
install -D -m 0755 "$bin" "$root/usr/bin/wisp"
install -D -m 0644 build/linux/wisp.desktop "$root/usr/share/applications/wisp.desktop"
install -D -m 0644 build/appicon.png "$root/usr/share/icons/hicolor/512x512/apps/wisp.png"

mkdir -p "$root/DEBIAN" # dpkg-shlibdeps finds the package's root by it
printf 'Source: wisp\n\nPackage: wisp\nArchitecture: any\n' >"$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O debian/wisp/usr/bin/wisp)
depends=${shlibs#shlibs:Depends=}
case "$depends" in
  *libwebkit2gtk-4.1-0*) ;;
  *) echo "package: $bin does not link WebKitGTK 4.1 (Depends: $depends); package the desktop build" >&2; exit 1 ;;
esac
rm "$work/debian/control"

(cd "$root" && find usr -type f -exec md5sum {} + | sort -k2) >"$root/DEBIAN/md5sums"
cat >"$root/DEBIAN/control" <<EOF
Package: wisp
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --apparent-size "$root/usr" | cut -f1)
Depends: $depends
Recommends: xdg-utils, pipewire-bin | pulseaudio-utils | alsa-utils
Section: utils
Priority: optional
Homepage: https://github.com/wispapp/wisp
Description: fast, light desktop assistant
 Wisp is a desktop assistant you run on your own machine: one binary with a
 native window (WebKitGTK), a local API and a small web UI. It chats through
 the model provider you choose, runs shell commands only with your approval,
 and keeps every conversation in a local SQLite database.
 .
 Run "wisp" for the window, or "wisp serve" to serve the same UI to a browser.
EOF
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +

mkdir -p "$out"
deb=$out/wisp_${version}_${arch}.deb
rm -f "$out"/wisp_*.deb
dpkg-deb --build --root-owner-group -Zxz "$root" "$deb" >/dev/null
echo "package: $deb"
echo "package: Depends: $depends"
