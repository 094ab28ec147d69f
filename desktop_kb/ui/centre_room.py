"""The editor keeps room for a note's title: on a narrow window the side panes give way first.

QMainWindow takes width from its central widget before its docks, and the splitter gives
the note list its saved width: at 150 % scaling (a 1440-pixel screen leaves 960) the title
field was ~180 px, "欢迎使用 Deskto". When the centre is narrower than the editor wants, the
right-hand panes shrink towards their minimum width, then the note list towards the width its
filter row needs.
A person can still drag them wider; the next resize of the window makes the room again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


class CentreRoom(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.due = QTimer(self, singleShot=True, interval=0)  # after the layout settles
        self.due.timeout.connect(self.make_room)
        self._laid_out = False
        window.installEventFilter(self)
        window.centre.installEventFilter(self)
        window.centre.currentChanged.connect(lambda _index: self.due.start())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        # The window resized, or its centre got its first real width (after show). Not when
        # the person drags a splitter or dock edge: that width is theirs.
        if event.type() == QEvent.Type.Resize and (watched is self._window or not self._laid_out):
            self._laid_out = self._laid_out or (watched is self._window.centre and self._window.isVisible())
            self.due.start()
        return False

    def _right_docks(self) -> list[QDockWidget]:
        window = self._window
        return [dock for dock in window.findChildren(QDockWidget)
                if dock.isVisible() and not dock.isFloating()
                and window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea]

    def make_room(self) -> None:
        window = self._window
        if not window.isVisible():
            return
        short = window.editor.wanted_width() - window.centre.width()
        if short <= 0:
            return
        docks = self._right_docks()
        dock_width = max((d.width() for d in docks), default=0)
        dock_spare = max(0, dock_width - max((d.minimumSizeHint().width() for d in docks), default=0))
        left, centre = window.splitter.sizes()
        # The note list keeps the width its filter row needs (its size hint): squeezed to its
        # minimum, the filter field read "Fi…" beside the sort box.
        left_spare = max(0, left - window.left.sizeHint().width())
        take_dock = min(dock_spare, short)
        take_left = min(left_spare, short - take_dock)
        if take_left > 0:
            window.splitter.setSizes([left - take_left, centre + take_left])
        if take_dock > 0:  # the splitter gives the width it gains to the centre (stretch 1)
            window.resizeDocks(docks, [dock_width - take_dock] * len(docks), Qt.Orientation.Horizontal)
