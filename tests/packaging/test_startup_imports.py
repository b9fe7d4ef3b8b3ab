"""The main window shows before the slow imports: the SDK, pydantic, jsonschema, tiktoken load later.

`import mcp` alone costs ~1 s warm here (more cold); the window must not wait for it. This builds and
shows the real MainWindow in a fresh interpreter and lists what got imported by then.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lens_support import REPO

# Each costs 0.1–1 s to import; none is needed to draw the window.
NOT_BEFORE_SHOW = ("mcp", "mcp_types", "pydantic", "httpx2", "anyio", "jsonschema", "tiktoken")

SCRIPT = """
import json, sys, tempfile, time
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from inspector.demo.launch import demo_profile
from inspector.config.store import ProfileStore
from inspector.ui.main_window import MainWindow
folder = tempfile.mkdtemp()
window = MainWindow(ProfileStore(folder + "/servers.json"), demo_profile(),
                    QSettings(folder + "/s.ini", QSettings.Format.IniFormat))
window.show()
app.processEvents()
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_window_shows_without_the_slow_imports(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "PySide6" in loaded and "inspector" in loaded
    early = sorted(loaded & set(NOT_BEFORE_SHOW))
    assert not early, (
        f"imported before the window is shown: {early}; find the chain with "
        "`python -X importtime -c 'import inspector.ui.main_window' 2>&1 | less` and import it inside the "
        "function that needs it"
    )
