"""Where the library lives on disk.

One data folder holds everything: ``library.sqlite`` (the truth), ``index.sqlite``
(derived, disposable) and ``models/``. The folder can be chosen per call so tests
and scripts never touch the person's real library.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "desktop-kb"
DATA_DIR_ENV = "DESKTOP_KB_DATA_DIR"


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def resolve_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--data-dir`` wins over ``DESKTOP_KB_DATA_DIR``, which wins over the OS default."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return default_data_dir()


@dataclass(frozen=True)
class LibraryPaths:
    data_dir: Path

    @property
    def store(self) -> Path:
        return self.data_dir / "library.sqlite"

    @property
    def index(self) -> Path:
        return self.data_dir / "index.sqlite"

    @property
    def models(self) -> Path:
        return self.data_dir / "models"

    @property
    def lock(self) -> Path:
        return self.data_dir / "desktop-kb.lock"

    def ensure(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
