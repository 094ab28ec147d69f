"""Back/forward in the window: Alt+Left/Right, the mouse's side buttons, the Go menu.

Every note or passage the window shows is recorded; going back or forward
reopens it without recording a new step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QMouseEvent
from PySide6.QtWidgets import QApplication, QWidget

from desktop_kb.ui.history import History, Place

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


class Navigation(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.history = History()
        self._replaying = False
        self.act_back = QAction(window)
        self.act_back.setShortcuts([QKeySequence(QKeySequence.StandardKey.Back), QKeySequence("Alt+Left")])
        self.act_back.triggered.connect(self.back)
        self.act_forward = QAction(window)
        self.act_forward.setShortcuts([QKeySequence(QKeySequence.StandardKey.Forward),
                                       QKeySequence("Alt+Right")])
        self.act_forward.triggered.connect(self.forward)
        for action in (self.act_back, self.act_forward):
            window.addAction(action)
        window.notes.noteOpened.connect(lambda note_id: self._shown(Place("note", note_id)))
        window.documents.fragmentOpened.connect(
            lambda doc, frag: self._shown(Place("fragment", frag, doc) if frag else Place("document", doc)))
        window.trash.noteTrashed.connect(lambda note_id: self.history.forget(Place("note", note_id)))
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)
        self._update()
        self.retranslateUi()

    def _shown(self, place: Place) -> None:
        if not self._replaying:
            self.history.visit(place)
        self._replaying = False
        self._update()

    def _go(self, place: Place | None) -> None:
        if place is None:
            return
        self._replaying = True
        if place.kind == "note":
            if self.window.note_list.showing_trash:
                self.window.note_list.trash_button.setChecked(False)
            self.window.notes.open_note(place.id)
        elif place.kind == "document":
            self.window.documents.open_document(place.id)
        elif place.document_id is not None:
            self.window.documents.open_fragment(place.document_id, place.id)
        self._update()

    def back(self) -> None:
        self._go(self.history.back())

    def forward(self) -> None:
        self._go(self.history.forward())

    def _update(self) -> None:
        self.act_back.setEnabled(self.history.can_go_back)
        self.act_forward.setEnabled(self.history.can_go_forward)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent) \
                and event.button() in (Qt.MouseButton.BackButton, Qt.MouseButton.ForwardButton) \
                and isinstance(watched, QWidget) and watched.window() is self.window:
            (self.back if event.button() == Qt.MouseButton.BackButton else self.forward)()
            return True
        return super().eventFilter(watched, event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.act_back.setText(self.tr("&Back"))
        self.act_forward.setText(self.tr("&Forward"))


def install_navigation(window: MainWindow) -> Navigation:
    return Navigation(window)
