"""The demo's MCP App: ``show_dice`` declares an interface (``ui://demo/dice.html``) that shows the tool's
input and result, rolls again through the bridge (``reroll_dice``, read-only, visible to apps only),
asks the host to open a link and reports its size. Vanilla JS, inline, no network; plain text only."""

import random
from typing import Annotated

from mcp.server.apps import Apps, ResourceCsp
from mcp_types import ToolAnnotations
from pydantic import Field

DICE_URI = "ui://demo/dice.html"
DOCS_URL = "https://modelcontextprotocol.io/extensions/apps/overview"
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

Count = Annotated[int, Field(ge=1, le=10, description="How many dice.")]
Sides = Annotated[int, Field(ge=2, le=100, description="Faces per die.")]

DICE_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Dice</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 12px; }
  body.dark { background: #1e1e1e; color: #ddd; }
  pre { background: rgba(128, 128, 128, 0.15); padding: 6px; white-space: pre-wrap; margin: 4px 0 10px; }
  h2 { font-size: 13px; margin: 8px 0 0; }
  button { margin-right: 6px; }
</style>
</head>
<body>
<h1>Dice</h1>
<p>Status: <span id="status">connecting…</span></p>
<h2>Tool input</h2><pre id="input">(none yet)</pre>
<h2>Tool result</h2><pre id="result">(none yet)</pre>
<p><button id="roll" disabled>Roll again</button><button id="docs" disabled>Open docs</button></p>
<h2>Through the bridge</h2><pre id="bridge">(nothing yet)</pre>
<script>
"use strict";
const DOCS_URL = "__DOCS_URL__";
const show = (id, text) => { document.getElementById(id).textContent = text; };  // plain text only
let nextId = 0;
let args = {count: 2, sides: 6};
const pending = new Map();

function post(message) { window.parent.postMessage(message, "*"); }
function notify(method, params) { post({jsonrpc: "2.0", method, params}); }
function request(method, params) {
  const id = ++nextId;
  post({jsonrpc: "2.0", id, method, params});
  return new Promise((resolve, reject) => pending.set(id, {resolve, reject}));
}
function textOf(result) {
  const texts = (result.content || []).filter((block) => block.type === "text").map((block) => block.text);
  return texts.length ? texts.join("\\n") : JSON.stringify(result);
}

window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  let msg = event.data;
  if (typeof msg === "string") { try { msg = JSON.parse(msg); } catch (e) { return; } }
  if (!msg || msg.jsonrpc !== "2.0") return;
  if (msg.id !== undefined && pending.has(msg.id) && !msg.method) {
    const {resolve, reject} = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) reject(new Error(msg.error.message)); else resolve(msg.result);
  } else if (msg.method === "ui/notifications/tool-input") {
    args = (msg.params && msg.params.arguments) || args;
    show("input", JSON.stringify(args));
  } else if (msg.method === "ui/notifications/tool-result") {
    show("result", textOf(msg.params || {}));
  } else if (msg.method === "ui/resource-teardown") {
    post({jsonrpc: "2.0", id: msg.id, result: {}});
  } else if (msg.method === "ping") {
    post({jsonrpc: "2.0", id: msg.id, result: {}});
  }
});

document.getElementById("roll").addEventListener("click", async () => {
  show("bridge", "rolling…");
  try { show("bridge", textOf(await request("tools/call", {name: "reroll_dice", arguments: args}))); }
  catch (e) { show("bridge", "Roll failed: " + e.message); }
});
document.getElementById("docs").addEventListener("click", async () => {
  try {
    const answer = await request("ui/open-link", {url: DOCS_URL});
    show("bridge", answer.isError ? "The host did not open the link." : "The host opened the docs.");
  } catch (e) { show("bridge", "Open link failed: " + e.message); }
});

request("ui/initialize", {
  appInfo: {name: "mcp-lens-demo-dice", version: "1.0.0"},
  appCapabilities: {availableDisplayModes: ["inline"]},
  protocolVersion: "2026-01-26",
}).then((answer) => {
  const context = answer.hostContext || {};
  if (context.theme === "dark") document.body.classList.add("dark");
  notify("ui/notifications/initialized", {});
  let sent = "", queued = false;  // report the size once initialized, then only when it changed (once a frame)
  new ResizeObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      const root = document.documentElement, size = root.scrollWidth + "x" + root.scrollHeight;
      if (size === sent) return;
      sent = size;
      notify("ui/notifications/size-changed", {width: root.scrollWidth, height: root.scrollHeight});
    });
  }).observe(document.body);
  show("status", "connected to " + ((answer.hostInfo && answer.hostInfo.name) || "a host"));
  document.getElementById("roll").disabled = false;
  document.getElementById("docs").disabled = false;
}, (e) => show("status", "initialize failed: " + e.message));
</script>
</body>
</html>
""".replace("__DOCS_URL__", DOCS_URL)


def roll(count: int, sides: int) -> str:
    """Roll ``count`` dice with ``sides`` faces; the rolls and their total as one line."""
    rolls = [random.randint(1, sides) for _ in range(count)]
    return f"Rolled {', '.join(map(str, rolls))} (total {sum(rolls)}) with {count}d{sides}"


def build() -> Apps:
    """The demo's Apps extension: the dice app, its tool and the app-only tool it calls."""
    apps = Apps()

    @apps.tool(resource_uri=DICE_URI, title="Show dice", annotations=READ_ONLY)
    def show_dice(count: Count = 2, sides: Sides = 6) -> str:
        """Roll dice and show them in an interactive app (MCP Apps): the app can roll again and open the docs."""
        return roll(count, sides)

    @apps.tool(resource_uri=DICE_URI, visibility=["app"], title="Roll again", annotations=READ_ONLY)
    def reroll_dice(count: Count = 2, sides: Sides = 6) -> str:
        """Roll the dice again; called by the dice app through the bridge (visible to apps only)."""
        return roll(count, sides)

    apps.add_html_resource(
        DICE_URI,
        DICE_HTML,
        name="dice.html",
        title="Dice app",
        description="The interface of show_dice: vanilla JS, no network.",
        csp=ResourceCsp(),
        prefers_border=True,
    )
    return apps
