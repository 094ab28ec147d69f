"""Icons: a few SVGs from ``resources/icons``, the rest from the platform style."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle

from desktop_kb.ui.i18n import RESOURCES

SP = QStyle.StandardPixmap


@cache
def svg(name: str) -> QIcon:
    return QIcon(str(RESOURCES / "icons" / f"{name}.svg"))


def standard(pixmap: QStyle.StandardPixmap) -> QIcon:
    return QApplication.style().standardIcon(pixmap)


def stylesheet() -> str:
    path = RESOURCES / "style.qss"
    return path.read_text(encoding="utf-8") if path.is_file() else ""
