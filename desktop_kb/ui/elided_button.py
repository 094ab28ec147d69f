"""A flat title button that shortens its text with "…" to the width its pane gives it
(and a combo box that does the same with its current item, and a one-line label).

A QPushButton's minimum width is its whole text, so one long title ("Hello, World! >
编译和运行是独立的步骤") made the related panel's contents wider than the panel: the
✓/✕ buttons and the right edge of every card were cut off. This button asks for
its whole text but accepts any width, and shows as much of the title as fits; the
whole title stays in ``full_text()`` and the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStyle,
    QStyleOptionButton,
    QStyleOptionComboBox,
    QStylePainter,
    QWidget,
)

MIN_CHARS = 6  # the narrowest it asks to be, in average character widths


class ElidedButton(QPushButton):
    def __init__(self, parent: QWidget | None = None, **kwargs: object) -> None:
        super().__init__(parent, **kwargs)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def full_text(self) -> str:
        return self._full

    def set_full_text(self, text: str) -> None:
        self._full = text
        self._elide()
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self._size_for(self._full)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        hint = self._size_for("")
        return QSize(hint.width() + MIN_CHARS * self.fontMetrics().averageCharWidth(), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._elide()

    def _size_for(self, text: str) -> QSize:
        option = QStyleOptionButton()
        self.initStyleOption(option)
        metrics = self.fontMetrics()
        content = QSize(metrics.horizontalAdvance(text), metrics.height())
        return self.style().sizeFromContents(QStyle.ContentsType.CT_PushButton, option, content, self)

    def _elide(self) -> None:
        room = self.width() - self._size_for("").width()
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, max(room, 0))
        if shown != self.text():
            super().setText(shown)


class ElidedComboBox(QComboBox):
    """A combo box whose current item, when it does not fit, ends in "…" (the QA pane's chat
    list cut "How do I share data between threads…" to "How do I share data bet" with no sign
    of more); the whole text is its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentTextChanged.connect(self.setToolTip)

    def shown_text(self) -> str:
        """The current item as drawn: elided to the edit field's width."""
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        return self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideRight, field.width())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        if self.isEditable():
            super().paintEvent(event)
            return
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self.shown_text()
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)


class ElidedLabel(QLabel):
    """One line of plain text that shortens itself with "…" (where ``mode`` says: a path
    keeps its file name with ``ElideLeft``) to the width its row gives it; the whole text is
    its tooltip. A word-wrapped path in the reader's header took eight lines at 1280×720 and
    150 % ("/work/ shared/ corpora/ rust- book-cn/ …"), leaving the document a quarter of it."""

    def __init__(self, parent: QWidget | None = None, *,
                 mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight, **kwargs: object) -> None:
        super().__init__(parent, **kwargs)
        self._full = ""
        self._mode = mode
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def full_text(self) -> str:
        return self._full

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._elide()
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(self.fontMetrics().horizontalAdvance(self._full), self.fontMetrics().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(MIN_CHARS * self.fontMetrics().averageCharWidth(), self.fontMetrics().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(self._full, self._mode, max(self.contentsRect().width(), 0))
        if shown != self.text():
            super().setText(shown)
