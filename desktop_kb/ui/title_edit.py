"""The editor's title field: a line edit that ends in "…" when the title does not fit.

A QLineEdit cuts what does not fit at its edge with no sign of more: at 1280×720 and
150 % the welcome note's title read "欢迎使用 Desktop", as if that were all of it. While
the field is not being edited it draws the title shortened with "…", the whole title
in its tooltip; a click (or Tab) into it edits the whole text as before.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QLineEdit, QStyle, QStyleOptionFrame, QWidget

# QLineEdit's own inner margin beside its text (qlineedit_p.h: horizontalMargin).
_TEXT_MARGIN = 2


class TitleEdit(QLineEdit):
    def __init__(self, parent: QWidget | None = None, **kwargs: object) -> None:
        super().__init__(parent, **kwargs)
        self.textChanged.connect(self._tooltip)

    def _text_rect(self) -> object:
        option = QStyleOptionFrame()
        self.initStyleOption(option)
        rect = self.style().subElementRect(QStyle.SubElement.SE_LineEditContents, option, self)
        return rect.marginsRemoved(self.textMargins()).adjusted(_TEXT_MARGIN, 0, -_TEXT_MARGIN, 0)

    def shown_text(self) -> str:
        """The title as drawn: whole while it is edited or fits, else shortened with "…"."""
        text = self.text()
        if self.hasFocus() or not text:
            return text
        return self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, max(self._text_rect().width(), 0))

    def _tooltip(self) -> None:
        # The whole title where it is cut; no tooltip that repeats what is already on screen.
        self.setToolTip(self.text() if self.shown_text() != self.text() else "")

    def resizeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._tooltip()

    def focusInEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().focusInEvent(event)  # type: ignore[arg-type]
        self._tooltip()

    def focusOutEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().focusOutEvent(event)  # type: ignore[arg-type]
        self._tooltip()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        shown = self.shown_text()
        if shown == self.text():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = QStyleOptionFrame()
        self.initStyleOption(option)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelLineEdit, option, painter, self)
        role = QPalette.ColorRole.Text
        group = QPalette.ColorGroup.Active if self.isEnabled() else QPalette.ColorGroup.Disabled
        painter.setPen(self.palette().color(group, role))
        painter.setFont(self.font())
        painter.drawText(self._text_rect(), int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), shown)
        painter.end()
