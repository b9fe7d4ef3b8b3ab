"""The text a widget draws with QPainter, read back: custom-painted charts and delegates have no `text()`.

`drawn_texts(widget)` renders `widget` (and its visible children) onto a paint device whose engine keeps
every text item Qt hands it, in the order drawn. A run of text Qt splits (a bidi override starts a new
run) arrives as several items: join them to search.
"""

from __future__ import annotations

from PySide6.QtGui import QPaintDevice, QPaintEngine, QTextItem
from PySide6.QtWidgets import QWidget


class _TextEngine(QPaintEngine):
    """A paint engine that draws nothing and keeps each text item's characters."""

    def __init__(self) -> None:
        super().__init__(QPaintEngine.PaintEngineFeature.AllFeatures)
        self.texts: list[str] = []

    def begin(self, device: QPaintDevice) -> bool:
        return True

    def end(self) -> bool:
        return True

    def updateState(self, state: object) -> None:
        pass

    def drawPixmap(self, *args: object) -> None:
        pass

    def drawImage(self, *args: object) -> None:
        pass

    def drawTiledPixmap(self, *args: object) -> None:
        pass

    def drawPolygon(self, *args: object) -> None:
        pass

    def drawPath(self, *args: object) -> None:
        pass

    def drawRects(self, *args: object) -> None:
        pass

    def drawLines(self, *args: object) -> None:
        pass

    def drawEllipse(self, *args: object) -> None:
        pass

    def drawPoints(self, *args: object) -> None:
        pass

    def drawTextItem(self, point: object, item: QTextItem) -> None:
        self.texts.append(item.text())

    def type(self) -> QPaintEngine.Type:
        return QPaintEngine.Type.User


class _TextDevice(QPaintDevice):
    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.engine = _TextEngine()
        self.size = (max(1, width), max(1, height))

    def paintEngine(self) -> QPaintEngine:
        return self.engine

    def metric(self, metric: QPaintDevice.PaintDeviceMetric) -> int:
        m = QPaintDevice.PaintDeviceMetric
        values = {
            m.PdmWidth: self.size[0],
            m.PdmHeight: self.size[1],
            m.PdmWidthMM: self.size[0] * 254 // 960,
            m.PdmHeightMM: self.size[1] * 254 // 960,
            m.PdmDepth: 32,
            m.PdmDpiX: 96,
            m.PdmDpiY: 96,
            m.PdmPhysicalDpiX: 96,
            m.PdmPhysicalDpiY: 96,
            m.PdmDevicePixelRatio: 1,
            m.PdmDevicePixelRatioScaled: int(QPaintDevice.devicePixelRatioFScale()),
        }
        return int(values.get(metric, 0))


def drawn_texts(widget: QWidget) -> list[str]:
    """Every text item `widget` and its visible children draw, in order (one paint, nothing shown)."""
    device = _TextDevice(widget.width(), widget.height())
    widget.render(device)
    return device.engine.texts
