"""The library: imported documents in the folders they came from, with a lock for *local only*.

Folders are rebuilt from the documents' paths; chains of folders with a single
child collapse into one row ("…/rust-book-cn/src"), so a library imported from
one folder opens on that folder.  Activating a document opens it whole in the
reader.  Filled from one background load (``tasks.document_tasks.load_snapshot``);
the tree never queries the store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import PurePath

from PySide6.QtCore import QEvent, QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.markup.plain import plain_title
from desktop_kb.store.documents import Document
from desktop_kb.tasks.document_tasks import LibrarySnapshot
from desktop_kb.ui import icons

DOC_ROLE = Qt.ItemDataRole.UserRole + 1
FOLDER_ROLE = Qt.ItemDataRole.UserRole + 2


@dataclass
class _Folder:
    name: str
    folders: dict[str, _Folder] = field(default_factory=dict)
    documents: list[Document] = field(default_factory=list)


def folder_tree(documents: list[Document]) -> _Folder:
    """Documents placed in a tree of their folders, single-child chains collapsed."""
    root = _Folder("")
    for doc in documents:
        node = root
        for part in PurePath(doc.path).parent.parts:
            node = node.folders.setdefault(part, _Folder(part))
        node.documents.append(doc)
    return _collapse(root)


def _collapse(node: _Folder) -> _Folder:
    for key, child in list(node.folders.items()):
        while len(child.folders) == 1 and not child.documents:
            (only,) = child.folders.values()
            child = _Folder(str(PurePath(child.name) / only.name), only.folders, only.documents)
        node.folders[key] = _collapse(child)
    if node.name == "" and len(node.folders) == 1 and not node.documents:
        return next(iter(node.folders.values()))  # one top folder: it is the root
    return node


_NUMBER_RE = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """File-manager order: numbers compared as numbers ("ch2" before "ch10"), case ignored."""
    return tuple((0, int(part)) if part.isdigit() else (1, part)
                 for part in _NUMBER_RE.split(name.casefold()) if part)


def _reading_order(doc: Document) -> tuple[tuple[tuple[int, int | str], ...], str]:
    """Documents in the order of their files, as the folder lists them: a book's chapters
    (ch01-00-getting-started.md, ch01-01-installation.md …) are named in reading order, and
    their titles ("Cargo 工作空间", "Hello, Cargo!") are not."""
    return natural_key(PurePath(doc.path).name), plain_title(doc.title).casefold()


def _short(name: str) -> str:
    parts = PurePath(name).parts
    return name if len(parts) <= 2 else "…/" + "/".join(parts[-2:])


class LibraryTree(QWidget):
    documentActivated = Signal(int)  # document id
    localOnlyRequested = Signal(int, bool)  # document id, new value
    deleteRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header = QLabel(objectName="paneHeader")
        self.tree = QTreeWidget()
        self.header.setBuddy(self.tree)  # a screen reader names the tree by its header
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.tree.itemActivated.connect(self._activated)
        self.empty = QLabel(objectName="emptyHint", wordWrap=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.header)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.empty)
        self.documents: dict[int, Document] = {}
        self.retranslateUi()

    def set_snapshot(self, snapshot: LibrarySnapshot) -> None:
        collapsed = {item.data(0, FOLDER_ROLE) for item in self._folder_items() if not item.isExpanded()}
        self.tree.clear()
        self.documents = {d.id: d for d in snapshot.documents}
        root = folder_tree(snapshot.documents)
        self._fill(self.tree.invisibleRootItem(), root, root.name, collapsed)
        self.empty.setVisible(not snapshot.documents)

    def _fill(self, parent: QTreeWidgetItem, node: _Folder, path: str, collapsed: set[str]) -> None:
        for name in sorted(node.folders, key=natural_key):
            child = node.folders[name]
            full = str(PurePath(path) / child.name) if path else child.name
            item = QTreeWidgetItem([_short(child.name)])
            item.setData(0, FOLDER_ROLE, full)
            item.setToolTip(0, full)
            item.setIcon(0, icons.standard(icons.SP.SP_DirIcon))
            parent.addChild(item)
            self._fill(item, child, full, collapsed)
            item.setExpanded(full not in collapsed)
        for doc in sorted(node.documents, key=_reading_order):
            item = QTreeWidgetItem([plain_title(doc.title)])
            item.setData(0, DOC_ROLE, doc.id)
            item.setToolTip(0, f"{doc.path}\n{doc.format}")
            self._decorate(item, doc.local_only)
            parent.addChild(item)

    def set_local_only(self, document_id: int, local_only: bool) -> None:
        for item in self._doc_items():
            if item.data(0, DOC_ROLE) == document_id:
                self._decorate(item, local_only)
        doc = self.documents.get(document_id)
        if doc is not None:
            self.documents[document_id] = replace(doc, local_only=local_only)

    def show_open(self, document_id: int) -> None:
        """The open document is the tree's selection (a hit or citation opened another one
        while the tree still showed the last document clicked); nothing is activated."""
        item = next((i for i in self._doc_items() if i.data(0, DOC_ROLE) == document_id), None)
        if item is None:
            self.tree.clearSelection()
            return
        self.tree.setCurrentItem(item)
        self.tree.scrollToItem(item)

    def _decorate(self, item: QTreeWidgetItem, local_only: bool) -> None:
        item.setIcon(0, icons.svg("lock") if local_only else icons.standard(icons.SP.SP_FileIcon))

    def _all_items(self) -> list[QTreeWidgetItem]:
        out: list[QTreeWidgetItem] = []
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            item = stack.pop()
            out.append(item)
            stack.extend(item.child(i) for i in range(item.childCount()))
        return out

    def _doc_items(self) -> list[QTreeWidgetItem]:
        return [item for item in self._all_items() if item.data(0, DOC_ROLE) is not None]

    def _folder_items(self) -> list[QTreeWidgetItem]:
        return [item for item in self._all_items() if item.data(0, FOLDER_ROLE) is not None]

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        document_id = item.data(0, DOC_ROLE)
        if document_id is not None:
            self.documentActivated.emit(int(document_id))

    def _context_menu(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        if item is None or item.data(0, DOC_ROLE) is None:
            return
        document_id = int(item.data(0, DOC_ROLE))
        doc = self.documents.get(document_id)
        if doc is None:
            return
        menu = QMenu(self)
        local = QAction(self.tr("Local only (never sent to a cloud service)"), menu, checkable=True)
        local.setChecked(doc.local_only)
        local.setIcon(icons.svg("lock"))
        local.toggled.connect(lambda on: self.localOnlyRequested.emit(document_id, on))
        remove = QAction(self.tr("Remove from library"), menu)
        remove.setIcon(icons.standard(icons.SP.SP_TrashIcon))
        remove.triggered.connect(lambda: self.deleteRequested.emit(document_id))
        menu.addAction(local)
        menu.addSeparator()
        menu.addAction(remove)
        menu.popup(self.tree.viewport().mapToGlobal(pos))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.header.setText(self.tr("Library"))
        self.tree.setToolTip(self.tr("Imported documents in their folders: double-click to read, "
                                     "right-click for local only"))
        self.empty.setText(self.tr("Nothing imported yet. Drop files or folders here, or use "
                                   "File → Import folder…"))
