"""Names a screen reader reads out for widgets that show only an icon, a symbol or a hint.

Qt names a button by its text and a field by the label whose buddy it is, but never by a
tooltip or a placeholder: the editor's lock, preview and trash buttons were read as
"button", a suggestion's ✓ and ✕ as "check mark" and "multiplication x", and the filter
field as "edit". ``name_unnamed`` gives each such widget its tooltip or placeholder as its
accessible name, in the UI language; call it again after a language switch or after
building new widgets (the names it set are replaced, names set on purpose are kept).
"""

from __future__ import annotations

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

_AUTO = "kbNamedFromHint"  # on widgets whose accessible name was set here


def _hint(widget: QWidget) -> str:
    if isinstance(widget, QAbstractButton):
        return widget.toolTip()
    if isinstance(widget, (QLineEdit, QPlainTextEdit, QTextEdit, QComboBox)):
        return widget.placeholderText() or widget.toolTip()
    if isinstance(widget, QAbstractItemView):
        return widget.toolTip()
    return ""


def _named(widget: QWidget) -> bool:
    """Does Qt already give it a name: a button's words, a field's label (its buddy)?"""
    if isinstance(widget, QAbstractButton):
        return any(ch.isalnum() for ch in widget.text())  # "✓" is no name
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface is not None and bool(interface.text(QAccessible.Text.Name).strip())


def name_unnamed(root: QWidget) -> None:
    """Give every widget under ``root`` that a screen reader could not name its visible hint."""
    for widget in [root, *root.findChildren(QWidget)]:
        auto = bool(widget.property(_AUTO))
        if widget.accessibleName() and not auto:
            continue  # named on purpose
        if auto:
            widget.setAccessibleName("")
        hint = _hint(widget).strip()
        if hint and not _named(widget):
            widget.setAccessibleName(hint)
            widget.setProperty(_AUTO, True)
