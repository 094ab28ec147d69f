"""Typed text that could not be saved yet, kept on disk until it is (I13: no lost words).

When saving a note fails (disk full, library read-only or busy, the note
purged by another process), the text is written here at once, atomically
(temporary file, fsync, rename), and removed when a save of that very text
succeeds. Whatever is still here on the next start is offered back.

The first choice is ``recovery/`` next to the library. When that folder cannot
be written (the data folder is read-only, or its disk is full) the per-user
state folder is used instead, under a name derived from the library's path,
so text from two libraries never mixes. Each text also names its library (the
store's feed epoch): a library on a stick that comes back at another path
(``/media/me/STICK1`` while the old mount is still busy) finds its text in
the folder of the old path and takes it over.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from desktop_kb.paths import APP_NAME
from desktop_kb.whole_file import write_whole

FOLDER = "recovery"


@dataclass(frozen=True)
class RecoveredText:
    note_id: int
    title: str
    body: str
    saved_at: float  # when the text was written here
    reason: str  # why it could not be saved
    path: Path
    # Digest of the note's text the words were typed over (``text_digest``); "" when that was
    # not known, None in files written before it was kept (only their clock says anything).
    base: str | None = None


def recovery_dirs(data_dir: Path) -> list[Path]:
    """Where recovered text may be, in the order it is written."""
    key = hashlib.sha256(str(data_dir.resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    fallback = platformdirs.user_state_path(APP_NAME, appauthor=False) / FOLDER / key
    return [data_dir / FOLDER, fallback]


def _name(note_id: int) -> str:
    return f"note-{note_id}.json"


def text_digest(title: str, body: str) -> str:
    """What a note held, in a few bytes: to tell whether it still holds it."""
    return hashlib.sha256(f"{title}\0{body}".encode("utf-8", "surrogatepass")).hexdigest()


def keep(data_dir: Path, note_id: int, title: str, body: str, reason: str, *,
         library_id: str = "", base: tuple[str, str] | None = None) -> Path:
    """Write the text durably; returns where. Raises OSError only if no folder could take it.

    ``base`` is the (title, body) the words were typed over: the text goes back into its
    note only while the note still holds exactly that (see ``holds_base``).
    """
    payload = json.dumps({"note_id": note_id, "title": title, "body": body, "saved_at": time.time(),
                          "reason": reason, "library": library_id,
                          "base": text_digest(*base) if base is not None else ""},
                         ensure_ascii=False).encode("utf-8", "surrogatepass")
    last: OSError | None = None
    for folder in recovery_dirs(data_dir):
        final = folder / _name(note_id)
        try:
            # Never the library's folder itself: gone (renamed, moved, its disk pulled), making it
            # again started an empty library there on the next start, and the text was not
            # where the library went. The per-user folder takes it; its library finds it there.
            folder.mkdir(parents=folder != data_dir / FOLDER, exist_ok=True)
            write_whole(final, payload, durable=True)
        except OSError as exc:
            last = exc
            continue
        # One copy only: an older one elsewhere would come back later as a stale offer.
        for other in recovery_dirs(data_dir):
            if other != folder:
                with contextlib.suppress(OSError):
                    (other / _name(note_id)).unlink()
        return final
    assert last is not None
    raise last


def _read(path: Path) -> RecoveredText | None:
    try:
        data = json.loads(path.read_bytes().decode("utf-8", "surrogatepass"))
        base = data.get("base")
        return RecoveredText(int(data["note_id"]), str(data["title"]), str(data["body"]),
                             float(data["saved_at"]), str(data.get("reason", "")), path,
                             None if base is None else str(base))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def pending(data_dir: Path, *, library_id: str = "") -> list[RecoveredText]:
    """Every recovered text, oldest first (with ``library_id``: also the library's text kept
    under another path of it, moved here first)."""
    if library_id:
        _take_over(data_dir, library_id)
    found: dict[int, RecoveredText] = {}
    for folder in recovery_dirs(data_dir):
        for name in _note_files(folder):
            item = _read(folder / name)
            if item is not None and (item.note_id not in found
                                     or found[item.note_id].saved_at < item.saved_at):
                found[item.note_id] = item
    return sorted(found.values(), key=lambda r: r.saved_at)


def holds_base(item: RecoveredText, title: str, body: str, updated_at: float) -> bool:
    """Whether putting ``item`` back into a note now holding ``title``/``body`` loses nothing:
    the note still holds the text the words were typed over. Not read from clocks: a clock
    set back (or a text kept while it ran ahead) made a later edit look older than the kept
    text, and a library file another device synced in has other notes under the same ids."""
    if item.base is None:  # kept by an older version: its clock is all there is
        return updated_at <= item.saved_at
    return bool(item.base) and item.base == text_digest(title, body)


def discard(data_dir: Path, note_id: int, *, body: str | None = None) -> None:
    """Forget the recovered text of a note (only if it is ``body``, when given: a newer
    failed save must not be deleted by an older successful one)."""
    for folder in recovery_dirs(data_dir):
        path = folder / _name(note_id)
        if body is not None:
            item = _read(path)
            if item is None or item.body != body:
                continue
        with contextlib.suppress(OSError):
            path.unlink()


def _note_files(folder: Path) -> list[str]:
    """Names of the recovered-text files in ``folder``, sorted (none when it cannot be read)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [n for n in names if n.startswith("note-") and n.endswith(".json")]


def _library_of(path: Path) -> str:
    try:
        return str(json.loads(path.read_bytes().decode("utf-8", "surrogatepass")).get("library", ""))
    except (OSError, ValueError, AttributeError):
        return ""


def _take_over(data_dir: Path, library_id: str) -> None:
    """Move this library's text from the fallback folders of other paths into its own."""
    own = recovery_dirs(data_dir)[1]
    root = own.parent
    try:
        others = [p for p in root.iterdir() if p.is_dir() and p != own]
    except OSError:
        return
    for folder in others:
        for name in _note_files(folder):
            path = folder / name
            if _library_of(path) != library_id:
                continue
            item, mine = _read(path), _read(own / name)
            if item is None:
                continue
            with contextlib.suppress(OSError):
                if mine is not None and mine.saved_at >= item.saved_at:
                    path.unlink()  # the newer text of that note is already here
                else:
                    own.mkdir(parents=True, exist_ok=True)
                    os.replace(path, own / name)
