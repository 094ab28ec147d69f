"""Where the library lives on disk.

One data folder holds everything: ``library.sqlite`` (the truth), ``index.sqlite``
(derived, disposable) and ``models/``. The folder can be chosen per call so tests
and scripts never touch the person's real library.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "desktop-kb"
DATA_DIR_ENV = "DESKTOP_KB_DATA_DIR"


def file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of ``path``: another file put in its place changes it (None: none there,
    or it cannot be read: a disk that went away)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def resolve_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--data-dir`` wins over ``DESKTOP_KB_DATA_DIR``, which wins over the OS default."""
    chosen = explicit or os.environ.get(DATA_DIR_ENV)
    if not chosen:
        return default_data_dir()
    path = Path(chosen).expanduser().resolve()
    _refuse_a_missing_disk(path)
    return path


def _refuse_a_missing_disk(path: Path) -> None:
    """A chosen folder whose parent is missing too is most likely on a disk or stick that is
    not connected (its mount point is gone): making the folders there would start a new,
    empty library on the computer's own disk, shown as "no notes", and take the stick's
    path. One missing level (a new library in an existing folder) is made as always.
    """
    from desktop_kb.store.errors import DATA_DIR_MISSING_MESSAGE, StoreError

    if not path.exists() and not path.parent.exists():
        raise StoreError(f"Cannot open the library at {path}: {DATA_DIR_MISSING_MESSAGE}")


def read_only_folder(path: Path) -> bool:
    """Whether ``path`` is an existing folder nothing can be written in: a read-only mount (a
    CD, a write-protected stick, a share or a backup disk mounted read-only), or a folder this
    user may not write to. Root may write where the permissions say no, but not on a
    read-only mount (``access`` reports EROFS for everyone)."""
    statvfs = getattr(os, "statvfs", None)  # not on Windows, where access() says it all
    try:
        if not path.is_dir():
            return False
        if statvfs is not None and statvfs(path).f_flag & os.ST_RDONLY:
            return True
        return not os.access(path, os.W_OK)
    except OSError:
        return False


def read_only_index_dir(data_dir: Path) -> Path:
    """Where the search index of a library in a read-only folder lives (made if need be): the
    per-user cache, else the temporary folder (a cache folder that cannot be written, say one a
    ``sudo`` run left to root); one folder per library path (the index knows its library's
    history, and is rebuilt when another library appears at that path)."""
    key = hashlib.sha256(os.fsencode(str(data_dir))).hexdigest()[:16]
    tried = []
    for base in (Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)), _temporary_folder()):
        folder = base / "read-only libraries" / key
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            tried.append(str(base))
            continue
        if os.access(folder, os.W_OK):
            return folder
        tried.append(str(base))
    from desktop_kb.store.errors import NO_INDEX_FOLDER_MESSAGE, StoreError

    raise StoreError(f"Cannot open the library at {data_dir}: {NO_INDEX_FOLDER_MESSAGE} ({', '.join(tried)})")


def _temporary_folder() -> Path:
    try:
        temporary = Path(tempfile.gettempdir())
    except OSError:  # no temporary folder can be written either
        temporary = Path(tempfile.tempdir or "/tmp")
    return temporary / f"{APP_NAME}-{os.getuid() if hasattr(os, 'getuid') else 'user'}"


@dataclass(frozen=True)
class LibraryPaths:
    data_dir: Path
    #: Where the index lives when not beside the library (a read-only folder).
    index_dir: Path | None = None

    @property
    def store(self) -> Path:
        return self.data_dir / "library.sqlite"

    @property
    def index(self) -> Path:
        return (self.index_dir or self.data_dir) / "index.sqlite"

    @property
    def models(self) -> Path:
        return self.data_dir / "models"

    @property
    def lock(self) -> Path:
        return self.data_dir / "desktop-kb.lock"

    def ensure(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
