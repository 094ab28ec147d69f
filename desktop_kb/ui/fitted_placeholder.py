"""A line edit's placeholder in the longest of its wordings that fits the field.

Qt cuts a placeholder that does not fit with "…": in a narrow Ask the library pane (1280×720
at 150 %) "Ask about your notes… (Enter)" read "Ask about your notes… …", the hint about Enter
gone and two ellipses in its place.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLineEdit, QStyle, QStyleOptionFrame

# QLineEdit keeps this many pixels on each side of its text inside the contents rectangle.
_SIDE = 2


def room(edit: QLineEdit) -> int:
    """The width, in pixels, a placeholder has inside ``edit`` (frame, margins, buttons out)."""
    option = QStyleOptionFrame()
    edit.initStyleOption(option)
    rect = edit.style().subElementRect(QStyle.SubElement.SE_LineEditContents, option, edit)
    margins = edit.textMargins()
    return rect.width() - margins.left() - margins.right() - 2 * _SIDE


class FittedPlaceholder(QObject):
    """Keeps ``edit``'s placeholder the first of ``wordings`` (longest first) that fits, the
    last when none does, as the field is resized or its font changes."""

    def __init__(self, edit: QLineEdit) -> None:
        super().__init__(edit)
        self._edit = edit
        self._wordings: tuple[str, ...] = ()
        edit.installEventFilter(self)

    def set_wordings(self, *wordings: str) -> None:
        self._wordings = wordings
        self.fit()

    def fit(self) -> None:
        if not self._wordings:
            return
        width = room(self._edit)
        metrics = self._edit.fontMetrics()
        chosen = next((w for w in self._wordings if metrics.horizontalAdvance(w) <= width), self._wordings[-1])
        if chosen != self._edit.placeholderText():
            self._edit.setPlaceholderText(chosen)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self._edit and event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange,
                                                       QEvent.Type.StyleChange):
            self.fit()
        return False
