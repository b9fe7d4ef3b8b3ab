"""``mcp-lens --self-test``: the real window, the embedded demo server, two tool calls, rendered results.

Each step prints ``self-test: <step> ok (<seconds> s)``; the first failure prints what failed and the
process exits 1. A watchdog thread ends the process (exit 3) if the event loop itself hangs past the
timeout. Nothing of the user's is touched: settings and profiles go to a temporary folder.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from inspector.words import counted

ECHO_TEXT = "MCP Lens self-test ✓"
IMAGE_SIZE = 48
TONE_SECONDS = 0.5
SCREENSHOT_ENV = "MCP_LENS_SELF_TEST_SCREENSHOTS"  # a folder: keep the rendered result and window there


class SelfTestFailure(Exception):
    """One step failed; the message says what was expected and what happened."""


def say(text: str) -> None:
    print(f"self-test: {text}", flush=True)


async def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll `condition` on the running loop until it holds; `SelfTestFailure` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SelfTestFailure(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.02)


class SelfTest:
    """The steps, in order, against one main window."""

    def __init__(self, app: QApplication, folder: Path, step_timeout: float) -> None:
        self.app = app
        self.folder = folder
        self.step_timeout = step_timeout
        self.window: Any = None

    async def step(self, name: str, action: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        try:
            result = action()
            if asyncio.iscoroutine(result):
                result = await result
        except SelfTestFailure as exc:
            raise SelfTestFailure(f"{name}: {exc}") from None
        except Exception as exc:
            raise SelfTestFailure(f"{name}: {type(exc).__name__}: {exc}") from exc
        detail = f" — {result}" if isinstance(result, str) and result else ""
        say(f"{name} ok ({time.perf_counter() - started:.2f} s){detail}")
        return result

    # -- steps -------------------------------------------------------------------------------
    async def open_window(self) -> str:
        from inspector.config.store import ProfileStore
        from inspector.ui.main_window import MainWindow
        from inspector.ui.widgets.app_icon import set_app_icon

        settings = QSettings(str(self.folder / "settings.ini"), QSettings.Format.IniFormat)
        profiles = ProfileStore(self.folder / "servers.json")
        profiles.load()
        from inspector.demo.launch import demo_profile

        set_app_icon(self.app)
        self.window = MainWindow(profiles, demo_profile(), settings)
        self.window.show()
        await wait_for(lambda: self.window.isVisible(), self.step_timeout, "the main window to show")
        platform = self.app.platformName()
        return f"platform {platform}, icon {'set' if not self.app.windowIcon().isNull() else 'MISSING'}"

    async def connect_demo(self) -> str:
        from inspector.demo.launch import demo_profile

        profile = demo_profile()
        self.window.connect_profile(profile)
        session = self.window.session
        await wait_for(lambda: session.state in ("connected", "failed"), self.step_timeout, "the demo server")
        if session.state != "connected":
            raise SelfTestFailure(f"connection failed: {session.detail}")
        tools = self.window.workbench.tools
        await wait_for(lambda: tools.model.rowCount() > 0, self.step_timeout, "the tool list")
        return f"{counted(tools.model.rowCount(), 'tool')} from {' '.join([profile.command, *profile.args])}"

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        workbench = self.window.workbench
        if not workbench.tools.select(tool):
            raise SelfTestFailure(f"the demo server lists no tool {tool!r}")
        await wait_for(lambda: workbench.form is not None, self.step_timeout, f"the {tool} form")
        workbench.form.set_arguments(arguments)
        record = workbench.call_current()
        if record is None:
            raise SelfTestFailure(f"the Call button did not start a call of {tool}")
        await wait_for(lambda: record.done, self.step_timeout, f"the {tool} result")
        if record.error is not None:
            raise SelfTestFailure(f"{tool} failed: {record.error}")
        await wait_for(lambda: workbench.result.state != "empty", self.step_timeout, f"the {tool} result view")
        return record

    async def call_echo(self) -> str:
        record = await self.call("echo", {"message": ECHO_TEXT})
        texts = [b.get("text") for b in record.result.get("content", []) if isinstance(b, dict)]
        if ECHO_TEXT not in texts:
            raise SelfTestFailure(f"echo returned {texts!r}, expected {ECHO_TEXT!r}")
        return f"{len(record.result['content'])} text block, {record.duration_ms:.0f} ms"

    async def call_image(self) -> str:
        await self.call("generate_image", {"size": IMAGE_SIZE, "pattern": "rings"})
        from inspector.ui.results.image_block import ImageBlockWidget

        view = self.window.workbench.result
        images = [b for b in view.blocks if isinstance(b, ImageBlockWidget) and b.viewer is not None]
        if not images:
            names = [type(b).__name__ for b in view.blocks]
            raise SelfTestFailure(f"no decoded image block in the result view (blocks: {names})")
        size = images[0].viewer.image_size
        if tuple(size) != (IMAGE_SIZE, IMAGE_SIZE):
            raise SelfTestFailure(f"the image decoded as {size}, expected {IMAGE_SIZE}x{IMAGE_SIZE}")
        return f"PNG decoded, {size[0]}x{size[1]} px"

    async def call_tone(self) -> str:
        """Audio goes through QtMultimedia's FFmpeg backend: a bundle missing its libraries fails here."""
        from inspector.ui.results.audio_block import AudioBlockWidget

        await self.call("generate_tone", {"frequency": 440, "duration": TONE_SECONDS})
        view = self.window.workbench.result
        blocks = [b for b in view.blocks if isinstance(b, AudioBlockWidget)]
        if not blocks or blocks[0].player is None:
            names = [type(b).__name__ for b in view.blocks]
            raise SelfTestFailure(f"no playable audio block in the result view (blocks: {names})")
        block = blocks[0]
        await wait_for(lambda: block.media_duration_ms > 0, self.step_timeout, "the media backend to load the WAV")
        if abs(block.media_duration_ms - TONE_SECONDS * 1000) > 100:
            raise SelfTestFailure(f"the media backend says {block.media_duration_ms} ms, expected {TONE_SECONDS} s")
        return f"media backend decoded {block.media_duration_ms} ms"

    async def count_tokens(self) -> str:
        """The shipped tokenizers load from the bundle: tiktoken's rank file and ctok's Claude pieces."""
        from inspector.budget.tokenizers import get_tokenizer

        text = "Count the tokens of this tool description."
        counts = {name: get_tokenizer(name).count(text) for name in ("o200k_base", "claude")}
        if not all(counts.values()):
            raise SelfTestFailure(f"a tokenizer counted nothing: {counts}")
        return ", ".join(f"{name} {count}" for name, count in counts.items())

    async def render(self) -> str:
        view = self.window.workbench.result
        self.app.processEvents()
        pixmap = view.grab()
        if pixmap.isNull() or pixmap.width() < 50 or pixmap.height() < 50:
            raise SelfTestFailure(f"the result view rendered as {pixmap.width()}x{pixmap.height()}")
        image = pixmap.toImage()
        colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
        if len(colours) < 3:
            raise SelfTestFailure("the rendered result is blank (fewer than 3 colours)")
        if keep := os.environ.get(SCREENSHOT_ENV):
            Path(keep).mkdir(parents=True, exist_ok=True)
            pixmap.save(str(Path(keep) / "self-test-result.png"))
            self.window.grab().save(str(Path(keep) / "self-test-window.png"))
        return f"{pixmap.width()}x{pixmap.height()} px, {len(colours)} colours"

    async def start_webengine(self) -> str:
        """MCP Apps' WebEngine: a page in an off-the-record profile loads and runs JavaScript in a renderer process.

        Not a failure when WebEngine is absent from a pip install (the [apps] extra is optional; the bundle
        must have it) or cannot start as root with its sandbox on: the line says why.
        """
        from inspector.ui.apps.engine import sandbox_refusal, webengine_missing

        missing = webengine_missing()
        if missing and getattr(sys, "frozen", False):
            raise SelfTestFailure(f"the bundle lacks WebEngine: {missing}")
        if why_not := missing or sandbox_refusal():
            return f"unavailable: {why_not}"
        import shiboken6
        from PySide6.QtWebEngineCore import QWebEnginePage, QWebEngineProfile, qWebEngineChromiumVersion

        profile = QWebEngineProfile()  # no storage name: off the record
        page = QWebEnginePage(profile)
        loaded: list[bool] = []
        answers: list[Any] = []
        ended: list[str] = []
        page.loadFinished.connect(loaded.append)
        page.renderProcessTerminated.connect(lambda status, code: ended.append(f"{status.name} ({code})"))
        try:
            page.setHtml('<p id="probe">ok</p>')
            await wait_for(lambda: bool(loaded or ended), self.step_timeout, "WebEngine to load a page")
            if ended or not loaded[0]:
                raise SelfTestFailure(f"the page did not load (renderer: {ended or 'running'})")
            page.runJavaScript("document.getElementById('probe').textContent + 6 * 7", 0, answers.append)
            await wait_for(lambda: bool(answers or ended), self.step_timeout, "WebEngine to run JavaScript")
            if answers != ["ok42"]:
                raise SelfTestFailure(f"JavaScript answered {answers!r} (renderer: {ended or 'running'})")
        finally:
            shiboken6.delete(page)  # page before profile, while the QApplication lives
            shiboken6.delete(profile)  # (a second quit after WebEngine ran: inspector.ui.webengine_exit)
        return f"available: Chromium {qWebEngineChromiumVersion()}, a page loaded and ran JavaScript"

    async def close(self) -> str:
        self.window.close()
        await self.window.session.shutdown()
        return ""

    async def run(self) -> None:
        await self.step("open main window", self.open_window)
        await self.step("connect to the embedded demo server", self.connect_demo)
        await self.step("call echo", self.call_echo)
        await self.step("call generate_tone", self.call_tone)
        await self.step("call generate_image", self.call_image)
        await self.step("render the result", self.render)
        await self.step("count tokens (o200k, Claude)", self.count_tokens)
        await self.step("check WebEngine (MCP Apps)", self.start_webengine)
        await self.step("close and stop the server", self.close)


