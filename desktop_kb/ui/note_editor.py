"""The Markdown editor for one note: title, body, preview, local-only lock.

It holds text and emits ``edited``; when to save is the window's decision
(autosave timers live there), so the editor stays a plain widget.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QFont,
    QFontMetrics,
    QResizeEvent,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QSplitter,
    QTextBrowser,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.markup.preview import parse_note_url, parse_tag_url, preview_markdown
from desktop_kb.markup.wiki_links import parse_wiki_links
from desktop_kb.store.local_only import DerivedReason
from desktop_kb.store.notes import Note
from desktop_kb.ui import icons
from desktop_kb.ui.find_bar import FindBar
from desktop_kb.ui.link_clicks import LinkClicks
from desktop_kb.ui.markdown_highlighter import MarkdownHighlighter
from desktop_kb.ui.text_offsets import spans_to_utf16
from desktop_kb.ui.title_edit import TitleEdit

LIVE_PREVIEW_MS = 250  # side-by-side preview follows typing after this pause
# Ideographs of a title the editor keeps room for (a 150 % screen left it ~8: "欢迎使用 Deskto").
TITLE_CHARS = 12
# The title's size in style.qss (QLineEdit#noteTitle; 13pt where even the whole width is too narrow).
TITLE_PT = 16

HIT_COLOR = QColor("#ffe08a")
MISSING_LINK_COLOR = QColor("#8a8a8a")  # readable on light and dark


def hit_selections(edit: QPlainTextEdit | QTextEdit, text: str,
                   spans: list[tuple[int, int]]) -> list[QTextEdit.ExtraSelection]:
    """Extra selections for search hits (code-point spans into ``text``)."""
    fmt = QTextCharFormat()
    fmt.setBackground(HIT_COLOR)
    fmt.setForeground(QColor("#111111"))  # readable on the yellow in a dark theme too
    selections = []
    for start, end in spans_to_utf16(text, spans):
        cursor = QTextCursor(edit.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor  # type: ignore[misc]
        selection.format = fmt  # type: ignore[misc]
        selections.append(selection)
    return selections


def show_hits(edit: QPlainTextEdit | QTextEdit, text: str, spans: list[tuple[int, int]],
              scroll_to: int | None) -> None:
    edit.setExtraSelections(hit_selections(edit, text, spans))
    target = scroll_to if scroll_to is not None else (spans[0][0] if spans else None)
    if target is None:
        return
    cursor = QTextCursor(edit.document())
    cursor.setPosition(spans_to_utf16(text, [(target, target)])[0][0])
    edit.setTextCursor(cursor)
    edit.centerCursor() if isinstance(edit, QPlainTextEdit) else edit.ensureCursorVisible()


class _ReadableWidth:
    """Keeps the text in a centred column no wider than ``max_text_px`` (0: no limit).

    Lines of ~950 px at 1920×1080 are hard to read; the column leaves the rest as margin.
    """

    max_text_px = 0

    def set_max_text_width(self, px: int) -> None:
        self.max_text_px = max(0, px)
        self._centre()

    def _centre(self) -> None:
        width = self.width()  # type: ignore[attr-defined]
        side = max(0, (width - self.max_text_px) // 2) if self.max_text_px else 0
        self.setViewportMargins(side, 0, side, 0)  # type: ignore[attr-defined]


class NoteBody(_ReadableWidth, QPlainTextEdit):
    def resizeEvent(self, event: object) -> None:  # noqa: N802
        self._centre()
        super().resizeEvent(event)  # type: ignore[arg-type]


class NotePreview(_ReadableWidth, QTextBrowser):
    """Rendered Markdown whose ``[[links]]`` and ``#tags`` are clickable."""

    linkActivated = Signal(str)  # the link's target text: "title", "title#heading" or "#heading"
    tagActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notePreview")
        self.setOpenLinks(False)
        self.document().setDocumentMargin(16)
        self.anchorClicked.connect(self._clicked)
        self._resolves: Callable[[str], bool] | None = None

    def set_resolver(self, resolves: Callable[[str], bool] | None) -> None:
        """Title keys that name a note: the others are drawn as links still to be created."""
        self._resolves = resolves

    def resizeEvent(self, event: object) -> None:  # noqa: N802
        self._centre()
        super().resizeEvent(event)  # type: ignore[arg-type]

    def show_markdown(self, text: str) -> None:
        bar = self.verticalScrollBar()
        at = bar.value()
        self.setMarkdown(preview_markdown(text))
        self._mark_unresolved()
        bar.setValue(at)  # live preview: keep the reading position while the text changes

    def _mark_unresolved(self) -> None:
        """Grey, dotted: like the editor, a link to a missing note looks unlike one that opens."""
        if self._resolves is None:
            return
        document = self.document()
        missing = QTextCharFormat()
        missing.setForeground(MISSING_LINK_COLOR)
        missing.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        block = document.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                target = parse_note_url(fragment.charFormat().anchorHref())
                if target and not target.startswith("#") and not self._target_resolves(target):
                    cursor = QTextCursor(document)
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
                    cursor.mergeCharFormat(missing)
                it += 1
            block = block.next()

    def _target_resolves(self, target: str) -> bool:
        links = parse_wiki_links(f"[[{target}]]")
        return not links or any(self._resolves(k) for k in links[0].candidate_keys)  # type: ignore[misc]

    def _clicked(self, url: QUrl) -> None:
        raw = url.toString()
        target, tag = parse_note_url(raw), parse_tag_url(raw)
        if target is not None:
            self.linkActivated.emit(target)
        elif tag is not None:
            self.tagActivated.emit(tag)
        elif url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)


