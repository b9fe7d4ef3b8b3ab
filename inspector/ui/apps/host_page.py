"""The page each app runs inside: ours, served from our own scheme, holding the app in a sandboxed iframe.

The app's document goes into `<iframe sandbox="allow-scripts" srcdoc=…>`: an opaque origin with no
storage, no pop-ups, no top navigation, no forms. The relay between the iframe's postMessage and
Python runs in an isolated JavaScript world (the app's code cannot see it or the channel) and passes on
only messages whose source is the app's own window.
"""

from __future__ import annotations

from PySide6.QtCore import QFile, QIODevice

# No CSP here on purpose: a srcdoc iframe inherits its parent's policy, and the app carries its own.
HOST_PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>MCP App host</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}
iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><iframe id="app" title="MCP App" sandbox="allow-scripts"></iframe></body></html>
"""

RELAY = """
(function () {
  var frame = document.getElementById("app");
  if (!frame || window.__mcpLensRelay) return;
  window.__mcpLensRelay = true;
  new QWebChannel(qt.webChannelTransport, function (channel) {
    var host = channel.objects.host;
    window.addEventListener("message", function (event) {
      if (event.source !== frame.contentWindow) return;
      var text;
      try { text = JSON.stringify(event.data); } catch (e) { text = null; }
      host.receive(typeof text === "string" ? text : "null");
    });
    host.deliver.connect(function (text) {
      var message;
      try { message = JSON.parse(text); } catch (e) { return; }
      if (frame.contentWindow) frame.contentWindow.postMessage(message, "*");
    });
    host.document(function (html) { frame.srcdoc = html; });
  });
})();
"""


def channel_library() -> str:
    """Qt's qwebchannel.js, read from the Qt resource it ships in (inlined: the page loads nothing)."""
    file = QFile(":/qtwebchannel/qwebchannel.js")
    if not file.open(QIODevice.OpenModeFlag.ReadOnly):
        raise RuntimeError("qwebchannel.js is missing from Qt's resources")
    try:
        return bytes(file.readAll().data()).decode()
    finally:
        file.close()


def relay_script() -> str:
    """The isolated-world script that relays the iframe's messages through the web channel."""
    return channel_library() + "\n" + RELAY
