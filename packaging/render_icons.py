"""Render the app icon (``desktop_kb/resources/icons/app.svg``) to PNGs at the usual sizes.

The PNGs are committed (``packaging/icons/hicolor/NxN/apps/desktop-kb.png``, the
freedesktop icon-theme layout) so a build needs no SVG tooling; run this again
after changing the SVG: ``.venv/bin/python packaging/render_icons.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    from desktop_kb.assets import APP_ICON

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(APP_ICON))
    if not renderer.isValid():
        print(f"cannot read {APP_ICON}", file=sys.stderr)
        return 1
    out = HERE / "icons" / "hicolor"
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = out / f"{size}x{size}" / "apps" / "desktop-kb.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target), "PNG"):
            print(f"cannot write {target}", file=sys.stderr)
            return 1
        print(target.relative_to(ROOT))
    scalable = out / "scalable" / "apps" / "desktop-kb.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    scalable.write_bytes(APP_ICON.read_bytes())
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
