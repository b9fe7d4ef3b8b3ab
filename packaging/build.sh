#!/usr/bin/env bash
# Build the bundled app (PyInstaller one-folder), the tarball and the .deb.
#
#   packaging/build.sh                 # everything → dist/
#   SKIP_SELF_TEST=1 packaging/build.sh
#   FORCE=1 packaging/build.sh         # rebuild even when dist/ is up to date
#   PYTHON=/path/to/python packaging/build.sh   # default: .venv/bin/python
#
# Outputs (VERSION from inspector.__version__):
#   dist/mcp-lens/                                 the one-folder app (run dist/mcp-lens/mcp-lens)
#   dist/mcp-lens-VERSION-linux-x86_64.tar.gz      that folder, packed
#   dist/mcp-lens_VERSION_amd64.deb                /opt/mcp-lens, /usr/bin/mcp-lens, /usr/share/…
# Needs: pip install -e '.[packaging]' (PyInstaller), dpkg-deb. Works offline.
set -euo pipefail

# shellcheck source=scripts/lib.sh disable=SC1091
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$REPO_ROOT"

PY="${PYTHON:-$VENV/bin/python}"
[ -x "$PY" ] || die "no Python at $PY: run scripts/test once (it creates .venv), or set PYTHON"
"$PY" -c 'import PyInstaller' 2>/dev/null || die "PyInstaller is missing: $PY -m pip install -e '.[packaging]'"
"$PY" -c 'import PySide6.QtWebEngineCore' 2>/dev/null ||
    die "PySide6-WebEngine is missing (the bundle carries the App view): $PY -m pip install -e '.[apps,packaging]'"
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (Debian/Ubuntu: apt-get install dpkg)"

VERSION="$("$PY" -c 'import inspector; print(inspector.__version__)')"
ARCH="$(dpkg --print-architecture 2>/dev/null || echo amd64)"
MACHINE="$(uname -m)"
DIST="$REPO_ROOT/dist"
WORK="$REPO_ROOT/build"
ICONS="$WORK/icons"
TARBALL="$DIST/mcp-lens-$VERSION-linux-$MACHINE.tar.gz"
DEB="$DIST/mcp-lens_${VERSION}_$ARCH.deb"
STAMP="$DIST/.built-from"
started=$SECONDS

# What dist/ is built from: every file the bundle takes (sources, resources, the spec and this script)
# and the installed Python packages. When dist/ was built from exactly these, it is kept (a warm run);
# the bundle's self-test runs either way.
inputs_hash() {
    {
        find inspector resources packaging pyproject.toml setup.py -type f -not -path '*/__pycache__/*' -print0 |
            sort -z | xargs -0 sha256sum
        "$PY" -m pip freeze --all 2>/dev/null
    } | sha256sum | cut -d' ' -f1
}

self_test() {
    [ "${SKIP_SELF_TEST:-0}" != 1 ] || return 0
    step "Self-test of the bundle (no Python on PATH, no PYTHONPATH)"
    # A test run as root passes QTWEBENGINE_DISABLE_SANDBOX=1 on (Chromium refuses its sandbox as root);
    # this script never sets it.
    local sandbox=()
    [ -z "${QTWEBENGINE_DISABLE_SANDBOX:-}" ] || sandbox=("QTWEBENGINE_DISABLE_SANDBOX=$QTWEBENGINE_DISABLE_SANDBOX")
    env -i HOME="$(mktemp -d)" PATH=/usr/bin:/bin LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "${sandbox[@]}" \
        "$DIST/mcp-lens/mcp-lens" --self-test
}

