"""Where the packaged resources (icons, stylesheet, translations) are on disk.

They live inside the package (``desktop_kb/resources``) so that a wheel, an
sdist, an editable install and a PyInstaller bundle all carry them the same
way. Qt wants real file paths, not importlib Traversables, and every one of
those layouts keeps the files next to the modules, so a path relative to this
file is both the simplest and the most robust lookup. No Qt here: the CLI's
self-check and packaging scripts use it too.
"""

from __future__ import annotations

from pathlib import Path

RESOURCES: Path = Path(__file__).resolve().parent / "resources"
ICONS: Path = RESOURCES / "icons"
TRANSLATIONS: Path = RESOURCES / "translations"
STYLESHEET: Path = RESOURCES / "style.qss"
APP_ICON: Path = ICONS / "app.svg"


def missing() -> list[str]:
    """Resources the app cannot do without that are absent (a broken install or bundle)."""
    wanted = [APP_ICON, STYLESHEET, TRANSLATIONS / "desktop_kb_zh_CN.qm"]
    return [str(p) for p in wanted if not p.is_file()]
