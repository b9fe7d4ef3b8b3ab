"""Python 3.12+ or one clear line: `mcp-lens` on an older Python, and the set-up scripts without a 3.12.

PySide6 6.12 on Python < 3.12 aborts with "Fatal Python error: none_dealloc" after some tens of
thousands of `None` reads through a proxy model. `python3.11 -m inspector` must say so and stop before
anything imports PySide6; scripts/lib.sh's finder must stop with the same reason and the ways out when
only a 3.11 is visible, and use uv (`uv python install 3.12`) when uv is there. Nothing is downloaded:
pip runs with no index, and the uv here is a stand-in script that logs what it is asked.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lens_support import REPO

LIB = REPO / "scripts" / "lib.sh"
WAYS_OUT = (".deb", "tarball", "uv", "pyenv install 3.12", "none_dealloc")


def _version_of(exe: str) -> tuple[tuple[int, int], str] | None:
    """(major, minor) and the real executable of a Python command, or None when it doesn't run."""
    try:
        done = subprocess.run(
            [exe, "-c", "import sys; print('%d %d %s' % (sys.version_info[:2] + (sys.executable,)))"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except OSError:
        return None
    if done.returncode != 0 or not done.stdout.strip():
        return None
    major, minor, real = done.stdout.split(maxsplit=2)
    return (int(major), int(minor)), real.strip()


def _old_pythons() -> list[str]:
    """Real executables of the Pythons older than 3.12 (3.6+) here, the stock python3 first."""
    names = ["python3", "/usr/bin/python3", *(f"python3.{minor}" for minor in range(11, 5, -1))]
    names += sorted(str(p) for p in (Path.home() / ".pyenv" / "versions").glob("3.*/bin/python3"))
    found: dict[str, None] = {}
    for name in names:
        exe = shutil.which(name)
        got = _version_of(exe) if exe else None
        if got and (3, 6) <= got[0] < (3, 12):
            found.setdefault(os.path.realpath(got[1]))
    return list(found)


OLD_PYTHONS = _old_pythons()
needs_old_python = pytest.mark.skipif(not OLD_PYTHONS, reason="no Python older than 3.12 on this machine")


def _assert_one_clear_line(stderr: str) -> None:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "needs Python 3.12+" in lines[0]
    for way in WAYS_OUT:
        assert way in lines[0], (way, lines[0])


@needs_old_python
@pytest.mark.parametrize("argv", [[], ["--cli", "list-tools"], ["--demo-server"], ["tokens"]], ids=repr)
def test_stock_python3_says_why_and_stops(argv: list[str], tmp_path: Path) -> None:
    old = OLD_PYTHONS[0]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(
        [old, "-m", "inspector", *argv], cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1, done
    assert done.stdout == ""
    _assert_one_clear_line(done.stderr)
    version = _version_of(old)
    assert version is not None
    assert f"this is {version[0][0]}.{version[0][1]} (" in done.stderr


@needs_old_python
@pytest.mark.parametrize("old", OLD_PYTHONS or ["none"])
def test_every_old_python_parses_the_check(old: str) -> None:
    """inspector/__main__.py stays valid syntax on old Pythons, or they would crash on a SyntaxError."""
    done = subprocess.run(
        [old, "-m", "inspector", "--help"], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1, done
    _assert_one_clear_line(done.stderr)


@pytest.fixture(scope="module")
def only_old_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PATH folder with the system's tools, `python3` pointing at an old Python, and no 3.12, uv,
    pyenv or apt-get."""
    if not OLD_PYTHONS:
        pytest.skip("no Python older than 3.12 on this machine")
    folder = tmp_path_factory.mktemp("bin")
    hidden = re.compile(r"python3?|python3\.(1[2-9]|[2-9]\d)\b.*|uvx?|pyenv|apt-get")
    for system_dir in ("/usr/local/bin", "/usr/bin", "/bin"):
        if not os.path.isdir(system_dir):
            continue
        for name in os.listdir(system_dir):
            link = folder / name
            if not hidden.fullmatch(name) and not link.exists():
                link.symlink_to(os.path.join(system_dir, name))
    (folder / "python3").symlink_to(OLD_PYTHONS[0])
    assert _version_of(str(folder / "python3")) is not None
    return folder


def _env(path: str, home: Path, **extra: str) -> dict[str, str]:
    """A minimal environment: this PATH, an empty HOME and pyenv root, pip that cannot download."""
    (home / "empty-pyenv").mkdir(parents=True, exist_ok=True)
    return {
        "PATH": path,
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "PYENV_ROOT": str(home / "empty-pyenv"),
        "MCP_LENS_SKIP_APT": "1",
        "PIP_NO_INDEX": "1",
        "PIP_CONFIG_FILE": os.devnull,
        "UV_PYTHON_DOWNLOADS": "never",
        "LANG": "C.UTF-8",
        **extra,
    }


def _find_python312(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", 'source "$1" && find_python312', "bash", str(LIB)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _assert_scripts_stop(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode != 0, done
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, done.stderr
    assert "no Python 3.12 found" in errors[0]
    assert "needs Python 3.12+" in errors[0]
    for way in (*WAYS_OUT, "PYTHON=/path/to/python3.12"):
        assert way in errors[0], (way, errors[0])


def test_finder_with_only_an_old_python_stops_with_the_ways_out(only_old_bin: Path, tmp_path: Path) -> None:
    """No 3.12, no uv: it tries to install uv with pip (offline here), then says why and what to do."""
    done = _find_python312(_env(str(only_old_bin), tmp_path))
    _assert_scripts_stop(done)
    assert done.stdout == ""
    assert "could not install uv with pip" in done.stderr
    assert not (tmp_path / ".cache" / "mcp-lens" / "uv-venv").exists()  # nothing half-made left behind


FAKE_UV = """#!/bin/bash
# Stand-in for uv: logs its arguments; `python install 3.12` "installs" $FAKE_UV_PYTHON unless
# FAKE_UV_OFFLINE is set, after which `python find … 3.12` prints it.
echo "$*" >>"$FAKE_UV_LOG"
case "$1 $2" in
"--version ") echo "uv 0.0.0 (stand-in)" ;;
"python find")
    [ -e "$FAKE_UV_LOG.installed" ] || { echo "error: No interpreter found for Python 3.12" >&2; exit 2; }
    echo "$FAKE_UV_PYTHON" ;;
"python install")
    if [ -n "${FAKE_UV_OFFLINE:-}" ]; then
        printf 'error: Failed to install cpython-3.12\\n  cause: dns error\\n' >&2
        printf '  cause: failed to lookup address information: Name or service not known\\n' >&2
        exit 1
    fi
    touch "$FAKE_UV_LOG.installed"
    echo "Installed Python 3.12 (stand-in)" >&2 ;;
*) exit 2 ;;
esac
"""


@pytest.fixture
def fake_uv(only_old_bin: Path, tmp_path: Path) -> tuple[str, Path]:
    """PATH with the old Python and a stand-in uv; the log of the uv commands run."""
    folder = tmp_path / "uv-bin"
    folder.mkdir()
    uv = folder / "uv"
    uv.write_text(FAKE_UV)
    uv.chmod(0o755)
    return f"{folder}:{only_old_bin}", tmp_path / "uv.log"


def test_finder_runs_uv_python_install_and_uses_it(fake_uv: tuple[str, Path], tmp_path: Path) -> None:
    path, log = fake_uv
    python312 = os.path.realpath(sys.executable)  # the suite runs on 3.12: stands for uv's download
    env = _env(path, tmp_path / "home", FAKE_UV_LOG=str(log), FAKE_UV_PYTHON=python312)
    done = _find_python312(env)
    assert done.returncode == 0, done
    assert done.stdout.strip() == python312
    calls = log.read_text().splitlines()
    assert "python install 3.12" in calls
    finds = [call for call in calls if call.startswith("python find")]
    assert finds and all("--python-preference only-managed" in call and "--system" in call for call in finds)


def test_finder_when_uv_cannot_download_stops_with_the_ways_out(fake_uv: tuple[str, Path], tmp_path: Path) -> None:
    path, log = fake_uv
    env = _env(path, tmp_path / "home", FAKE_UV_LOG=str(log), FAKE_UV_PYTHON="/nonexistent", FAKE_UV_OFFLINE="1")
    done = _find_python312(env)
    _assert_scripts_stop(done)
    assert "uv python install 3.12 failed: failed to lookup address information" in done.stderr
    assert "python install 3.12" in log.read_text().splitlines()
    assert "installing uv with pip" not in done.stderr  # the uv that is there is the one used


@pytest.mark.parametrize("script", ["run-app", "test"])
def test_scripts_stop_before_making_a_venv(script: str, fake_uv: tuple[str, Path], tmp_path: Path) -> None:
    """scripts/run-app and scripts/test where the only Python is old and uv cannot download (a copy
    of the scripts in a checkout without .venv): the clear message, a non-zero exit, no .venv."""
    path, log = fake_uv
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    for name in ("lib.sh", script):
        shutil.copy2(REPO / "scripts" / name, checkout / "scripts" / name)
    (checkout / "pyproject.toml").write_text('[project]\nname = "mcp-lens"\n')
    env = _env(path, tmp_path / "home", FAKE_UV_LOG=str(log), FAKE_UV_PYTHON="/nonexistent", FAKE_UV_OFFLINE="1")
    done = subprocess.run(
        ["bash", str(checkout / "scripts" / script)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    _assert_scripts_stop(done)
    assert not (checkout / ".venv").exists()
