"""Build the sdist and the wheel from a clean checkout, install the wheel into a fresh venv, run
``mcp-lens --self-test`` from it.

What is real: the sdist and wheel come from ``python -m build`` run on a clean copy of the checkout
(the files git tracks, as they are in the working tree: nothing untracked or ignored, so no ``build/``,
``*.egg-info`` or stray files can stand in for what the repository holds), and the wheel is built
*from the sdist*, so a file missing from the sdist fails here. The top-level ``resources/`` must come
out as ``resources/…`` in the sdist and ``inspector/resources/…`` in the wheel. The wheel is installed
by pip into a new venv, so the ``mcp-lens`` script, the package and its resources are the wheel's own;
the test runs that script and the tokenizers with the source tree off ``sys.path`` and checks that
``inspector`` and the resources are read from the new venv.
What is borrowed, to stay fast and offline: the dependencies. Downloading PySide6 & co. (~300 MB)
per run is too slow, so the new venv gets a ``.pth`` line pointing at the project venv's
site-packages (appended after its own, so the wheel's files win), and ``pip check`` confirms that
every requirement in the wheel's metadata is met by what is found there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
from lens_support import REPO

import inspector

pytestmark = pytest.mark.slow

# Each shipped resource file, under resources/ in the repository and the sdist, under
# inspector/resources/ in the wheel (the top-level folder mapped into the package).
RESOURCES = (
    "mcp-lens.desktop",
    "icons/mcp-lens.svg",
    "tokenizers/o200k_base.tiktoken.gz",
    "tokenizers/cl100k_base.tiktoken.gz",
)
TOKENIZER_CHECK = """
from inspector.budget.tokenizers import get_tokenizer
from inspector.resource_files import resource_dir
print(resource_dir())
print(get_tokenizer("o200k_base").encode("hello world"), get_tokenizer("cl100k_base").encode("hello world"))
"""


def run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{argv}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def clean_copy(dest: Path) -> Path:
    """Copy the files git tracks (as they are in the working tree) to `dest`: a checkout without the
    untracked and ignored files a developer's tree collects. A tracked file deleted here is left out."""
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout: nothing tells the tracked files from the rest")
    listed = run(["git", "-C", str(REPO), "ls-files", "-z"]).stdout.split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    pytest.importorskip("build", reason="python -m build is missing: pip install -e '.[test]'")
    checkout = clean_copy(tmp_path_factory.mktemp("checkout"))
    assert not (checkout / "inspector" / "resources").exists()
    out = tmp_path_factory.mktemp("dist")
    # --no-isolation: use this venv's setuptools instead of downloading one; -x: don't insist on `wheel`.
    run([sys.executable, "-m", "build", "--no-isolation", "-x", "--outdir", str(out), str(checkout)])
    (sdist,) = out.glob("mcp_lens-*.tar.gz")
    (wheel,) = out.glob("mcp_lens-*.whl")
    return sdist, wheel


def test_sdist_and_wheel_carry_the_resources(built: tuple[Path, Path]) -> None:
    sdist, wheel = built
    version = inspector.__version__
    assert wheel.name == f"mcp_lens-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = zf.read(f"mcp_lens-{version}.dist-info/METADATA").decode()
        entry_points = zf.read(f"mcp_lens-{version}.dist-info/entry_points.txt").decode()
        in_wheel = {name: zf.read(f"inspector/resources/{name}") for name in RESOURCES}
    with tarfile.open(sdist) as tf:
        sdist_names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
        in_sdist = {name: tf.extractfile(f"mcp_lens-{version}/resources/{name}").read() for name in RESOURCES}  # type: ignore[union-attr]
    for name in RESOURCES:
        shipped = (REPO / "resources" / name).read_bytes()
        assert in_wheel[name] == shipped and in_sdist[name] == shipped, name
    assert not any(n.startswith("resources/") for n in names), "resources/ must be mapped into inspector/"
    assert not any(n.startswith("inspector/resources/") for n in sdist_names), "the sdist keeps the repository layout"
    assert f"Version: {version}" in metadata
    assert "License-Expression: MIT" in metadata
    assert "Classifier: Environment :: X11 Applications :: Qt" in metadata
    assert "Keywords: " in metadata and "Project-URL: " in metadata
    assert "mcp-lens = inspector.__main__:main" in entry_points
    assert not any(n.startswith("tests/") for n in names)


def test_wheel_in_a_fresh_venv_passes_the_self_test(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, wheel = built
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)])
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (site / "zz-project-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run([sys.executable, "-m", "pip", "--python", str(python), "check"])

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "QT_QPA_PLATFORM", "VIRTUAL_ENV")}
    env |= {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "d")}
    where = run([str(python), "-c", "import inspector; print(inspector.__file__)"], env=env, cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout

    script = venv / "bin" / "mcp-lens"
    done = run([str(script), "--self-test"], env=env, cwd=tmp_path)
    assert done.stdout.splitlines()[-1].startswith("self-test: all steps passed"), done.stdout
    assert f"python: {python}" in done.stdout  # the demo server ran on the new venv's interpreter
    assert "icon set" in done.stdout  # the SVG icon came from the wheel

    # The tokenizers read their rank files from the installed wheel, offline.
    checked = run([str(python), "-c", TOKENIZER_CHECK], env=env, cwd=tmp_path).stdout.splitlines()
    assert Path(checked[0]) == site / "inspector" / "resources", checked
    assert checked[1] == "[24912, 2375] [15339, 1917]", checked

    run([str(script), "--install-desktop-entry"], env=env, cwd=tmp_path)
    entry = (tmp_path / "d" / "applications" / "mcp-lens.desktop").read_text()
    assert f"Exec={script}\n" in entry
