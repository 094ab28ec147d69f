"""A note in the data folder for each import under way, so one cut short is told.

Every file of an import is its own store transaction, so an import stopped by force (kill
-9, a crash, a power cut, the app closed from the task manager) leaves nothing half made —
but it leaves the import half done, and nothing said so: the library simply held 56 of the
book's 105 chapters. The note is written when an import starts and removed when it ends in
any way its process reports itself (done, cancelled, Ctrl+C, a full disk); one left behind
by a process that is gone is reported once by the next process that opens the library.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop_kb.importer.files import display_path
from desktop_kb.store.processes import process_running
from desktop_kb.whole_file import sweep, write_whole

FOLDER = ".imports"  # hidden: a folder walk never imports the journal as study material

#: Said once, by the first process to open the library after it; {0}: what was being imported.
CUT_SHORT_MESSAGE = ("An import of {0} was cut short (the program importing it was stopped by "
                     "force, crashed, or the computer went off): what it saved is kept, and the rest "
                     "is missing. Import the same files again to finish; the ones already imported "
                     "are skipped.")


@dataclass(frozen=True)
class CutShort:
    paths: tuple[str, ...]
    started_at: float

    @property
    def what(self) -> str:
        shown = ", ".join(self.paths[:3])
        return shown + (f" (+{len(self.paths) - 3})" if len(self.paths) > 3 else "")

    @property
    def message(self) -> str:
        return CUT_SHORT_MESSAGE.format(self.what)


@contextlib.contextmanager
def under_way(data_dir: Path, paths: Sequence[Path]) -> Iterator[None]:
    """Keep a note of this import while it runs; a full or read-only disk only loses the note
    (the import itself then says what the disk did)."""
    note = data_dir / FOLDER / f"{os.getpid()}-{uuid.uuid4().hex[:8]}.json"
    payload = {"pid": os.getpid(), "host": socket.gethostname(), "started_at": time.time(),
               # A folder named in another system's encoding is skipped by the import, with its
               # reason; the note failed to encode it and the import stopped with a codec error.
               "paths": [display_path(Path(p).expanduser().resolve()) for p in paths]}
    try:
        note.parent.mkdir(exist_ok=True)
        write_whole(note, json.dumps(payload, ensure_ascii=False))
    except OSError:
        note = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if note is not None:
            with contextlib.suppress(OSError):
                note.unlink()


def take_cut_short(data_dir: Path) -> list[CutShort]:
    """The imports whose process is gone without ending them, oldest first; each is returned
    by one process only (the one whose unlink of its note succeeds)."""
    folder = data_dir / FOLDER
    sweep(folder)  # a note's temporary file, when the process was killed writing it
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    except OSError:
        return []
    found: list[CutShort] = []
    for name in names:
        path = folder / name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            pid, host = int(data["pid"]), str(data.get("host") or "")
            item = CutShort(tuple(str(p) for p in data["paths"]), float(data["started_at"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if process_running(pid, host or None) is not False:
            continue  # still importing, or on another computer that cannot be asked
        try:
            path.unlink()
        except OSError:
            continue  # another process took it first, or the folder is read-only
        found.append(item)
    return sorted(found, key=lambda c: c.started_at)
