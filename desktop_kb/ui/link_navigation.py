"""Typed links in the window: completion, following, creating the note a link names, renames.

* ``[[`` opens the title popup (``LinkCompleter``) over the titles of live notes;
* Ctrl+click (editor) or a click (preview) follows a link — to the note, and to
  its heading for ``[[title#heading]]``; a link to a note that does not exist
  yet offers to create it;
* renaming a note that other notes link to offers to update their links
  (never silently: the other notes are the person's text).

All reads and writes go through the window's ordered note queue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox

from desktop_kb.markup.headings import find_heading
from desktop_kb.markup.wiki_links import parse_wiki_links
from desktop_kb.tasks import link_tasks
from desktop_kb.ui.link_completer import LinkCompleter
from desktop_kb.ui.title_catalog import TitleCatalog

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow


class LinkNavigation(QObject):
    followed = Signal(int)  # a link opened this note (tests)
    offerShown = Signal(object)  # QMessageBox: create a note / update links (tests)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.catalog = TitleCatalog(self)
        editor = window.editor
        self.completer = LinkCompleter(editor.body, window.runner, self.catalog.rank, lambda: editor.note_id)
        editor.highlighter.set_resolver(self.catalog.resolves)
        editor.preview.set_resolver(self.catalog.resolves)
        self.catalog.changed.connect(editor.rehighlight)
        editor.linkActivated.connect(self.follow)
        editor.title.editingFinished.connect(self._title_finished)
        self._titles_when_opened: dict[int, str] = {}
        window.notes.noteOpened.connect(self._opened)
        self.offer: QMessageBox | None = None

    # ----- catalog upkeep (called by the window) -----------------------------------------

    def set_titles(self, titles: list[tuple[int, str]]) -> None:
        self.catalog.set_titles(titles)

    def _opened(self, note_id: int) -> None:
        self._titles_when_opened = {note_id: self.window.editor.title.text()}

    # ----- following ----------------------------------------------------------------------

    def follow(self, target: str) -> None:
        window = self.window
        if target.startswith("#"):  # a heading of the open note
            body = window.editor.body.toPlainText()
            heading = find_heading(body, target[1:])
            if heading is not None and window.editor.note_id is not None:
                end = body.find("\n", heading.start)
                window.editor.highlight([(heading.start, len(body) if end < 0 else end)], heading.start)
            return
        window.notes.save_now()
        window.save_queue.submit(lambda lib: link_tasks.locate_link(lib, target),
                                 lambda found: self._located(target, found))

    def _located(self, target: str, found: tuple[int, int | None, int | None] | None) -> None:
        if found is None:
            self.offer_create(target)
            return
        note_id, start, end = found
        if self.window.note_list.showing_trash:
            self.window.note_list.trash_button.setChecked(False)
        highlights = [(start, end)] if start is not None and end is not None else None
        self.window.notes.open_note(note_id, highlights, start)
        self.followed.emit(note_id)

    def offer_create(self, target: str) -> None:
        link = parse_wiki_links(f"[[{target}]]")
        title = link[0].title if link else target
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Create note"),
                          self.tr("There is no note called “{0}” yet. Create it?").format(title),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self.window)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Create note"))
        box.button(QMessageBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        box.finished.connect(lambda r: r == QMessageBox.StandardButton.Yes and self.window.notes.new_note(
            title=title, body="", focus_body=True))
        self.offer = box
        box.open()
        self.offerShown.emit(box)

    # ----- renames ------------------------------------------------------------------------

    def _title_finished(self) -> None:
        editor = self.window.editor
        note_id = editor.note_id
        if note_id is None or note_id not in self._titles_when_opened:
            return
        old, new = self._titles_when_opened[note_id], editor.title.text()
        if old.strip() == new.strip() or not old.strip():
            return
        self._titles_when_opened[note_id] = new
        self.window.notes.save_now()
        self.window.save_queue.submit(lambda lib: lib.link_referrers(old, exclude=note_id),
                                      lambda notes: self._offer_retarget(old, new, notes))

    def _offer_retarget(self, old: str, new: str, notes: list[Any]) -> None:
        if not notes:
            return
        names = "\n".join(f"• {n.title or self.tr('Untitled')}" for n in notes[:8])
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Update links"),
                          self.tr("%n note(s) link to “{0}”. Update their links to “{1}”?", "", len(notes))
                          .format(old, new) + "\n\n" + names,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.window)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Update links"))
        box.button(QMessageBox.StandardButton.No).setText(self.tr("Keep them"))
        ids = [n.id for n in notes]
        box.finished.connect(lambda r: r == QMessageBox.StandardButton.Yes and self._retarget(old, new, ids))
        self.offer = box
        box.open()
        self.offerShown.emit(box)

    def _retarget(self, old: str, new: str, ids: list[int]) -> None:
        def done(changed: int) -> None:
            self.window.statusBar().showMessage(
                self.tr("Updated %n link(s).", "", changed), 6000)
            self.window.notes.reload_notes()
            # The renamed note is open: its backlinks are back, though it was not saved again.
            self.window.related_panel.controller.refresh()

        self.window.save_queue.submit(lambda lib: lib.retarget_links(old, new, ids), done)


def install_link_navigation(window: MainWindow) -> LinkNavigation:
    return LinkNavigation(window)
