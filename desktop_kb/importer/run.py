"""Importing files into the store, keeping the index in step through the worker."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import sqlite3
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_kb.importer.files import (
    HIDDEN,
    Candidate,
    Skipped,
    UnreadableFile,
    conflict_copy_of,
    display_path,
    iter_candidates,
)
from desktop_kb.importer.formats import DEFAULT_FORMATS, expand_formats, format_of
from desktop_kb.importer.load import open_document
from desktop_kb.importer.model import SplitResult
from desktop_kb.importer.ocr import OcrEngine
from desktop_kb.index.worker import IndexWorker
from desktop_kb.progress import Cancelled, Progress
from desktop_kb.store import documents as docs
from desktop_kb.store import feed
from desktop_kb.store.documents import LostLink
from desktop_kb.store.errors import StoreError
from desktop_kb.store.tx import transaction

log = logging.getLogger(__name__)


@dataclass
class ImportSummary:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    fragments: int = 0
    reindexed: int = 0  # unchanged files whose index rows were missing, queued again
    per_format: Counter[str] = field(default_factory=Counter)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason), listed
    quiet_skipped: Counter[str] = field(default_factory=Counter)  # reason -> count (hidden, other types)
    remarks: list[tuple[str, str]] = field(default_factory=list)  # (path, remark) e.g. invalid JSON
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, reason): nothing saved
    links_lost: list[tuple[str, LostLink]] = field(default_factory=list)  # (path, link)
    # (path, name of the file it copies): a sync client's conflicted copy, imported (its words
    # are findable) and named, so the person can compare the two and keep one.
    conflicted: list[tuple[str, str]] = field(default_factory=list)
    # (old path, new path): a file renamed or moved, same content: one document, links kept.
    moved: list[tuple[str, str]] = field(default_factory=list)
    dismissals_lost: int = 0
    stopped: str | None = None  # why the import ended early (disk full, …); the rest was not tried
    # Folders --prune left alone: empty, while the library holds documents from them.
    prune_kept: list[str] = field(default_factory=list)
    cancelled: bool = False
    # Scanned PDF pages: documents to recognise next (OCR installed), and pages
    # that wait because OCR is not installed.
    ocr_documents: list[int] = field(default_factory=list)
    ocr_waiting_pages: int = 0

    def as_json(self) -> dict[str, object]:
        return {
            "added": self.added, "updated": self.updated, "unchanged": self.unchanged,
            "removed": self.removed, "fragments": self.fragments, "reindexed": self.reindexed,
            "per_format": dict(sorted(self.per_format.items())),
            "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
            "quiet_skipped": dict(self.quiet_skipped),
            "remarks": [{"path": p, "remark": r} for p, r in self.remarks],
            "failed": [{"path": p, "reason": r} for p, r in self.failed],
            "links_lost": [{"path": p, **link.as_json()} for p, link in self.links_lost],
            "conflicted": [{"path": p, "copy_of": o} for p, o in self.conflicted],
            "moved": [{"from": a, "to": b} for a, b in self.moved],
            "dismissals_lost": self.dismissals_lost,
            "stopped": self.stopped,
            "prune_kept": list(self.prune_kept),
            "cancelled": self.cancelled,
            "ocr_documents": list(self.ocr_documents),
            "ocr_waiting_pages": self.ocr_waiting_pages,
        }


# Given fragment ids, the ones the index should hold (all their changes applied)
# but does not: a re-import queues them again instead of calling them "unchanged".
UnindexedCheck = Callable[[list[int]], list[int]]


def _within(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def _hidden_below(path: Path, roots: Sequence[Path]) -> bool:
    for root in roots:
        if path == root or root in path.parents:
            return any(part.startswith(".") for part in path.relative_to(root).parts)
    return False


def _empty_folder(path: Path) -> bool:
    """A folder with nothing in it at all (not even hidden entries)."""
    try:
        with os.scandir(path) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def import_paths(
    store: sqlite3.Connection, worker: IndexWorker, paths: Sequence[Path],
    *, formats: Collection[str] = DEFAULT_FORMATS, prune: bool = False,
    progress: Progress | None = None, lock: AbstractContextManager[Any] | None = None,
    unindexed: UnindexedCheck | None = None, include_generated: bool = False,
    ocr_ready: bool = False, prune_empty: bool = False, own: Collection[Path] = (),
) -> ImportSummary:
    """Import files and folders; re-import touches only files whose sha256 changed.

    Every file is one store transaction (the change feed carries it to the
    index, whichever process indexes); the worker gets the new fragments as a
    hint. ``lock`` guards the store's write connection one file at a time, so
    note saves are not held up for the length of a big import. A file that
    fails is recorded with its reason and the import goes on; an environment
    error (disk full, read-only) stops it, because every later file would fail
    the same way — the files saved so far stay saved. ``prune`` leaves an empty folder's
    documents alone unless ``prune_empty``: a stick or network drive that is not mounted
    leaves its mount point as an empty folder, and pruning it removed every document from
    it, with the links and dismissals that pointed into them. A file is parsed outside
    the lock (a long PDF must not hold up note saves). Scanned PDF pages are not
    recognised here: with OCR installed (``ocr_ready``) their documents are
    listed in ``ocr_documents`` for ``recognise_documents``, which runs after
    the text is searchable. ``own``: the library's folders (data, models), never imported.
    """
    lock = lock or contextlib.nullcontext()
    progress = progress or Progress()
    summary = ImportSummary()
    roots = [Path(p).expanduser().resolve() for p in paths]
    selected = expand_formats(tuple(formats))
    candidates: list[Candidate] = []
    for item in iter_candidates(roots, formats, include_generated=include_generated, own=own):
        if isinstance(item, Skipped):
            if item.quiet:
                summary.quiet_skipped[item.reason] += 1
            else:
                summary.skipped.append((display_path(item.path), item.reason))
        else:
            candidates.append(item)
    progress.start("import", len(candidates))
    for done, candidate in enumerate(candidates):
        if progress.cancelled:
            summary.cancelled = True
            break
        progress.detail = candidate.path.name
        original = conflict_copy_of(candidate.path.name)
        if original is not None:
            summary.conflicted.append((display_path(candidate.path), original))
        try:
            _import_one(store, worker, candidate, summary, lock, unindexed,
                        include_generated=include_generated, ocr_ready=ocr_ready,
                        on_page=_page_progress(progress, len(candidates), done))
        except Cancelled:
            summary.cancelled = True
            break
        except StoreError as exc:
            summary.failed.append((display_path(candidate.path), str(exc)))
            summary.stopped = str(exc)
            break
        except Exception as exc:  # noqa: BLE001 - one bad file must not end the import
            log.exception("importing %s failed", display_path(candidate.path))
            summary.failed.append((display_path(candidate.path),
                                   f"internal error: {type(exc).__name__}: {exc}"))
        progress.tick()
    if prune and not summary.cancelled and summary.stopped is None:
        listing = functools.cache(docs.listed_names)  # one listing per folder, not per document
        kept_roots = [] if prune_empty else [r for r in roots if _empty_folder(r)]
        for doc in docs.list_documents(store):
            path = Path(doc.path)
            if not _within(path, roots):
                continue
            if _within(path, kept_roots):
                shown = display_path(next(r for r in kept_roots if _within(path, [r])))
                if shown not in summary.prune_kept:
                    summary.prune_kept.append(shown)
                continue
            fmt = format_of(path)
            # Not listed by its name any more: renamed in case only on a case-insensitive disk
            # (where the old name still opens the file) and not found a move (content changed).
            gone = not path.is_file() or not docs.name_listed(str(path), listing)
            unwanted = fmt is None or fmt not in selected or _hidden_below(path, roots)
            if gone or unwanted:
                with lock:
                    remove_document(store, worker, doc.id)
                summary.removed += 1
    progress.finish()
    return summary


def _page_progress(progress: Progress, files: int, done: int) -> Callable[[int, int], None]:
    """Per-page progress inside a long PDF, then back to counting files."""

    def on_page(page: int, pages: int) -> None:
        if progress.cancelled:
            raise Cancelled()
        if pages < 20:
            return
        if page == 1:
            progress.start("pdf pages", pages)
        progress.tick()
        if page == pages:
            progress.start("import", files)
            progress.tick(done)

    return on_page


def _import_one(
    store: sqlite3.Connection, worker: IndexWorker, candidate: Candidate, summary: ImportSummary,
    lock: AbstractContextManager[Any], unindexed: UnindexedCheck | None, *,
    include_generated: bool = False, ocr_ready: bool = False,
    on_page: Callable[[int, int], None] | None = None,
) -> None:
    path = candidate.path.resolve()
    try:
        opened = open_document(path, candidate.fmt, include_generated=include_generated,
                               on_page=on_page, ocr_ready=ocr_ready)
        with lock:
            existing = docs.find_document_by_path(store, str(path))
        if existing is not None and existing.sha256 == opened.sha256 \
                and existing.format == candidate.fmt and not (existing.ocr_pending and ocr_ready):
            if not ocr_ready:
                summary.ocr_waiting_pages += existing.ocr_pending
            _unchanged(store, existing.id, candidate.fmt, summary, lock, unindexed)
            return
        split = opened.parse()  # outside the lock: a long PDF must not hold up note saves
    except UnreadableFile as exc:
        summary.skipped.append((display_path(path), exc.reason))
        return
    saved = save_split(store, worker, path, candidate.fmt, opened.sha256, split, lock)
    if saved.outcome == "unchanged":  # another import of the same file got there first
        _unchanged(store, saved.document_id, candidate.fmt, summary, lock, unindexed)
        return
    for remark in split.notes:
        summary.remarks.append((display_path(path), remark))
    summary.links_lost.extend((display_path(path), link) for link in saved.lost_links)
    summary.dismissals_lost += saved.lost_dismissals
    summary.fragments += len(split.fragments)
    summary.per_format[candidate.fmt] += 1
    if split.ocr_pages:
        if ocr_ready:
            summary.ocr_documents.append(saved.document_id)
        else:
            summary.ocr_waiting_pages += len(split.ocr_pages)
    if saved.outcome == "added":
        summary.added += 1
    elif saved.outcome == "moved" and saved.moved_from is not None:
        summary.moved.append((display_path(saved.moved_from), display_path(path)))
    else:
        summary.updated += 1


def save_split(
    store: sqlite3.Connection, worker: IndexWorker, path: Path, fmt: str, sha: str,
    split: SplitResult, lock: AbstractContextManager[Any],
) -> docs.SavedDocument:
    """One parsed file into the store (one transaction), its fragments hinted to the worker."""
    with lock:
        twins = docs.content_twins(store, str(path), sha, fmt)
    lost = docs.lost_paths(twins, str(path))  # file system calls: with no lock held
    with lock:
        saved = docs.save_document(store, path=str(path), fmt=fmt, sha256=sha, title=split.title,
                                   specs=split.fragments, ocr_pending=len(split.ocr_pages), lost=lost)
    if saved.outcome != "unchanged":
        with lock:
            fragment_ids = docs.fragment_ids(store, saved.document_id)
        worker.enqueue([("fragment", fid) for fid in fragment_ids])  # a hint: the feed has them too
    return saved


def recognise_documents(
    store: sqlite3.Connection, worker: IndexWorker, document_ids: Sequence[int], engine: OcrEngine,
    *, progress: Progress | None = None, lock: AbstractContextManager[Any] | None = None,
) -> int:
    """OCR the scanned pages of these PDFs (their text pages are searchable already).

    Each document is read again with the engine and stored like a re-import of
    the same content, so fragments of its text pages keep their ids.  Returns
    the pages recognised.
    """
    lock = lock or contextlib.nullcontext()
    progress = progress or Progress()
    with lock:
        todo = [d for i in document_ids
                if (d := docs.find_document(store, i)) is not None and d.ocr_pending]
    progress.start("ocr", sum(d.ocr_pending for d in todo))
    recognised = 0
    for doc in todo:
        path = Path(doc.path)

        def on_page(_page: int, _pages: int) -> None:
            if progress.cancelled:
                raise Cancelled()

        try:
            opened = open_document(path, doc.format, include_generated=True, on_page=on_page,
                                   ocr=_Counting(engine, progress), ocr_ready=True)
            if opened.sha256 != doc.sha256:
                continue  # changed since: the next import reads it whole
            split = opened.parse()
        except (UnreadableFile, Cancelled):
            if progress.cancelled:
                break
            continue
        with lock:
            current = docs.find_document(store, doc.id)
        if current is None or current.sha256 != doc.sha256:
            continue
        save_split(store, worker, path, doc.format, doc.sha256, split, lock)
        recognised += doc.ocr_pending
    progress.finish()
    return recognised


class _Counting:
    """An OCR engine that ticks the progress once per recognised page."""

    def __init__(self, engine: OcrEngine, progress: Progress) -> None:
        self._engine = engine
        self._progress = progress

    def page_lines(self, image: Any, page_height: float, scale: float) -> list[Any]:
        if self._progress.cancelled:
            raise Cancelled()
        lines = self._engine.page_lines(image, page_height, scale)
        self._progress.tick()
        return lines


def _unchanged(
    store: sqlite3.Connection, document_id: int, fmt: str, summary: ImportSummary,
    lock: AbstractContextManager[Any], unindexed: UnindexedCheck | None,
) -> None:
    summary.unchanged += 1
    summary.per_format[fmt] += 1
    if unindexed is None:
        return
    with lock:
        fragment_ids = docs.fragment_ids(store, document_id)
    missing = unindexed(fragment_ids)
    if missing:
        with lock, transaction(store, "Queueing fragments for indexing"):
            feed.touch(store, "fragment", missing)
        summary.reindexed += 1


def remove_document(store: sqlite3.Connection, worker: IndexWorker, document_id: int) -> None:
    """Index rows first, then the document and its fragments (I4)."""
    keys = [("fragment", fid) for fid in docs.fragment_ids(store, document_id)]
    # The deletion runs inside the removal job (see IndexWorker.remove); the
    # caller holds the store's write lock.
    worker.remove(keys, then=lambda: docs.delete_document(store, document_id)).result()


__all__ = [
    "HIDDEN", "ImportSummary", "import_paths", "recognise_documents", "remove_document", "save_split",
]
