"""Related material for the open note, computed off the GUI thread.

Suggestions refresh when the open note changes and after the save hook has
indexed it (the index worker's ``indexed`` event) — never per keystroke. A
refresh first passes through the ordered note queue, so it sees every save,
link, dismissal or deletion queued before it; the computation itself runs on
the task runner. Each refresh carries a generation: a result for a note that
is no longer open, or overtaken by a newer refresh, is dropped.

Writes (accept, dismiss, remove, undo) go through the same ordered queue and
only ever happen because the person clicked (I9).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot
from shiboken6 import isValid

from desktop_kb.discovery.links_view import NoteLinks
from desktop_kb.discovery.panel import RelatedMaterial
from desktop_kb.index.worker import IndexEvent
from desktop_kb.library import Library
from desktop_kb.tasks.library_tasks import TaskRunner, describe_error

Submit = Callable[..., None]  # SaveQueue.submit(fn(library), on_done, on_failed)

#: Worker events after which what the panel shows may be out of date.
_ALWAYS = frozenset({"rebuilt", "model", "verified"})


@dataclass(frozen=True)
class Action:
    """A change the person made, kept so it can be undone."""

    kind: str  # "link" | "dismiss" | "unlink"
    note_id: int
    target_type: str
    target_id: int
    title: str
    origin: str = "suggestion"
    copies: tuple[tuple[str, int], ...] = ()  # a dismissal covers every copy of the passage


@dataclass(frozen=True)
class RelatedView:
    note_id: int
    result: RelatedMaterial
    links: NoteLinks


class RelatedController(QObject):
    viewReady = Signal(object)  # RelatedView for the open note
    busyChanged = Signal(bool)
    enabledChanged = Signal(bool)
    actionDone = Signal(object)  # Action (undoable)
    undone = Signal(object)  # Action
    failed = Signal(str)
    _event = Signal(object)  # IndexEvent, posted from the index worker thread

    def __init__(self, runner: TaskRunner, submit: Submit, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._submit = submit
        self._library: Library | None = None
        self._loaded = False  # no work until the library's switch has been read
        self.enabled = True
        self.note_id: int | None = None
        self._generation = 0
        self._in_flight = False
        self._again = False
        self._watched: frozenset[tuple[str, int]] = frozenset()
        self.last_action: Action | None = None
        self.last_view: RelatedView | None = None
        self._event.connect(self._on_event)

    # ----- wiring ----------------------------------------------------------------

    def set_library(self, library: Library | None) -> None:
        self._library = library
        if library is None:
            return
        library.worker.add_listener(self.listener)
        self._runner.run(lambda: bool(library.get_setting("discovery.enabled")), self._switch_loaded)

    @property
    def read_only(self) -> bool:
        """The library is on a read-only disk: nothing can be linked, dismissed or installed."""
        return self._library is not None and self._library.read_only is not None

    def _switch_loaded(self, on: bool) -> None:
        self._loaded = True
        if on != self.enabled:
            self.set_enabled(on)
        else:
            self.refresh()

    def set_enabled(self, on: bool) -> None:
        """The ``discovery.enabled`` switch: off stops all work (no events, no queries)."""
        on = bool(on)
        if on == self.enabled:
            return
        self.enabled = on
        self._generation += 1
        self.enabledChanged.emit(on)
        if on:
            self.refresh()

    def set_note(self, note_id: int | None) -> None:
        if note_id == self.note_id:
            return
        self.note_id = note_id
        self.last_view = None
        self._watched = frozenset()
        self._generation += 1  # anything in flight is for another note now
        if note_id is not None:
            self.refresh()

    def listener(self, event: IndexEvent) -> None:
        """Index worker thread: pass on only the events that concern what is shown."""
        if not self.enabled or self.note_id is None:
            return
        relevant = (
            event.kind in _ALWAYS
            or (event.kind == "indexed" and event.key == ("note", self.note_id))
            or (event.kind == "removed" and event.key in self._watched)
        )
        if relevant:
            with contextlib.suppress(RuntimeError):  # the controller is gone
                self._event.emit(event)

    @Slot(object)
    def _on_event(self, _event: IndexEvent) -> None:
        self.refresh()

    # ----- refresh -----------------------------------------------------------------

    def refresh(self) -> None:
        library = self._library
        if library is None or not self._loaded or not self.enabled or self.note_id is None:
            return
        if self._in_flight:
            self._again = True
            return
        self._in_flight = True
        self._again = False
        self.busyChanged.emit(True)
        generation, note_id = self._generation, self.note_id

        def compute() -> RelatedView:
            return RelatedView(note_id, library.related_material(note_id), library.note_links(note_id))

        def launch(_barrier: object) -> None:
            if not isValid(self) or self._library is not library:  # closed meanwhile
                self._in_flight = False
                return
            self._runner.run(compute, lambda view: self._deliver(generation, view),
                             lambda exc: self._failed(generation, exc))

        # The barrier orders this after every queued save, link or deletion.
        self._submit(lambda _lib: None, launch, lambda exc: self._failed(generation, exc))

    def stop(self) -> None:
        """The window is closing: start nothing new (results still in flight are dropped)."""
        self._library = None
        self._generation += 1

    def _finish(self) -> bool:
        self._in_flight = False
        if not isValid(self):  # the window closed while the work ran
            return False
        if self._again and self.enabled and self.note_id is not None:
            self.refresh()
            return False
        self.busyChanged.emit(False)
        return True

    def _deliver(self, generation: int, view: RelatedView) -> None:
        current = generation == self._generation and view.note_id == self.note_id and self.enabled
        if current:
            self.last_view = view
            self._watched = frozenset(
                [key for group in view.result.groups for key in group.keys]
                + [(e.target_type, e.target_id) for e in view.links.outgoing]
                + [("note", e.target_id) for e in view.links.backlinks])
        if not self._finish() or not current:
            return
        self.viewReady.emit(view)

    def _failed(self, generation: int, exc: BaseException) -> None:
        self._finish()
        if generation == self._generation and isValid(self):
            self.failed.emit(describe_error(exc))

    # ----- the person's decisions ---------------------------------------------------

    def _apply(self, action: Action, fn: Callable[[Library], Any], *, undo: bool = False) -> None:
        def done(_result: object) -> None:
            if not isValid(self):
                return
            if undo:
                self.last_action = None
                self.undone.emit(action)
            else:
                self.last_action = action
                self.actionDone.emit(action)
            self.refresh()

        def failed(exc: BaseException) -> None:
            if isValid(self):
                self.failed.emit(describe_error(exc))
                self.refresh()

        self._submit(fn, done, failed)

    def accept(self, target_type: str, target_id: int, title: str = "") -> None:
        note_id = self.note_id
        if note_id is None:
            return
        self._apply(Action("link", note_id, target_type, target_id, title),
                    lambda lib: lib.link(note_id, target_type, target_id, origin="suggestion"))

    def dismiss(self, target_type: str, target_id: int, title: str = "",
                copies: tuple[tuple[str, int], ...] = ()) -> None:
        """Never suggest this passage — nor its copies elsewhere — for the open note."""
        note_id = self.note_id
        if note_id is None:
            return
        targets = ((target_type, target_id), *copies)
        self._apply(Action("dismiss", note_id, target_type, target_id, title, copies=copies),
                    lambda lib: lib.dismiss_many(note_id, targets))

    def remove_link(self, note_id: int, target_type: str, target_id: int, title: str = "",
                    origin: str = "manual") -> None:
        """Remove ``note_id → target`` (a backlink is removed from the other note's side)."""
        self._apply(Action("unlink", note_id, target_type, target_id, title, origin),
                    lambda lib: lib.unlink(note_id, target_type, target_id))

    def undo(self) -> None:
        action = self.last_action
        if action is None:
            return
        n, t, i = action.note_id, action.target_type, action.target_id
        if action.kind == "link":
            self._apply(action, lambda lib: lib.unlink(n, t, i), undo=True)
        elif action.kind == "dismiss":
            targets = ((t, i), *action.copies)
            self._apply(action, lambda lib: lib.dismiss_many(n, targets, undo=True), undo=True)
        else:
            self._apply(action, lambda lib: lib.link(n, t, i, origin=action.origin), undo=True)
