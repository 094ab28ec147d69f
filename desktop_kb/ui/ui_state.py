"""Window geometry, splitters and the last open note, kept in ``<data_dir>/ui.ini``.

Per library rather than per user: a test or a second library never touches
the person's real configuration, and the last open note belongs to its library.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings


class UiState:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.settings = QSettings(str(self.data_dir / "ui.ini"), QSettings.Format.IniFormat)

    def bytes(self, key: str) -> QByteArray | None:
        value = self.settings.value(key)
        return value if isinstance(value, QByteArray) else None

    def set(self, key: str, value: object) -> None:
        # QSettings makes missing folders when it writes, even later: a library's folder renamed
        # since came back at the old path. Written at once, and only while the folder is there.
        if self.data_dir.is_dir():
            self.settings.setValue(key, value)
            self.settings.sync()

    def int(self, key: str) -> int | None:
        value = self.settings.value(key)
        try:
            return int(value) if value not in (None, "") else None
        except (TypeError, ValueError):
            return None

    def text(self, key: str, default: str = "") -> str:
        value = self.settings.value(key, default)
        return str(value) if value is not None else default

    def sync(self) -> None:
        if self.data_dir.is_dir():
            self.settings.sync()
