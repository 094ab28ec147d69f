"""The library: imported documents and their fragments, with a lock for *local only*.

Filled from one background load (``tasks.document_tasks.load_snapshot``); the tree
never queries the store itself.
"""

from __future__ import annotations

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

from desktop_kb.store.documents import Document, Fragment
from desktop_kb.tasks.document_tasks import LibrarySnapshot
from desktop_kb.ui import icons

DOC_ROLE = Qt.ItemDataRole.UserRole + 1
FRAG_ROLE = Qt.ItemDataRole.UserRole + 2


def fragment_label(fragment: Fragment) -> str:
    if fragment.heading_path:
        return fragment.heading_path.split(" > ")[-1].strip() or fragment.heading_path
    for line in fragment.text.splitlines():
        if line.strip():
            return line.strip()[:80]
    return f"#{fragment.ord + 1}"


class LibraryTree(QWidget):
    fragmentActivated = Signal(int, int)  # document id, fragment id
    localOnlyRequested = Signal(int, bool)  # document id, new value
    deleteRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header = QLabel(objectName="paneHeader")
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemClicked.connect(self._activated)
        self.empty = QLabel(objectName="emptyHint", wordWrap=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.header)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.empty)
        self.documents: dict[int, Document] = {}
        self.fragments: dict[int, Fragment] = {}
        self.retranslateUi()

    def set_snapshot(self, snapshot: LibrarySnapshot) -> None:
        expanded = {item.data(0, DOC_ROLE) for item in self._doc_items() if item.isExpanded()}
        self.tree.clear()
        self.documents = {d.id: d for d in snapshot.documents}
        self.fragments = {}
        items = []
        for doc in sorted(snapshot.documents, key=lambda d: d.title.casefold()):
            item = QTreeWidgetItem([doc.title])
            item.setData(0, DOC_ROLE, doc.id)
            item.setToolTip(0, f"{doc.path}\n{doc.format}")
            self._decorate(item, doc.local_only)
            for fragment in snapshot.fragments.get(doc.id, []):
                self.fragments[fragment.id] = fragment
                child = QTreeWidgetItem([fragment_label(fragment)])
                child.setData(0, DOC_ROLE, doc.id)
                child.setData(0, FRAG_ROLE, fragment.id)
                child.setToolTip(0, fragment.heading_path or fragment_label(fragment))
                item.addChild(child)
            items.append(item)
        self.tree.addTopLevelItems(items)
        for item in items:
            if item.data(0, DOC_ROLE) in expanded:
                item.setExpanded(True)
        self.empty.setVisible(not items)

    def set_local_only(self, document_id: int, local_only: bool) -> None:
        for item in self._doc_items():
            if item.data(0, DOC_ROLE) == document_id:
                self._decorate(item, local_only)
        doc = self.documents.get(document_id)
        if doc is not None:
            from dataclasses import replace

            self.documents[document_id] = replace(doc, local_only=local_only)

    def _decorate(self, item: QTreeWidgetItem, local_only: bool) -> None:
        item.setIcon(0, icons.svg("lock") if local_only else icons.standard(icons.SP.SP_FileIcon))

    def _doc_items(self) -> list[QTreeWidgetItem]:
        return [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        fragment_id = item.data(0, FRAG_ROLE)
        if fragment_id is not None:
            self.fragmentActivated.emit(int(item.data(0, DOC_ROLE)), int(fragment_id))

    def _context_menu(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        if item is None:
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
        self.tree.setToolTip(self.tr("Imported documents; right-click for local only"))
        self.empty.setText(self.tr("Nothing imported yet. Use File → Import folder…"))
