"""The note list: filter box, sort order, trash view. Holds rows, never queries.

Rows arrive from a background load and are patched in place after saves, so
typing in the editor never reloads the list.
"""

from __future__ import annotations

import time
from dataclasses import replace

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QFont, QGuiApplication, QIcon, QKeyEvent, QPainter, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.tasks.note_tasks import NoteRow
from desktop_kb.ui import icons

ID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_UPDATED_ROLE = Qt.ItemDataRole.UserRole + 2
SORT_TITLE_ROLE = Qt.ItemDataRole.UserRole + 3
FILTER_ROLE = Qt.ItemDataRole.UserRole + 4
SUBTITLE_ROLE = Qt.ItemDataRole.UserRole + 5
LOCAL_ROLE = Qt.ItemDataRole.UserRole + 6

AnyIndex = QModelIndex | QPersistentModelIndex


class NoteListModel(QAbstractListModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[NoteRow] = []

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row.title or self.tr("Untitled")
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.title
        if role == ID_ROLE:
            return row.id
        if role == SORT_UPDATED_ROLE:
            return row.updated_at
        if role == SORT_TITLE_ROLE:
            return row.title.casefold()
        if role == FILTER_ROLE:
            return f"{row.title}\n{row.preview}"
        if role == SUBTITLE_ROLE:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.updated_at))
            return f"{when}  {row.preview}"
        if role == LOCAL_ROLE:
            return row.local_only
        return None

    def set_rows(self, rows: list[NoteRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_of(self, note_id: int) -> int:
        for i, row in enumerate(self._rows):
            if row.id == note_id:
                return i
        return -1

    def get(self, note_id: int) -> NoteRow | None:
        i = self.row_of(note_id)
        return self._rows[i] if i >= 0 else None

    def upsert(self, row: NoteRow) -> None:
        i = self.row_of(row.id)
        if i < 0:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows))
            self._rows.append(row)
            self.endInsertRows()
        else:
            self._rows[i] = row
            self.dataChanged.emit(self.index(i), self.index(i))

    def patch(self, note_id: int, **changes: object) -> None:
        current = self.get(note_id)
        if current is not None:
            self.upsert(replace(current, **changes))  # type: ignore[arg-type]

    def remove(self, note_id: int) -> None:
        i = self.row_of(note_id)
        if i >= 0:
            self.beginRemoveRows(QModelIndex(), i, i)
            del self._rows[i]
            self.endRemoveRows()

    def ids(self) -> list[int]:
        return [r.id for r in self._rows]


class NoteDelegate(QStyledItemDelegate):
    """Title on the first line, date and the first words on a second, grey line."""

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:  # noqa: N802
        # No width of its own: a list view stretches rows to the viewport, and a wider hint
        # made a narrow pane (1280×720 at 150 %) scroll sideways with each row cut at its edge.
        height = option.fontMetrics.height()
        return QSize(1, height * 2 + 14)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        option = QStyleOptionViewItem(option)
        self.initStyleOption(option, index)
        style = option.widget.style() if option.widget else None
        text = option.text
        option.text = ""
        option.icon = QIcon()
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        painter.save()
        rect = option.rect.adjusted(8, 5, -8, -5)
        if index.data(LOCAL_ROLE):
            icons.svg("lock").paint(painter, QRect(rect.right() - 14, rect.top() + 2, 14, 14))
            rect.setRight(rect.right() - 18)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        group = option.palette.ColorGroup.Active
        title_color = option.palette.color(group, option.palette.ColorRole.HighlightedText
                                           if selected else option.palette.ColorRole.Text)
        bold = QFont(option.font)
        bold.setWeight(QFont.Weight.DemiBold)
        painter.setFont(bold)
        painter.setPen(title_color)
        line = option.fontMetrics.height()
        painter.drawText(QRect(rect.left(), rect.top(), rect.width(), line),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, rect.width()))
        painter.setFont(option.font)
        sub_color = title_color if selected else option.palette.color(group, option.palette.ColorRole.PlaceholderText)
        painter.setPen(sub_color)
        subtitle = str(index.data(SUBTITLE_ROLE) or "")
        painter.drawText(QRect(rect.left(), rect.top() + line + 3, rect.width(), line),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         painter.fontMetrics().elidedText(subtitle, Qt.TextElideMode.ElideRight, rect.width()))
        painter.restore()


