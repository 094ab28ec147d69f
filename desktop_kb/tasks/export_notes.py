"""Export notes as a folder of Markdown files with front matter (Qt-free, runs off-thread).

File names come from titles, so they are sanitised for every OS we ship on
(Windows is the strictest) and made unique case-insensitively, because two
notes may share a title and macOS/Windows folders ignore case.

Exporting again into the same folder rewrites each note's earlier export (a
file whose front matter names the same title and creation time) instead of
adding "title (2).md" beside it; any other file there is left alone.
"""

from __future__ import annotations

import errno
import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from desktop_kb.progress import Progress
from desktop_kb.store.notes import Note
from desktop_kb.whole_file import sweep, write_whole

_FORBIDDEN = re.compile(r'[<>:"/\\|?*\x00-\x1f]')
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
             *(f"lpt{i}" for i in range(1, 10))}
MAX_STEM = 80
# A name may hold 255 bytes on Linux and macOS disks (UTF-8): a stem leaves room for " (NN).md"
# and for the temporary name it is first written under (".NAME.PID.tmp", whole_file).
MAX_STEM_BYTES = 200


@dataclass
class ExportResult:
    folder: Path
    written: int


class ExportError(Exception):
    """The export stopped (disk full, folder read-only…); ``str(err)`` is the line to show.

    Its parts are kept for the window, which says the same in the UI language.
    """

    def __init__(self, folder: Path, written: int, total: int, cause: OSError) -> None:
        self.folder, self.written, self.total = folder, written, total
        self.reason = _REASONS.get(cause.errno or 0, "")
        self.detail = str(cause)
        why = self.reason or self.detail
        super().__init__(f"Export to {folder} stopped after {written} of {total} notes: {why}. "
                         "Files of an earlier export there are unchanged.")


# errno → the English reason; the window has its own translated sentence for each.
_REASONS = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
            errno.EROFS: "the folder is on a read-only disk",
            errno.EACCES: "the folder cannot be written"}


def safe_stem(title: str, fallback: str = "untitled") -> str:
    stem = unicodedata.normalize("NFC", title)
    stem = _FORBIDDEN.sub("_", stem)
    stem = re.sub(r"\s+", " ", stem).strip(" .")
    stem = stem[:MAX_STEM]
    if len(stem.encode("utf-8")) > MAX_STEM_BYTES:  # Chinese: 3 bytes a character, emoji: 4
        stem = stem.encode("utf-8")[:MAX_STEM_BYTES].decode("utf-8", "ignore")
    stem = stem.rstrip(" .")
    if not stem:
        stem = fallback
    if stem.split(".")[0].lower() in _RESERVED:
        stem = f"_{stem}"
    return stem


_FRONT_LINES = 6  # ---, title, created, updated, --- (and one to spare)


def _export_key(title: str, created: str) -> tuple[str, str]:
    return (title, created)


def earlier_exports(folder: Path) -> dict[tuple[str, str], list[str]]:
    """Files in ``folder`` that this exporter wrote, by (title, created) of their front matter."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(folder.glob("*.md")):
        try:
            with path.open(encoding="utf-8") as handle:
                head = [handle.readline().rstrip("\n") for _ in range(_FRONT_LINES)]
        except (OSError, UnicodeDecodeError):
            continue
        if head[0] != "---" or not head[1].startswith("title: ") or not head[2].startswith("created: "):
            continue
        try:
            title = json.loads(head[1][len("title: "):])
        except json.JSONDecodeError:
            continue
        if isinstance(title, str):
            found.setdefault(_export_key(title, head[2][len("created: "):]), []).append(path.name)
    return found


def unique_names(titles: Iterable[str], existing: Iterable[str] = ()) -> list[str]:
    """``title.md``, ``title (2).md``… — unique regardless of case."""
    taken = {name.casefold() for name in existing}
    names = []
    for title in titles:
        stem = safe_stem(title)
        name, n = f"{stem}.md", 1
        while name.casefold() in taken:
            n += 1
            name = f"{stem} ({n}).md"
        taken.add(name.casefold())
        names.append(name)
    return names


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


def render_note(note: Note) -> str:
    """YAML front matter; JSON strings are valid YAML and escape any title safely."""
    front = [
        "---",
        f"title: {json.dumps(note.title, ensure_ascii=False)}",
        f"created: {_iso(note.created_at)}",
        f"updated: {_iso(note.updated_at)}",
        "---",
        "",
    ]
    body = note.body if note.body.endswith("\n") or not note.body else note.body + "\n"
    return "\n".join(front) + body


def export_notes(notes: list[Note], folder: Path, progress: Progress | None = None) -> ExportResult:
    progress = progress or Progress()
    folder.mkdir(parents=True, exist_ok=True)
    sweep(folder)  # a note half-written by an export that was killed
    previous = earlier_exports(folder)
    reused: dict[int, str] = {}
    for i, note in enumerate(notes):
        names_before = previous.get(_export_key(note.title, _iso(note.created_at)))
        if names_before:
            reused[i] = names_before.pop(0)  # each earlier file stands for one note
    existing = [p.name for p in folder.iterdir()]
    fresh = iter(unique_names([n.title for i, n in enumerate(notes) if i not in reused], existing))
    names = [reused[i] if i in reused else next(fresh) for i in range(len(notes))]
    progress.start("export", len(notes))
    written = 0
    for note, name in zip(notes, names, strict=True):
        progress.check()
        try:
            # Written beside, then renamed over: an earlier export of the note stays whole
            # until its new version is, because a person may keep the folder as their copy.
            write_whole(folder / name, render_note(note), durable=True)
        except OSError as exc:
            raise ExportError(folder, written, len(notes), exc) from exc
        written += 1
        progress.tick()
    progress.finish()
    return ExportResult(folder, written)