class NoteEditor(QWidget):
    edited = Signal()
    focusLost = Signal()
    localOnlyToggled = Signal(bool)
    trashRequested = Signal()
    linkActivated = Signal(str)  # "[[…]]" target text, from a Ctrl+click or the preview
    tagActivated = Signal(str)  # tag key

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note_id: int | None = None
        self._loading = False
        self._read_only = False

        self.title = TitleEdit(objectName="noteTitle")
        self.title.textEdited.connect(self._user_edit)
        self.title.returnPressed.connect(self._title_done)
        self.local_button = QToolButton(autoRaise=True, checkable=True)
        self.local_button.setIcon(icons.svg("unlock"))
        self.local_button.toggled.connect(self._local_toggled)
        # Why the note is local only when it inherited the flag from its material (I11).
        self.local_reason = QLabel(objectName="localOnlyReason")
        self.local_reason.hide()
        self._derived: DerivedReason | None = None
        self.preview_button = QToolButton(autoRaise=True, checkable=True)
        self.preview_button.setIcon(icons.standard(icons.SP.SP_FileDialogContentsView))
        self.preview_button.toggled.connect(self._preview_toggled)
        self.split_button = QToolButton(autoRaise=True, checkable=True)
        self.split_button.setIcon(icons.standard(icons.SP.SP_FileDialogDetailedView))
        self.split_button.toggled.connect(self._split_toggled)
        self.trash_button = QToolButton(autoRaise=True)
        self.trash_button.setIcon(icons.standard(icons.SP.SP_TrashIcon))
        self.trash_button.clicked.connect(self.trashRequested)
        self.save_state = QLabel(objectName="emptyHint")

        self.tools = QWidget()
        tools = QHBoxLayout(self.tools)
        tools.setContentsMargins(0, 0, 0, 0)
        for widget in (self.save_state, self.local_reason, self.local_button, self.preview_button,
                       self.split_button, self.trash_button):
            tools.addWidget(widget)
        bar = self.header = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.title, 1)
        bar.addWidget(self.tools)
        # Where the title would be cut beside the buttons (1280×720 at 150 %: "Welcome to …"),
        # the buttons go to a row under it and the title has the whole width.
        self.tools_below = QHBoxLayout()
        self.tools_below.setContentsMargins(0, 0, 0, 0)
        self.tools_below.addStretch(1)
        self.title.textChanged.connect(lambda _text: self._fit_header())

        self.body = NoteBody()
        self.body.setTabChangesFocus(False)
        font = QFont(self.body.font())
        font.setPointSizeF(max(font.pointSizeF(), 10.5) + 1)
        self.body.setFont(font)
        self.body.document().setDocumentMargin(10)
        self.highlighter = MarkdownHighlighter(self.body.document())
        self.body.textChanged.connect(self._body_changed)
        self.clicks = LinkClicks(self.body)
        self.clicks.linkActivated.connect(lambda link: self.linkActivated.emit(
            link.target if link.title else f"#{link.heading}"))
        self.clicks.tagActivated.connect(self.tagActivated)
        self.preview = NotePreview()
        self.preview.linkActivated.connect(self.linkActivated)
        self.preview.tagActivated.connect(self.tagActivated)
        self.preview.hide()
        # Editor and preview side by side (or either alone): one splitter, no page flipping.
        self.stack = QSplitter(Qt.Orientation.Horizontal)
        self.stack.setChildrenCollapsible(False)
        self.stack.addWidget(self.body)
        self.stack.addWidget(self.preview)
        self._live = QTimer(self, singleShot=True, interval=LIVE_PREVIEW_MS)
        self._live.timeout.connect(self._refresh_preview)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        layout.setSpacing(6)
        layout.addLayout(bar)
        layout.addLayout(self.tools_below)
        layout.addWidget(self.stack, 1)
        self.find_bar = FindBar(self.body)
        layout.addWidget(self.find_bar)
        # Tab from the title goes to the text, as Enter does: the header's buttons come
        # before the title (Shift+Tab reaches them). Tab used to land on the lock, where
        # the next Space made the note local only.
        QWidget.setTabOrder(self.trash_button, self.title)
        QWidget.setTabOrder(self.title, self.body)
        for widget in (self.title, self.body):
            widget.installEventFilter(self)
        self.retranslateUi()

    def wanted_width(self) -> int:
        """The width at which the title shows :data:`TITLE_CHARS` ideographs beside the header's
        buttons: what the window keeps for the editor before it narrows the side panes."""
        self.title.ensurePolished()  # the style sheet's title font, before the editor first shows
        title = self.title.fontMetrics().horizontalAdvance("中" * TITLE_CHARS) + 12  # frame, padding
        others = self.tools.sizeHint().width() + self.header.spacing()
        margins = self.layout().contentsMargins()
        return title + others + margins.left() + margins.right()

    @property
    def tools_beside_title(self) -> bool:
        return self.header.indexOf(self.tools) >= 0

    def _fit_header(self) -> None:
        """The buttons beside the title while the whole title fits there, else under it; a
        title too long for the whole width too is set a little smaller before it is cut."""
        title = self.title
        margins = self.layout().contentsMargins()
        room = self.width() - margins.left() - margins.right()
        font = QFont(title.font())
        font.setPointSizeF(TITLE_PT)
        needed = QFontMetrics(font).horizontalAdvance(title.text()) + 12  # frame, padding
        beside = room - self.tools.sizeHint().width() - self.header.spacing() >= needed
        compact = not beside and needed > room
        if bool(title.property("compact")) != compact:
            title.setProperty("compact", compact)
            title.style().unpolish(title)
            title.style().polish(title)
        if beside == self.tools_beside_title:
            return
        (self.tools_below if beside else self.header).removeWidget(self.tools)
        if beside:
            self.header.addWidget(self.tools)
        else:
            self.tools_below.addWidget(self.tools)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_header()

    # ----- content -------------------------------------------------------------------

    def load(self, note: Note, *, read_only: bool = False) -> None:
        self._loading = True
        try:
            self.note_id = note.id
            self._read_only = read_only
            self.title.setText(note.title)
            self.title.setCursorPosition(0)  # a long title shows its beginning, not its end
            self.body.setPlainText(note.body)
            self.body.setExtraSelections([])
            self._derived = DerivedReason.from_text(note.local_only_reason) if note.local_only else None
            self.local_button.setChecked(note.local_only)
            self.title.setReadOnly(read_only)
            self.body.setReadOnly(read_only)
            self.local_button.setEnabled(not read_only)
            self.trash_button.setEnabled(not read_only)
            if self.preview.isVisible() or self.preview_button.isChecked():
                self.preview.show_markdown(note.body)
            self.set_save_state("")
        finally:
            self._loading = False
        self.retranslateUi()

    def refresh(self, note: Note, *, read_only: bool = False) -> None:
        """Show a newer version of the open note (changed elsewhere) where the person was
        reading: the cursor and the scroll position stay, as far as the new text allows."""
        cursor = self.body.textCursor().position()
        scroll = self.body.verticalScrollBar().value()
        self.load(note, read_only=read_only)
        moved = self.body.textCursor()
        moved.setPosition(min(cursor, len(self.body.toPlainText())))
        self.body.setTextCursor(moved)
        self.body.verticalScrollBar().setValue(scroll)

    def clear(self) -> None:
        self._loading = True
        try:
            self.note_id = None
            self._derived = None
            self.title.clear()
            self.body.clear()
        finally:
            self._loading = False
        self.retranslateUi()

    def snapshot(self) -> tuple[int, str, str] | None:
        if self.note_id is None or self._read_only:
            return None
        return self.note_id, self.title.text(), self.body.toPlainText()

    def highlight(self, spans: list[tuple[int, int]], scroll_to: int | None = None) -> None:
        self.preview_button.setChecked(False)
        show_hits(self.body, self.body.toPlainText(), spans, scroll_to)

    def set_save_state(self, text: str) -> None:
        self.save_state.setText(text)
        self._fit_header()

    # ----- events --------------------------------------------------------------------

    def _user_edit(self, *_args: object) -> None:
        if not self._loading and not self._read_only:
            self.edited.emit()

    def _body_changed(self) -> None:
        if self.split_button.isChecked():
            self._live.start()
        if not self._loading:
            self.body.setExtraSelections([])  # old hits no longer line up with the text
            self._user_edit()

    def _title_done(self) -> None:
        """Enter in the title: on to the body, as in every notes app."""
        self.body.setFocus()

    def _refresh_preview(self) -> None:
        if self.preview.isVisible():
            self.preview.show_markdown(self.body.toPlainText())

    def _local_toggled(self, on: bool) -> None:
        if not on and not self._loading and self._derived is not None and not self.confirm_lift():
            self._loading = True  # put the lock back without telling anyone: nothing changed
            try:
                self.local_button.setChecked(True)
            finally:
                self._loading = False
            return
        self.local_button.setIcon(icons.svg("lock" if on else "unlock"))
        if not self._loading:
            if not on:
                self._derived = None  # lifting is the person's own choice; the reason goes with it
            self.localOnlyToggled.emit(on)
        self.retranslateUi()

    def _sources_text(self) -> str:
        sources = self._derived.sources if self._derived is not None else ()
        return "、".join(f"“{s.title}”" for s in sources) or self.tr("a local-only source")

    def confirm_lift(self) -> bool:
        """Lifting an inherited local-only flag is deliberate: the person is told what it came from."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Allow this note to be sent?"),
                          self.tr("This note was made from local-only material: {0}. If you allow it, "
                                  "passages of it can be sent to the AI provider when they match a "
                                  "question.").format(self._sources_text()), parent=self)
        allow = box.addButton(self.tr("Allow sending"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(box.addButton(self.tr("Keep local only"), QMessageBox.ButtonRole.RejectRole))
        self.liftQuestion = box
        box.exec()
        return box.clickedButton() is allow

    def _preview_toggled(self, on: bool) -> None:
        if on:
            self.split_button.setChecked(False)
            self.preview.show_markdown(self.body.toPlainText())
        self.preview.setVisible(on)
        self.body.setVisible(not on)
        if not on:
            self.body.setFocus()

    def _split_toggled(self, on: bool) -> None:
        """Side-by-side live preview, with the editor's typography."""
        if on:
            self.preview_button.setChecked(False)
            self.preview.show_markdown(self.body.toPlainText())
            self.stack.setSizes([1, 1])
        self.body.show()
        self.preview.setVisible(on)

    def rehighlight(self) -> None:
        """Redraw links and tags (titles appeared or went); formats alone are not an edit."""
        loading, self._loading = self._loading, True
        try:
            self.highlighter.rehighlight()
        finally:
            self._loading = loading
        if self.preview.isVisible():
            self.preview.show_markdown(self.body.toPlainText())

    @property
    def previewing(self) -> bool:
        return self.preview_button.isChecked()

    def set_typography(self, font: QFont, max_text_px: int) -> None:
        """One font and column width for writing and reading (editor and preview alike)."""
        self.body.setFont(font)
        self.preview.setFont(font)
        self.preview.document().setDefaultFont(font)
        self.body.set_max_text_width(max_text_px)
        self.preview.set_max_text_width(max_text_px)
        if self.preview.isVisible():
            self.preview.show_markdown(self.body.toPlainText())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.FocusOut and not self._read_only:
            self.focusLost.emit()
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.title.setPlaceholderText(self.tr("Title"))
        self.body.setPlaceholderText(self.tr("Write in Markdown… 中文 and English both work."))
        if self.local_button.isChecked():
            self.local_button.setToolTip(self.tr("Local only: this note is never sent to a cloud service. Click to allow."))
        else:
            self.local_button.setToolTip(self.tr("Mark as local only (never sent to a cloud service)"))
        derived = self._derived is not None and self.local_button.isChecked()
        self.local_reason.setVisible(derived)
        if derived:
            sources = self._sources_text()
            self.local_reason.setText(self.tr("Local only: made from {0}").format(
                sources if len(sources) <= 40 else sources[:39] + "…"))
            self.local_reason.setToolTip(self.tr(
                "This note was made from local-only material ({0}), so it is local only too. "
                "Click the lock to allow sending it.").format(sources))
        self.preview_button.setToolTip(self.tr("Preview Markdown (Ctrl+E)"))
        self.split_button.setToolTip(self.tr("Live preview beside the editor (Ctrl+Shift+E)"))
        self.trash_button.setToolTip(self.tr("Move to trash"))
        self._fit_header()  # the buttons' words ("Saved", a lock's reason) changed width