def _watchdog(seconds: float) -> threading.Timer:
    def fire() -> None:
        say(f"FAILED: no answer within {seconds:.0f} s (the event loop is stuck)")
        os._exit(3)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    return timer


async def run_self_test(app: QApplication, *, timeout: float = 60.0) -> int:
    """Run every step; 0 when all pass, 1 (after printing why) when one fails or the whole exceeds `timeout`."""
    started = time.perf_counter()
    frozen = "bundle" if getattr(sys, "frozen", False) else "python"
    say(f"MCP Lens {_version()} ({frozen}: {sys.executable}), Qt platform {app.platformName()}")
    watchdog = _watchdog(timeout + 15)
    with tempfile.TemporaryDirectory(prefix="mcp-lens-self-test-") as folder:
        test = SelfTest(app, Path(folder), step_timeout=min(30.0, timeout))
        try:
            await asyncio.wait_for(test.run(), timeout)
        except TimeoutError:
            say(f"FAILED: the self-test took longer than {timeout:.0f} s")
            return await _fail(test)
        except SelfTestFailure as exc:
            say(f"FAILED: {exc}")
            return await _fail(test)
        finally:
            watchdog.cancel()
    say(f"all steps passed in {time.perf_counter() - started:.2f} s")
    return 0


async def _fail(test: SelfTest) -> int:
    if test.window is not None:
        test.window.close()
        await asyncio.wait_for(test.window.session.shutdown(), 10)
    return 1


def _version() -> str:
    from inspector import __version__

    return __version__