class NoteListView(QListView):
    """The list itself: Delete moves the current note to the trash, as in a file manager."""

    deletePressed = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.currentIndex().isValid():
            self.deletePressed.emit()
            return
        super().keyPressEvent(event)


class NoteListPanel(QWidget):
    noteSelected = Signal(int)
    newNoteRequested = Signal()
    trashViewChanged = Signal(bool)
    restoreRequested = Signal(int)
    emptyTrashRequested = Signal()
    sortChanged = Signal(str)
    trashRequested = Signal(int)  # Delete key or context menu on a live note
    deleteForeverRequested = Signal(int)  # the same in the trash view
    tagFilterChanged = Signal(object)  # list[str] of tag keys; [] for all notes
    reloadRequested = Signal()  # "Try again" after a reload that failed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = NoteListModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(FILTER_ROLE)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setDynamicSortFilter(True)

        self.header = QLabel(objectName="paneHeader")
        self.new_button = QToolButton(autoRaise=True)
        self.new_button.setIcon(icons.standard(icons.SP.SP_FileIcon))
        self.new_button.clicked.connect(self.newNoteRequested)
        self.trash_button = QToolButton(autoRaise=True, checkable=True)
        self.trash_button.setIcon(icons.standard(icons.SP.SP_TrashIcon))
        self.trash_button.toggled.connect(self._trash_toggled)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.header, 1)
        top.addWidget(self.new_button)
        top.addWidget(self.trash_button)

        self.filter = QLineEdit(clearButtonEnabled=True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.sort = QComboBox()
        # Sized to its text on every language switch, not only on first show ("Recently" was all
        # that showed of "Recently updated" after switching from 简体中文).
        self.sort.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.sort.addItem("", "updated")
        self.sort.addItem("", "title")
        self.sort.currentIndexChanged.connect(self._apply_sort)

        self.tag_bar = QWidget(objectName="tagFilterBar")
        self.tag_label = QLabel(objectName="tagFilterLabel")
        self.tag_clear = QToolButton(autoRaise=True, text="✕")
        self.tag_clear.clicked.connect(lambda: self.set_tag_filter([]))
        tag_row = QHBoxLayout(self.tag_bar)
        tag_row.setContentsMargins(2, 0, 0, 0)
        tag_row.addWidget(self.tag_label, 1)
        tag_row.addWidget(self.tag_clear)
        self.tag_bar.hide()
        self.tag_filter: list[str] = []
        self.tag_labels: dict[str, str] = {}  # key -> as typed ("c++" -> "C++"), from the tag pane

        self.view = NoteListView()
        self.header.setBuddy(self.view)  # a screen reader names the list by its header
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.view.deletePressed.connect(self._delete_pressed)
        self.view.setModel(self.proxy)
        self.view.setItemDelegate(NoteDelegate(self.view))
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # rows elide
        self.view.setUniformItemSizes(True)
        self.view.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.view.selectionModel().currentChanged.connect(self._current_changed)

        self.restore_button = QToolButton()
        self.restore_button.setIcon(icons.standard(icons.SP.SP_DialogResetButton))
        self.restore_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.restore_button.clicked.connect(self._restore_clicked)
        self.empty_button = QToolButton()
        self.empty_button.setIcon(icons.standard(icons.SP.SP_TrashIcon))
        self.empty_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.empty_button.clicked.connect(self.emptyTrashRequested)
        trash_bar = QHBoxLayout()
        trash_bar.setContentsMargins(0, 0, 0, 0)
        trash_bar.addWidget(self.restore_button)
        trash_bar.addWidget(self.empty_button)
        trash_bar.addStretch(1)
        self.trash_bar = QWidget()
        self.trash_bar.setLayout(trash_bar)
        self.trash_bar.hide()

        # A reload that failed leaves the rows from before: say so, with a way to try again.
        self.stale_bar = QFrame(objectName="undoBar")
        self.stale_label = QLabel(wordWrap=True)
        self.stale_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.retry_button = QToolButton()
        self.retry_button.clicked.connect(lambda: self.retry_button.setEnabled(False))
        self.retry_button.clicked.connect(self.reloadRequested)
        stale_row = QVBoxLayout(self.stale_bar)
        stale_row.setContentsMargins(6, 4, 6, 4)
        stale_row.addWidget(self.stale_label)
        stale_row.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignRight)
        self.stale_bar.hide()
        self._stale_reason = ""

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.setSpacing(4)
        layout.addLayout(top)
        row = QHBoxLayout()
        row.addWidget(self.filter, 1)
        row.addWidget(self.sort)
        layout.addLayout(row)
        layout.addWidget(self.tag_bar)
        layout.addWidget(self.stale_bar)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.trash_bar)
        self._apply_sort()
        self.retranslateUi()

    # ----- state --------------------------------------------------------------------

    @property
    def showing_trash(self) -> bool:
        return self.trash_button.isChecked()

    @property
    def order(self) -> str:
        return str(self.sort.currentData())

    def set_order(self, order: str) -> None:
        i = self.sort.findData(order)
        if i >= 0:
            self.sort.setCurrentIndex(i)

    def set_rows(self, rows: list[NoteRow]) -> None:
        self.show_reload_failed("")
        current = self.current_id()
        self.view.selectionModel().blockSignals(True)
        self.model.set_rows(rows)
        self.view.selectionModel().blockSignals(False)
        if current is not None:
            self.select(current, notify=False)

    def show_reload_failed(self, reason: str) -> None:
        """The list could not be read again (``reason``, already in the UI language; "" clears):
        the rows shown are from before, which the person must know."""
        self._stale_reason = reason
        self.stale_bar.setVisible(bool(reason))
        self.retry_button.setEnabled(True)
        self.retranslateUi()

    @property
    def stale(self) -> bool:
        return bool(self._stale_reason)

    def _fit_stale_label(self) -> None:
        # A wrapped label's height does not reach the pane's layout (its second line, the
        # reason, was cut off at 150 %): ask for the height its width needs.
        label = self.stale_label
        if self.stale_bar.isVisible() and label.width() > 0:
            label.setMinimumHeight(label.heightForWidth(label.width()))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        QTimer.singleShot(0, self, self._fit_stale_label)

    def current_id(self) -> int | None:
        index = self.view.currentIndex()
        return int(index.data(ID_ROLE)) if index.isValid() else None

    def select(self, note_id: int | None, *, notify: bool = True) -> None:
        selection = self.view.selectionModel()
        if not notify:
            selection.blockSignals(True)
        try:
            if note_id is None:
                self.view.clearSelection()
                self.view.setCurrentIndex(QModelIndex())
                return
            row = self.model.row_of(note_id)
            if row < 0:  # not listed here (a trashed note opened from a citation): no other row
                self.view.clearSelection()
                self.view.setCurrentIndex(QModelIndex())
                return
            index = self.proxy.mapFromSource(self.model.index(row))
            if index.isValid():
                # Clear-and-select: exactly the open note is selected, never a leftover.
                selection.setCurrentIndex(index, selection.SelectionFlag.ClearAndSelect)
                self.view.scrollTo(index)
        finally:
            if not notify:
                selection.blockSignals(False)
                # The view repaints on the signals just held back: without this the list kept
                # showing the previous note highlighted after a document was opened.
                self.view.viewport().update()

    def set_tag_labels(self, labels: dict[str, str]) -> None:
        """How each tag is spelled: the filter bar says "#C++", not its key "#c++"."""
        self.tag_labels = labels
        if self.tag_filter:
            self.retranslateUi()

    def set_tag_filter(self, keys: list[str]) -> None:
        """Show only notes with these tags (the window reloads the rows); [] shows all."""
        keys = list(dict.fromkeys(keys))
        if keys == self.tag_filter:
            return
        self.tag_filter = keys
        self.tag_bar.setVisible(bool(keys))
        self.retranslateUi()
        self.tagFilterChanged.emit(keys)

    # ----- slots ----------------------------------------------------------------------

    def _delete_pressed(self) -> None:
        note_id = self.current_id()
        if note_id is None:
            return
        (self.deleteForeverRequested if self.showing_trash else self.trashRequested).emit(note_id)

    def _context_menu(self, pos: object) -> None:
        index = self.view.indexAt(pos)  # type: ignore[arg-type]
        if not index.isValid():
            return
        note_id = int(index.data(ID_ROLE))
        title = self.model.get(note_id).title if self.model.get(note_id) else ""
        menu = QMenu(self)
        if self.showing_trash:
            menu.addAction(self.tr("Restore"), lambda: self.restoreRequested.emit(note_id))
            menu.addAction(self.tr("Delete for good…"), lambda: self.deleteForeverRequested.emit(note_id))
        else:
            menu.addAction(self.tr("Open"), lambda: self.noteSelected.emit(note_id))
            copy: QAction = menu.addAction(self.tr("Copy link"), lambda: QGuiApplication.clipboard().setText(
                f"[[{title}]]"))
            copy.setEnabled(bool(title.strip()))
            menu.addSeparator()
            menu.addAction(self.tr("Move to trash"), lambda: self.trashRequested.emit(note_id))
        self.context_menu = menu  # tests reach the open menu here
        menu.popup(self.view.viewport().mapToGlobal(pos))  # type: ignore[arg-type]

    def _apply_sort(self) -> None:
        if self.order == "title":
            self.proxy.setSortRole(SORT_TITLE_ROLE)
            self.proxy.sort(0, Qt.SortOrder.AscendingOrder)
        else:
            self.proxy.setSortRole(SORT_UPDATED_ROLE)
            self.proxy.sort(0, Qt.SortOrder.DescendingOrder)
        self.sortChanged.emit(self.order)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.noteSelected.emit(int(current.data(ID_ROLE)))

    def _trash_toggled(self, on: bool) -> None:
        self.trash_bar.setVisible(on)
        self.new_button.setEnabled(not on)
        self.retranslateUi()
        self.trashViewChanged.emit(on)

    def _restore_clicked(self) -> None:
        note_id = self.current_id()
        if note_id is not None:
            self.restoreRequested.emit(note_id)

    # ----- language -------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.header.setText(self.tr("Trash") if self.showing_trash else self.tr("Notes"))
        self.new_button.setToolTip(self.tr("New note (Ctrl+N)"))
        self.trash_button.setToolTip(self.tr("Show the trash"))
        self.filter.setPlaceholderText(self.tr("Filter notes"))
        self.sort.setItemText(0, self.tr("Recently updated"))
        self.sort.setItemText(1, self.tr("Title"))
        self.sort.setToolTip(self.tr("Sort order"))
        self.restore_button.setText(self.tr("Restore"))
        self.tag_label.setText(self.tr("Tagged: {0}").format(
            " ".join(f"#{self.tag_labels.get(t, t)}" for t in self.tag_filter)))
        self.tag_clear.setToolTip(self.tr("Show all notes"))
        self.empty_button.setText(self.tr("Empty trash"))
        self.stale_label.setText(self.tr("This list may be out of date: it could not be read again "
                                         "({0}).").format(self._stale_reason))
        self.retry_button.setText(self.tr("Try again"))
        QTimer.singleShot(0, self, self._fit_stale_label)
        if self.model.rowCount():  # "Untitled" is translated too
            self.model.dataChanged.emit(self.model.index(0), self.model.index(self.model.rowCount() - 1))
