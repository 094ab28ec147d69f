"""The menus a notes app is expected to have: Edit, View, Go and Help → Keyboard shortcuts.

Edit's undo/redo/clipboard items act on whichever text field has the focus
(the editor, the title, the search box), exactly like their keys do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QMenu

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


def _on_focused(method: str) -> Callable[[], None]:
    def run() -> None:
        widget = QApplication.focusWidget()
        fn = getattr(widget, method, None)
        if callable(fn):
            fn()
    return run


class Menus(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        std = QKeySequence.StandardKey

        def action(slot: Callable[[], None], *keys: QKeySequence.StandardKey | str) -> QAction:
            act = QAction(window)
            act.triggered.connect(lambda _checked=False: slot())
            if keys:
                act.setShortcuts([QKeySequence(k) for k in keys])
            window.addAction(act)
            return act

        self.act_undo = action(_on_focused("undo"), std.Undo)
        self.act_redo = action(_on_focused("redo"), std.Redo)
        self.act_cut = action(_on_focused("cut"), std.Cut)
        self.act_copy = action(_on_focused("copy"), std.Copy)
        self.act_paste = action(_on_focused("paste"), std.Paste)
        self.act_select_all = action(_on_focused("selectAll"), std.SelectAll)
        self.act_find = action(lambda: self._find(replace=False), std.Find)
        self.act_replace = action(lambda: self._find(replace=True), "Ctrl+H")
        self.act_split = action(window.editor.split_button.toggle, "Ctrl+Shift+E")
        self.act_ask = action(self.show_ask, "Ctrl+Shift+A")
        self.act_related = action(self.show_related)
        self.act_shortcuts = action(self.show_shortcuts, std.HelpContents, "Ctrl+/")
        # The dock's own toggle would hide the pane on a second press: Ctrl+Shift+A always shows it.
        window.qa_dock.toggleViewAction().setShortcut(QKeySequence())
        window.qa_dock.pane.question.installEventFilter(self)

        edit = window.menu_edit
        first = edit.actions()[0] if edit.actions() else None
        for act in (self.act_undo, self.act_redo, None, self.act_cut, self.act_copy, self.act_paste,
                    self.act_select_all, None, self.act_find, self.act_replace, None):
            if act is None:
                edit.insertSeparator(first) if first else edit.addSeparator()
            else:
                edit.insertAction(first, act) if first else edit.addAction(act)
        for act in list(edit.actions()):  # panes move to View
            if act in (window.act_preview, window.qa_dock.toggleViewAction()):
                edit.removeAction(act)

        bar = window.menuBar()
        self.menu_view = QMenu(window)
        self.menu_go = QMenu(window)
        bar.insertMenu(window.menu_index.menuAction(), self.menu_view)
        bar.insertMenu(window.menu_index.menuAction(), self.menu_go)
        for act in (window.act_preview, self.act_split, None, window.outline_dock.toggleViewAction(),
                    self.act_related, self.act_ask, None):
            self.menu_view.addSeparator() if act is None else self.menu_view.addAction(act)
        self.menu_view.addMenu(window.appearance.menu)
        self.menu_go.addAction(window.navigation.act_back)
        self.menu_go.addAction(window.navigation.act_forward)
        self.menu_go.addSeparator()
        self.menu_go.addAction(window.act_search)
        window.menu_help.insertAction(window.act_about, self.act_shortcuts)
        self.shortcuts_dialog = None
        window.installEventFilter(self)
        self.retranslateUi()

    # ----- actions --------------------------------------------------------------------------

    def _find(self, *, replace: bool) -> None:
        window = self.window
        if window.centre.currentWidget() is window.editor:
            window.editor.preview_button.setChecked(False)
            window.editor.find_bar.open_find(replace=replace)
        elif window.centre.currentWidget() is window.reader:
            window.reader.focus_find()  # a document is read-only: find, never replace

    def show_ask(self) -> None:
        """Show the Ask pane, bring its tab to the front and put the cursor in the question."""
        dock = self.window.qa_dock
        dock.show()
        dock.raise_()
        dock.pane.question.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def show_related(self) -> None:
        dock = getattr(self.window, "related_dock", None)
        if dock is not None:
            dock.show()
            dock.raise_()

    def show_shortcuts(self) -> None:
        from desktop_kb.ui.shortcuts_dialog import ShortcutsDialog

        if self.shortcuts_dialog is None:
            self.shortcuts_dialog = ShortcutsDialog(self.window)
        self.shortcuts_dialog.refresh()
        self.shortcuts_dialog.show()
        self.shortcuts_dialog.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.window and event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
            self.window.appearance.retranslateUi()
        elif (event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
              and event.key() == Qt.Key.Key_Escape and watched is self.window.qa_dock.pane.question):
            self.window.editor.body.setFocus()  # Esc: back to writing
            return True
        return super().eventFilter(watched, event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.menu_view.setTitle(self.tr("&View"))
        self.menu_go.setTitle(self.tr("&Go"))
        for act, text in (
            (self.act_undo, self.tr("&Undo")), (self.act_redo, self.tr("&Redo")),
            (self.act_cut, self.tr("Cu&t")), (self.act_copy, self.tr("&Copy")),
            (self.act_paste, self.tr("&Paste")), (self.act_select_all, self.tr("Select &all")),
            (self.act_find, self.tr("&Find in note…")), (self.act_replace, self.tr("Find and r&eplace…")),
            (self.act_split, self.tr("Live preview &beside the editor")),
            (self.act_ask, self.tr("&Ask the library")), (self.act_related, self.tr("&Related material")),
            (self.act_shortcuts, self.tr("&Keyboard shortcuts")),
        ):
            act.setText(text)


def install_menus(window: MainWindow) -> Menus:
    return Menus(window)
