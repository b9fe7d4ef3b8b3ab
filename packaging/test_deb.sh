#!/usr/bin/env bash
# Install the built .deb with apt, check what it put where, run the installed app's self-test, remove it.
#
#   packaging/test_deb.sh [dist/mcp-lens_VERSION_ARCH.deb]    # default: the newest one in dist/
#
# Needs root (or sudo) and apt. Leaves the system as it found it: the package is purged at the end,
# also when a check fails.
set -euo pipefail

# shellcheck source=scripts/lib.sh disable=SC1091
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$REPO_ROOT"

DEB="${1:-$(find dist -maxdepth 1 -name 'mcp-lens_*.deb' -printf '%T@ %p\n' 2>/dev/null | sort -rn | head -n1 | cut -d' ' -f2)}"
if [ -z "$DEB" ] || [ ! -f "$DEB" ]; then die "no .deb: run packaging/build.sh first (or pass the .deb's path)"; fi
DEB="$(cd "$(dirname "$DEB")" && pwd)/$(basename "$DEB")"
if pkg_installed mcp-lens; then
    die "mcp-lens is already installed with apt/dpkg; remove it first (apt-get purge mcp-lens)"
fi

cleanup() {
    step "Remove the package"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq mcp-lens >/dev/null 2>&1 || true
    if [ -e /opt/mcp-lens ] || [ -e /usr/bin/mcp-lens ] || [ -e /usr/share/applications/mcp-lens.desktop ]; then
        warn "files left behind after apt-get purge"
        exit 1
    fi
    info "removed: /opt/mcp-lens, /usr/bin/mcp-lens and the desktop entry are gone"
}
trap cleanup EXIT

step "apt-get install $DEB"
dpkg-deb --field "$DEB" Package Version Architecture Installed-Size | sed 's/^/    /'
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$DEB" >/dev/null
pkg_installed mcp-lens || die "apt-get install did not install mcp-lens"
info "installed $(dpkg-query -W -f='${Package} ${Version}' mcp-lens)"

step "Files"
for path in /opt/mcp-lens/mcp-lens /usr/bin/mcp-lens /usr/share/applications/mcp-lens.desktop \
    /usr/share/icons/hicolor/scalable/apps/mcp-lens.svg /usr/share/icons/hicolor/48x48/apps/mcp-lens.png; do
    [ -e "$path" ] || die "missing after install: $path"
    info "ok $path"
done
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate /usr/share/applications/mcp-lens.desktop
    info "desktop-file-validate: ok"
fi

home="$(mktemp -d)"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && getent passwd nobody >/dev/null; then
    # As a user would run it: not root, so Chromium's sandbox stays on and WebEngine must start with it.
    step "mcp-lens --self-test (installed, as user nobody: Chromium's sandbox on; no Python on PATH)"
    chown nobody "$home"
    setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups \
        env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 mcp-lens --self-test
else
    step "mcp-lens --self-test (installed, clean environment, no Python on PATH)"
    # A test run as root passes QTWEBENGINE_DISABLE_SANDBOX=1 on (Chromium refuses its sandbox as root);
    # this script never sets it.
    sandbox=()
    [ -z "${QTWEBENGINE_DISABLE_SANDBOX:-}" ] || sandbox=("QTWEBENGINE_DISABLE_SANDBOX=$QTWEBENGINE_DISABLE_SANDBOX")
    env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 "${sandbox[@]}" mcp-lens --self-test
fi

step "mcp-lens --cli against the demo server"
env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 \
    mcp-lens --cli /opt/mcp-lens/mcp-lens --demo-server --method tools/list >/tmp/mcp-lens-deb-tools.json
info "tools/list: $(grep -o '"name"' /tmp/mcp-lens-deb-tools.json | wc -l) names"
rm -f /tmp/mcp-lens-deb-tools.json
rm -rf "$home"
