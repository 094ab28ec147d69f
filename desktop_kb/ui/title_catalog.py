"""The titles of live notes, held for the GUI: link completion and resolved/unresolved styling.

Loaded off the GUI thread (``Library.list_notes``) and patched after saves, so
typing ``[[`` never waits on the database. Resolution here is only for drawing;
opening a link asks the library, which is the authority.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from desktop_kb.markup.title_match import TitleIndex, TitleMatch
from desktop_kb.markup.titles import title_key


class TitleCatalog(QObject):
    changed = Signal()  # the set of titles changed (not merely their order)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._titles: dict[int, str] = {}  # most recently edited first
        self._keys: dict[str, int] = {}
        self._lock = threading.Lock()
        self._index: TitleIndex | None = None
        self._indexed: tuple[tuple[int, str], ...] = ()
        self._snapshot: tuple[tuple[int, str], ...] = ()

    def set_titles(self, titles: list[tuple[int, str]]) -> None:
        self._titles = dict(titles)
        self._changed(rekey=True)

    def put(self, note_id: int, title: str) -> None:
        """A note was created or saved: move it to the front with its current title."""
        renamed = self._titles.get(note_id) != title
        if not renamed and next(iter(self._titles), None) == note_id:
            return
        self._titles.pop(note_id, None)
        self._titles = {note_id: title, **self._titles}
        self._changed(rekey=renamed)

    def drop(self, note_id: int) -> None:
        if self._titles.pop(note_id, None) is not None:
            self._changed(rekey=True)

    def _changed(self, *, rekey: bool) -> None:
        self._snapshot = tuple(self._titles.items())
        if not rekey:
            return
        keys: dict[str, int] = {}
        for note_id, title in sorted(self._titles.items()):  # the oldest note wins, as in the store
            keys.setdefault(title_key(title), note_id)
        self._keys = keys
        self.changed.emit()

    def resolves(self, key: str) -> bool:
        return key in self._keys

    def title_of(self, note_id: int) -> str | None:
        return self._titles.get(note_id)

    def rank(self, typed: str, limit: int, exclude: int | None = None) -> list[TitleMatch]:
        """Any thread: ranks a snapshot, folding titles again only after they changed."""
        snapshot = self._snapshot
        with self._lock:
            if self._index is None or self._indexed is not snapshot:
                self._index, self._indexed = TitleIndex(snapshot), snapshot
            index = self._index
        return index.rank(typed, limit, exclude=exclude)

    def __len__(self) -> int:
        return len(self._titles)
