"""Importing files into the store, keeping the index in step through the worker."""

from __future__ import annotations

import contextlib
import sqlite3
from collections import Counter
from collections.abc import Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_kb.importer.files import (
    HIDDEN,
    Candidate,
    Skipped,
    UnreadableFile,
    iter_candidates,
    read_text,
)
from desktop_kb.importer.formats import (
    DEFAULT_FORMATS,
    canonical_format,
    format_of,
    split_document,
    title_name,
)
from desktop_kb.index.worker import IndexWorker
from desktop_kb.progress import Progress
from desktop_kb.store import documents as docs


@dataclass
class ImportSummary:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    fragments: int = 0
    per_format: Counter[str] = field(default_factory=Counter)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason), listed
    quiet_skipped: Counter[str] = field(default_factory=Counter)  # reason -> count (hidden, other types)
    remarks: list[tuple[str, str]] = field(default_factory=list)  # (path, remark) e.g. invalid JSON
    cancelled: bool = False

    def as_json(self) -> dict[str, object]:
        return {
            "added": self.added, "updated": self.updated, "unchanged": self.unchanged,
            "removed": self.removed, "fragments": self.fragments,
            "per_format": dict(sorted(self.per_format.items())),
            "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
            "quiet_skipped": dict(self.quiet_skipped),
            "remarks": [{"path": p, "remark": r} for p, r in self.remarks],
            "cancelled": self.cancelled,
        }


def _within(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def _hidden_below(path: Path, roots: Sequence[Path]) -> bool:
    for root in roots:
        if path == root or root in path.parents:
            return any(part.startswith(".") for part in path.relative_to(root).parts)
    return False


def import_paths(
    store: sqlite3.Connection, worker: IndexWorker, paths: Sequence[Path],
    *, formats: Collection[str] = DEFAULT_FORMATS, prune: bool = False,
    progress: Progress | None = None, lock: AbstractContextManager[Any] | None = None,
) -> ImportSummary:
    """Import files and folders; re-import touches only files whose sha256 changed.

    Store first, then the save hook (enqueue); fragments that disappear have
    their index rows removed before their store rows (I4). ``lock`` guards the
    store's write connection one file at a time, so note saves are not held up
    for the length of a big import.
    """
    lock = lock or contextlib.nullcontext()
    progress = progress or Progress()
    summary = ImportSummary()
    roots = [Path(p).expanduser().resolve() for p in paths]
    selected = {canonical_format(f) for f in formats}
    candidates: list[Candidate] = []
    for item in iter_candidates(roots, formats):
        if isinstance(item, Skipped):
            if item.quiet:
                summary.quiet_skipped[item.reason] += 1
            else:
                summary.skipped.append((str(item.path), item.reason))
        else:
            candidates.append(item)
    progress.start("import", len(candidates))
    for candidate in candidates:
        if progress.cancelled:
            summary.cancelled = True
            break
        with lock:
            _import_one(store, worker, candidate, summary)
        progress.tick()
    if prune and not summary.cancelled:
        for doc in docs.list_documents(store):
            path = Path(doc.path)
            if not _within(path, roots):
                continue
            fmt = format_of(path)
            gone = not path.is_file()
            unwanted = fmt is None or fmt not in selected or _hidden_below(path, roots)
            if gone or unwanted:
                with lock:
                    remove_document(store, worker, doc.id)
                summary.removed += 1
    progress.finish()
    return summary


def _import_one(
    store: sqlite3.Connection, worker: IndexWorker, candidate: Candidate, summary: ImportSummary,
) -> None:
    path = candidate.path.resolve()
    try:
        text, sha = read_text(path)
    except UnreadableFile as exc:
        summary.skipped.append((str(path), exc.reason))
        return
    existing = docs.find_document_by_path(store, str(path))
    if existing is not None and existing.sha256 == sha:
        summary.unchanged += 1
        summary.per_format[candidate.fmt] += 1
        return
    split = split_document(text, candidate.fmt, title_name(path))
    for remark in split.notes:
        summary.remarks.append((str(path), remark))
    document_id = existing.id if existing else None
    plan = docs.plan_fragments(store, document_id, split.fragments)
    def save() -> int:
        return docs.save_document(
            store, path=str(path), fmt=candidate.fmt, sha256=sha, title=split.title,
            specs=split.fragments, plan=plan, document_id=document_id,
        )

    if plan.removed:
        # The store change runs inside the removal job, so no indexing can
        # re-add the dropped fragments in between (I4).
        document_id = worker.remove([("fragment", fid) for fid in plan.removed], then=save).result()
    else:
        document_id = save()
    # Fragment keys rather than ("document", id), so a later removal of these
    # fragments drops exactly these queued requests.
    worker.enqueue([("fragment", fid) for fid in docs.fragment_ids(store, document_id)])
    summary.fragments += len(split.fragments)
    summary.per_format[candidate.fmt] += 1
    if existing is None:
        summary.added += 1
    else:
        summary.updated += 1


def remove_document(store: sqlite3.Connection, worker: IndexWorker, document_id: int) -> None:
    """Index rows first, then the document and its fragments (I4)."""
    keys = [("fragment", fid) for fid in docs.fragment_ids(store, document_id)]
    # The deletion runs inside the removal job (see IndexWorker.remove); the
    # caller holds the store's write lock.
    worker.remove(keys, then=lambda: docs.delete_document(store, document_id)).result()


__all__ = ["ImportSummary", "import_paths", "remove_document", "HIDDEN"]