INPUTS="$(inputs_hash)"
if [ "${FORCE:-0}" != 1 ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$INPUTS" ] &&
    [ -x "$DIST/mcp-lens/mcp-lens" ] && [ -f "$TARBALL" ] && [ -f "$DEB" ]; then
    step "dist/ is up to date (built from these sources and packages; FORCE=1 rebuilds)"
    self_test
    ls -la "$DIST"
    exit 0
fi
rm -f "$STAMP"

step "Icons from the SVG (packaging/make_icons.py)"
"$PY" packaging/make_icons.py "$ICONS"

step "PyInstaller one-folder bundle (packaging/mcp-lens.spec)"
rm -rf "$DIST/mcp-lens"
"$PY" -m PyInstaller --noconfirm --log-level WARN --distpath "$DIST" --workpath "$WORK/pyinstaller" \
    packaging/mcp-lens.spec
info "dist/mcp-lens: $(du -sh "$DIST/mcp-lens" | cut -f1)"

self_test

step ".deb (dpkg-deb), and the tarball beside it"
ROOT="$WORK/deb/mcp-lens_${VERSION}_$ARCH"
rm -rf "$ROOT"
mkdir -p "$ROOT/DEBIAN" "$ROOT/opt" "$ROOT/usr/bin" "$ROOT/usr/share/applications" \
    "$ROOT/usr/share/icons/hicolor/scalable/apps" "$ROOT/usr/share/doc/mcp-lens"
# Hard links, not a copy of ~480 MB; made before tar starts (a new link changes a file's ctime, and tar
# fails on a file that changes while it reads it).
cp -al "$DIST/mcp-lens" "$ROOT/opt/mcp-lens" 2>/dev/null || cp -a "$DIST/mcp-lens" "$ROOT/opt/mcp-lens"
# gzip is single-threaded and the slowest step (~30 s): it runs while the .deb is made.
rm -f "$TARBALL"
tar -C "$DIST" -czf "$TARBALL.part" mcp-lens &
TAR_PID=$!
cat >"$ROOT/usr/bin/mcp-lens" <<'SH'
#!/bin/sh
exec /opt/mcp-lens/mcp-lens "$@"
SH
chmod 0755 "$ROOT/usr/bin/mcp-lens"
install -m 0644 resources/mcp-lens.desktop "$ROOT/usr/share/applications/mcp-lens.desktop"
install -m 0644 resources/icons/mcp-lens.svg "$ROOT/usr/share/icons/hicolor/scalable/apps/mcp-lens.svg"
for png in "$ICONS"/png/mcp-lens-*.png; do
    size="$(basename "$png" .png)"
    size="${size##*-}"
    [ "$size" -le 512 ] || continue # hicolor stops at 512x512
    install -D -m 0644 "$png" "$ROOT/usr/share/icons/hicolor/${size}x${size}/apps/mcp-lens.png"
done
cat >"$ROOT/usr/share/doc/mcp-lens/copyright" <<EOF
MCP Lens $VERSION — a desktop inspector and debugger for Model Context Protocol servers.
License: MIT. The bundle in /opt/mcp-lens also contains Python, Qt (LGPLv3, via PySide6) and the
Python packages MCP Lens depends on, each under its own license.
EOF

# Dependencies: the system libraries Qt loads (scripts/lib.sh keeps the list), minus tools used only
# by the tests. "a|b" there becomes "a | b" here.
depends=()
for spec in "${QT_SYSTEM_PACKAGES[@]}"; do
    [ "$spec" != desktop-file-utils ] || continue
    depends+=("${spec//|/ | }")
done
DEPENDS="$(printf '%s, ' "${depends[@]}")"
DEPENDS="${DEPENDS%, }"
INSTALLED_SIZE="$(du -sk --exclude=DEBIAN "$ROOT" | cut -f1)"
cat >"$ROOT/DEBIAN/control" <<EOF
Package: mcp-lens
Version: $VERSION
Section: devel
Priority: optional
Architecture: $ARCH
Maintainer: MCP Lens developers <mcp-lens@localhost>
Installed-Size: $INSTALLED_SIZE
Depends: $DEPENDS
Homepage: https://modelcontextprotocol.io
Description: desktop inspector and debugger for MCP servers
 MCP Lens connects to a Model Context Protocol server (a local command over
 stdio, or a URL over Streamable HTTP or SSE) and shows the exact JSON-RPC
 traffic, a form for every tool, rendered results (text, images, audio,
 resources, structured output) and what the tool list costs in a model's
 context window. It also has a headless CLI (mcp-lens --cli).
 .
 This package is a self-contained build: it brings its own Python and Qt.
EOF
# zstd: ~5 s where gzip -9 took ~110 s for the same folder, and smaller. dpkg reads it from Debian 12 (1.21.18)
# and Ubuntu 21.10 on; older releases cannot run the bundle anyway (PySide6 6.12's Qt needs glibc 2.34).
dpkg-deb --root-owner-group -Zzstd --build "$ROOT" "$DEB" >/dev/null
info "$(basename "$DEB"): $(du -h "$DEB" | cut -f1), installed size $((INSTALLED_SIZE / 1024)) MB"

wait "$TAR_PID" || die "tar of $DIST/mcp-lens failed"
mv "$TARBALL.part" "$TARBALL"
info "$(basename "$TARBALL"): $(du -h "$TARBALL" | cut -f1)"

echo "$INPUTS" >"$STAMP"
step "Done in $((SECONDS - started)) s"
ls -la "$DIST"
