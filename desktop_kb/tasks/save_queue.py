"""One thread applies every note change in the order the person made it, and loses none.

A pool could run "save v2" before "save v1" or open a note before its last
save landed; a single ordered queue cannot. Repeated saves of the same note
that have not started yet coalesce into the newest text, so a fast typist
never builds a backlog. Loads of notes go through the same queue, so what the
editor shows is never older than what it last saved.

A save that fails is not dropped (I13): its text goes to a recovery file at
once (``desktop_kb.recovery``), the failure is reported with its reason, and
the save is retried with back-off until it succeeds — newer text for the same
note replaces the text being retried. A note that no longer exists (purged by
another process) cannot be saved again: its text becomes a new note, so the
words stay in the library. A note whose text another process changed since
the editor loaded it (``set_base``) keeps the editor's text, and the other
text becomes a new note: neither is overwritten unseen. ``pending_text`` lets
the window show unsaved text instead of the older stored one.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from desktop_kb import recovery
from desktop_kb.library import Library
from desktop_kb.store.notes import Base, NoteNotFound

log = logging.getLogger(__name__)

RETRY_FIRST_S = 1.0
# Why a text is kept that was still queued or being written when the window closed.
UNFINISHED_SAVE_MESSAGE = ("The save had not finished when Desktop KB closed; the text is kept and "
                           "offered back when it starts again.")
RETRY_MAX_S = 30.0


@dataclass
class _Save:
    note_id: int
    title: str
    body: str
    attempts: int = 0
    next_at: float = 0.0  # monotonic time of the next attempt (retries only)
    kept_at: str = ""  # where the recovery file is, once written


@dataclass
class _Job:
    ticket: int
    fn: Callable[[Library], Any]


@dataclass
class Unsaved:
    """A note whose latest text is not in the library yet."""

    note_id: int
    title: str
    body: str
    reason: str
    kept_at: str  # the recovery file ("" if even that could not be written)


@dataclass
class _State:
    failing: dict[int, _Save] = field(default_factory=dict)  # note id -> save being retried
    reasons: dict[int, str] = field(default_factory=dict)


class SaveQueue(QObject):
    """A dedicated writer thread for notes, reporting back by signal."""

    saved = Signal(int, bool)  # note id, whether anything changed
    saveFailed = Signal(int, str)  # note id, reason (the save is retried)
    noteRecreated = Signal(int, int)  # old note id, new note id (the old one was purged elsewhere)
    otherVersionKept = Signal(int, int)  # note id, the new note holding text saved elsewhere meanwhile
    _jobDone = Signal(int, object)
    _jobFailed = Signal(int, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library: Library | None = None
        self._cv = threading.Condition()
        self._queue: deque[_Save | _Job] = deque()
        self._state = _State()
        self._bases: dict[int, Base] = {}  # note id -> the version the editor's text replaces
        self._local_only: set[int] = set()  # notes the editor knows to be local-only
        # The title of a note that keeps a version saved elsewhere (the window translates it).
        self.other_title: Callable[[str], str] = lambda title: f"{title} (other version)"
        self._busy = False
        self._current: _Save | _Job | None = None
        self._stopping = False
        self._tickets = 0
        self._callbacks: dict[int, tuple[Callable[[Any], None] | None,
                                         Callable[[BaseException], None] | None]] = {}
        self._jobDone.connect(self._deliver_done)
        self._jobFailed.connect(self._deliver_failed)
        self._thread = threading.Thread(target=self._run, name="note-saver", daemon=True)
        self._thread.start()

    def set_library(self, library: Library | None) -> None:
        with self._cv:
            self._library = library
            self._cv.notify_all()

    # ----- GUI thread --------------------------------------------------------------

    def save(self, note_id: int, title: str, body: str) -> None:
        with self._cv:
            failing = self._state.failing.get(note_id)
            if failing is not None:  # being retried: the newest text is what to retry
                failing.title, failing.body, failing.next_at = title, body, 0.0
                self._cv.notify_all()
                return
            for item in self._queue:
                if isinstance(item, _Save) and item.note_id == note_id:
                    item.title, item.body = title, body  # not started yet: newest text wins
                    return
            self._queue.append(_Save(note_id, title, body))
            self._cv.notify_all()

    def set_base(self, note_id: int, change_seq: int, title: str, body: str, *,
                 local_only: bool = False) -> None:
        """The editor shows this version of the note: its next save replaces exactly this.

        Call it when text is loaded into the editor with nothing of that note
        waiting to be saved. ``local_only``: if the note is purged elsewhere while
        being edited, the note its words are saved into is local-only too (I11).
        """
        with self._cv:
            self._bases[note_id] = Base(change_seq, title, body)
            self.set_local_only(note_id, local_only)

    def set_local_only(self, note_id: int, local_only: bool) -> None:
        with self._cv:
            if local_only:
                self._local_only.add(note_id)
            else:
                self._local_only.discard(note_id)

    def base_seq(self, note_id: int) -> int:
        """The feed number of the version the editor's text replaces (-1: none known)."""
        with self._cv:
            base = self._bases.get(note_id)
            return -1 if base is None else base.change_seq

    def submit(
        self, fn: Callable[[Library], Any], on_done: Callable[[Any], None] | None = None,
        on_failed: Callable[[BaseException], None] | None = None,
    ) -> None:
        """Run ``fn(library)`` after every change queued before it."""
        self._tickets += 1
        ticket = self._tickets
        self._callbacks[ticket] = (on_done, on_failed)
        with self._cv:
            self._queue.append(_Job(ticket, fn))
            self._cv.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything queued so far is applied, failing saves included."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            while self._queue or self._busy or self._state.failing:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cv.wait(remaining)
        return True

    def stop(self, timeout: float | None = 30.0) -> bool:
        """Apply what is queued, then end the thread; returns False if something is unsaved.

        What is unsaved then is in its recovery file (see ``unsaved``); the
        caller tells the person before the window goes.
        """
        flushed = self.flush(timeout)
        with self._cv:
            self._stopping = True
            self._cv.notify_all()
        self._thread.join(timeout)
        if not flushed:
            self._keep_unfinished()
        return flushed

    def _keep_unfinished(self) -> None:
        """Texts still queued, or being written, when the wait ran out were neither in the
        library nor in a recovery file, and the process may end now: keep them, and list them
        as unsaved. A queued save is never tried now (the thread stops); one being written may
        still succeed, and then removes its file as any save does."""
        with self._cv:
            library = self._library
            current = self._current if isinstance(self._current, _Save) else None
            queued = [q for q in self._queue if isinstance(q, _Save)]
            self._queue = deque(q for q in self._queue if not isinstance(q, _Save))
            for item in queued:  # the newest text of its note: an older failing one is replaced
                self._state.failing[item.note_id] = item
            self._cv.notify_all()
        if library is None:
            return
        for item in ([current] if current is not None and current.note_id not in
                     {q.note_id for q in queued} else []) + queued:
            with self._cv:
                reason = self._state.reasons.setdefault(item.note_id, UNFINISHED_SAVE_MESSAGE)
            self._keep(library, item, reason)

    def retry_now(self) -> None:
        """Try the failing saves again at once (the person freed space, say)."""
        with self._cv:
            for item in self._state.failing.values():
                item.next_at = 0.0
            self._cv.notify_all()

    @property
    def pending(self) -> int:
        with self._cv:
            return len(self._queue) + len(self._state.failing) + (1 if self._busy else 0)

    def pending_text(self, note_id: int) -> tuple[str, str] | None:
        """The newest text of a note that is queued or failing (newer than the library's)."""
        with self._cv:
            failing = self._state.failing.get(note_id)
            if failing is not None:
                return failing.title, failing.body
            for item in reversed(self._queue):
                if isinstance(item, _Save) and item.note_id == note_id:
                    return item.title, item.body
            item = self._current  # being written right now
            if isinstance(item, _Save) and item.note_id == note_id:
                return item.title, item.body
        return None

    def unsaved(self) -> list[Unsaved]:
        with self._cv:
            items = list(self._state.failing.values())
            if self._stopping and isinstance(self._current, _Save) \
                    and self._current.note_id not in self._state.failing:
                items.append(self._current)  # still being written after the wait: kept, not in yet
            return [Unsaved(s.note_id, s.title, s.body, self._state.reasons.get(s.note_id, ""),
                            s.kept_at) for s in items]

    @Slot(int, object)
    def _deliver_done(self, ticket: int, result: object) -> None:
        on_done, _ = self._callbacks.pop(ticket, (None, None))
        if on_done is not None:
            on_done(result)

    @Slot(int, object)
    def _deliver_failed(self, ticket: int, exc: object) -> None:
        _, on_failed = self._callbacks.pop(ticket, (None, None))
        if on_failed is not None:
            on_failed(exc)  # type: ignore[arg-type]
        else:
            log.warning("note change failed: %s", exc)

    # ----- saver thread ------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cv:
                item: _Save | _Job | None = None
                while item is None:
                    if self._stopping:
                        return
                    if self._library is None:
                        self._cv.wait()
                        continue
                    item = self._next_locked()
                    if item is None:
                        self._cv.wait(self._wait_locked())
                library = self._library
                self._busy = True
                self._current = item
            try:
                self._apply(library, item)
            finally:
                with self._cv:
                    self._busy = False
                    self._current = None
                    self._cv.notify_all()

    def _next_locked(self) -> _Save | _Job | None:
        now = time.monotonic()
        due = [s for s in self._state.failing.values() if s.next_at <= now]
        if due:
            item = min(due, key=lambda s: s.next_at)
            del self._state.failing[item.note_id]
            return item
        return self._queue.popleft() if self._queue else None

    def _wait_locked(self) -> float | None:
        if not self._state.failing:
            return None
        return max(0.0, min(s.next_at for s in self._state.failing.values()) - time.monotonic())

    def _apply(self, library: Library, item: _Save | _Job) -> None:
        if isinstance(item, _Save):
            self._apply_save(library, item)
            return
        try:
            result = item.fn(library)
        except Exception as exc:  # noqa: BLE001 - handed to the caller's on_failed
            self._emit(self._jobFailed, item.ticket, exc)
        else:
            self._emit(self._jobDone, item.ticket, result)

    def _apply_save(self, library: Library, item: _Save) -> None:
        data_dir = library.paths.data_dir
        with self._cv:
            base = self._bases.get(item.note_id)
        try:
            outcome = library.save_note_over(item.note_id, item.title, item.body, base,
                                             self.other_title(item.title))
        except NoteNotFound:
            self._recreate(library, item)
            return
        except Exception as exc:  # noqa: BLE001 - kept, reported, retried
            self._failed(library, item, exc)
            return
        with self._cv:
            self._state.reasons.pop(item.note_id, None)
            self._bases[item.note_id] = outcome.base
            newer = self._has_newer_locked(item.note_id)
        if not newer:  # nothing of this note is waiting: no recovered text is needed any more
            recovery.discard(data_dir, item.note_id)
        if outcome.other_version is not None:
            self._emit(self.otherVersionKept, item.note_id, outcome.other_version)
        self._emit(self.saved, item.note_id, outcome.changed)

    def _has_newer_locked(self, note_id: int) -> bool:
        return note_id in self._state.failing or any(
            isinstance(q, _Save) and q.note_id == note_id for q in self._queue)

    def _keep(self, library: Library, item: _Save, reason: str) -> None:
        """Keep the text in its recovery file, beside the base it was edited from (kept_at is ""
        when even that cannot be written)."""
        with self._cv:
            base = self._bases.get(item.note_id)
        try:
            item.kept_at = str(recovery.keep(
                library.paths.data_dir, item.note_id, item.title, item.body, reason,
                library_id=library.library_id, base=(base.title, base.body) if base else None))
        except OSError as exc:
            log.error("could not keep the text of note %s anywhere: %s", item.note_id, exc)
            item.kept_at = ""

    def _failed(self, library: Library, item: _Save, exc: Exception) -> None:
        reason = str(exc) or type(exc).__name__
        log.warning("saving note %s failed (attempt %s): %s", item.note_id, item.attempts + 1, reason)
        self._keep(library, item, reason)
        item.attempts += 1
        item.next_at = time.monotonic() + min(RETRY_MAX_S, RETRY_FIRST_S * 2 ** (item.attempts - 1))
        with self._cv:
            if not self._has_newer_locked(item.note_id):  # else the newer text is tried next
                self._state.failing[item.note_id] = item
            self._state.reasons[item.note_id] = reason
            self._cv.notify_all()
        self._emit(self.saveFailed, item.note_id, reason)

    def _recreate(self, library: Library, item: _Save) -> None:
        """The note was purged by another process while being edited: keep the words as a new note."""
        with self._cv:
            private = item.note_id in self._local_only
        try:
            new_id = library.add_note(item.title, item.body, local_only=private)
        except Exception as exc:  # noqa: BLE001 - kept and retried like any failed save
            self._failed(library, item, exc)
            return
        recovery.discard(library.paths.data_dir, item.note_id)
        with self._cv:
            self._state.reasons.pop(item.note_id, None)
            if private:
                self._local_only.add(new_id)
        self._emit(self.noteRecreated, item.note_id, new_id)

    @staticmethod
    def _emit(signal: Any, *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the receiver is gone
            signal.emit(*args)
