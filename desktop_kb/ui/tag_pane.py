"""The tag pane: every #tag of live notes as a tree with note counts; choosing tags filters the list.

Nested tags (``#学习/Rust``) sit under their parent, whose count includes them.
Click a tag to see its notes, Ctrl+click to add more (notes must carry all), click
it again (or ✕ in the note list) for all notes. Rows arrive from a background load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.store.tags import TagCount
from desktop_kb.tasks.library_tasks import LatestOnly

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow

KEY_ROLE = Qt.ItemDataRole.UserRole + 1


class TagPane(QWidget):
    filterChosen = Signal(object)  # list[str] of tag keys

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header = QLabel(objectName="paneHeader")
        self.empty = QLabel(objectName="emptyHint", wordWrap=True)
        self.tree = QTreeWidget(objectName="tagTree")
        self.header.setBuddy(self.tree)  # a screen reader names the tree by its header
        self.tree.setHeaderHidden(True)
        self.tree.setColumnCount(2)
        self.tree.setRootIsDecorated(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.itemSelectionChanged.connect(self._selection_changed)
        self.items: dict[str, QTreeWidgetItem] = {}
        self._quiet = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.header)
        layout.addWidget(self.empty)
        layout.addWidget(self.tree, 1)
        self.set_tags([])
        self.retranslateUi()

    def set_tags(self, tags: list[TagCount]) -> None:
        chosen = self.chosen()
        self._quiet = True
        try:
            self.tree.clear()
            self.items = {}
            for tag in tags:  # sorted by key: parents come before their children
                parent_key = tag.key.rsplit("/", 1)[0] if "/" in tag.key else None
                parent = self.items.get(parent_key) if parent_key else None
                item = QTreeWidgetItem([f"#{tag.leaf}" if parent is None else tag.leaf, str(tag.notes)])
                item.setData(0, KEY_ROLE, tag.key)
                item.setToolTip(0, f"#{tag.label}")
                item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
                item.setForeground(1, self._count_brush())
                (parent.addChild(item) if parent else self.tree.addTopLevelItem(item))
                self.items[tag.key] = item
            self.tree.expandAll()
            header = self.tree.header()
            header.setStretchLastSection(False)
            header.setSectionResizeMode(0, header.ResizeMode.Stretch)
            header.setSectionResizeMode(1, header.ResizeMode.ResizeToContents)  # counts stay whole
            for key in chosen:
                if key in self.items:
                    self.items[key].setSelected(True)
        finally:
            self._quiet = False
        self.empty.setVisible(not tags)
        self.tree.setVisible(bool(tags))
        self._fit_hint()

    def _fit_hint(self) -> None:
        """Ask the splitter for the height the wrapped hint needs at this width: at 150 % with
        Ask the library open the pane is narrow, the hint takes two lines, and the splitter
        gave it one, cut through the middle ("还没有标签：在笔记中写 #标签。")."""
        if not self.empty.isVisibleTo(self):
            self.setMinimumHeight(0)
            return
        margins = self.layout().contentsMargins()
        width = max(1, self.width() - margins.left() - margins.right())
        self.setMinimumHeight(margins.top() + margins.bottom() + self.layout().spacing()
                              + self.header.sizeHint().height() + self.empty.heightForWidth(width))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_hint()

    def chosen(self) -> list[str]:
        return [str(item.data(0, KEY_ROLE)) for item in self.tree.selectedItems()]

    def show_filter(self, keys: list[str]) -> None:
        """Mirror a filter set elsewhere (a clicked #tag in a note, ✕ in the list)."""
        self._quiet = True
        try:
            self.tree.clearSelection()
            for key in keys:
                if key in self.items:
                    self.items[key].setSelected(True)
        finally:
            self._quiet = False

    def _selection_changed(self) -> None:
        if not self._quiet:
            self.filterChosen.emit(self.chosen())

    def _count_brush(self) -> QBrush:
        return self.palette().placeholderText()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        elif event.type() in (QEvent.Type.PaletteChange, QEvent.Type.StyleChange):
            # The counts keep the colour they were given: after a switch to the dark theme they
            # were the light theme's grey on the dark background, unreadable.
            for item in self.items.values():
                item.setForeground(1, self._count_brush())
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.header.setText(self.tr("Tags"))
        self.empty.setText(self.tr("No tags yet: write #tag in a note."))
        self.empty.setToolTip(self.tr("Write #tag in a note to tag it; tags appear here with their notes."))
        self._fit_hint()
        self.tree.setToolTip(self.tr("Click a tag to list its notes; Ctrl+click to combine tags"))


REFRESH_MS = 1200  # after a save: tags change with the text, the pane need not follow each key


class TagPaneController(QObject):
    """Loads tag counts off the GUI thread and ties the pane, the note list and #tag clicks."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.pane = TagPane()
        window.left.insertWidget(1, self.pane)
        window.left.setStretchFactor(1, 1)
        self.pane.filterChosen.connect(window.note_list.set_tag_filter)
        window.note_list.tagFilterChanged.connect(self._filter_changed)
        window.editor.tagActivated.connect(self.show_tag)
        self._latest = LatestOnly()
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        window.libraryOpened.connect(lambda _lib: self.refresh())
        window.save_queue.saved.connect(lambda _id, changed: changed and self._timer.start())
        for signal in (window.trash.noteTrashed, window.trash.noteRestored, window.notes.noteCreated):
            signal.connect(lambda _id: self._timer.start())

    def refresh_soon(self) -> None:
        """Notes changed (here or in another program): count the tags again shortly."""
        self._timer.start()

    def refresh(self) -> None:
        library = self.window.library
        if library is None:
            return
        # Two counts in flight (a save's and a trashing's, a big library under load): a #tag
        # just written or removed must not come back as it was.
        self.window.runner.run(library.tags, self._latest(self._loaded))

    def _loaded(self, tags: list[TagCount]) -> None:
        self.window.note_list.set_tag_labels({t.key: t.label for t in tags})
        self.pane.set_tags(tags)

    def show_tag(self, key: str) -> None:
        """A #tag was clicked in a note: list the notes carrying it."""
        if self.window.note_list.showing_trash:
            self.window.note_list.trash_button.setChecked(False)
        self.window.note_list.set_tag_filter([key])

    def _filter_changed(self, keys: list[str]) -> None:
        self.pane.show_filter(keys)
        self.window.notes.reload_notes()


def install_tag_pane(window: MainWindow) -> TagPaneController:
    return TagPaneController(window)
