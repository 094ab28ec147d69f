"""The document reader: a whole imported document in order, with its outline.

Opening a document (library tree, a search hit, a QA citation) shows every
fragment in document order; the outline lists its headings (or its pages, for
a PDF without bookmarks); the passage asked for is scrolled to and
highlighted.  Find in document (Ctrl+F), and "New note from selection" keeps
which fragment the selection came from, so the note can link back to it.
The widget only draws: the fragments arrive already loaded.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, replace

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QKeySequence,
    QPalette,
    QResizeEvent,
    QShortcut,
    QShowEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.markup.plain import html_hidden, plain_title
from desktop_kb.store.documents import Document, Fragment
from desktop_kb.text.headings import PATH_SEPARATOR, below_title, split_part
from desktop_kb.ui import icons
from desktop_kb.ui.elided_button import ElidedLabel
from desktop_kb.ui.locator_text import page_label, shown_heading_path
from desktop_kb.ui.note_editor import HIT_COLOR
from desktop_kb.ui.text_offsets import to_utf16

FRAGMENT_ROLE = Qt.ItemDataRole.UserRole + 1
_SEPARATOR = "\n\n"
OUTLINE_MIN_CHARS = 6  # the outline narrows to no less than this many ideographs
OUTLINE_WIDTH = 200  # its width where there is room
TITLE_ROOM_CHARS = 24  # the title's room (average characters) before the new-note button drops its words
# (light theme, dark theme): the passage asked for, a heading. The hits and find matches keep
# their yellow and blue under dark text in both themes (``note_editor.hit_selections``).
_FOCUS_COLORS = (QColor("#fffae6"), QColor("#3b3521"))
_HEADING_COLORS = (QColor("#1f4e8c"), QColor("#8fb8ec"))
_FIND_COLOR = QColor("#b5d8ff")
_ON_MARK = QColor("#111111")


@dataclass(frozen=True)
class OutlineEntry:
    depth: int
    title: str
    fragment_id: int
    page: int | None


def outline_of(fragments: Sequence[Fragment]) -> list[OutlineEntry]:
    """Headings in document order (each where it first appears), or pages when there are none."""
    entries: list[OutlineEntry] = []
    seen: set[tuple[str, ...]] = set()
    for frag in fragments:
        path = split_part(frag.heading_path)[0] if frag.heading_path else ""
        parts = [p for p in path.split(PATH_SEPARATOR) if p]
        for depth in range(len(parts)):
            key = tuple(parts[:depth + 1])
            if key not in seen:
                seen.add(key)
                entries.append(OutlineEntry(depth, parts[depth], frag.id, frag.page))
    if entries:
        return entries
    pages: dict[int, int] = {}
    for frag in fragments:
        if frag.page is not None:
            pages.setdefault(frag.page, frag.id)
    return [OutlineEntry(0, "", fid, page) for page, fid in sorted(pages.items())]


_IN_CODE = 1  # block state: inside a fenced code block


class _HeadingHighlighter(QSyntaxHighlighter):
    """Headings stand out: Markdown heading lines and lines that are a fragment's heading.

    Fenced code reads as code (fixed pitch), and a "# comment" inside it is not a heading.
    """

    def __init__(self, document: QTextDocument, titles: set[str]) -> None:
        super().__init__(document)
        self.titles = titles
        self.fmt = QTextCharFormat()
        self.fmt.setFontWeight(QFont.Weight.Bold)
        self.fmt.setForeground(_HEADING_COLORS[0])
        self.code_fmt = QTextCharFormat()
        self.code_fmt.setFontFamilies([QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()])
        self.code_fmt.setFontFixedPitch(True)

    def highlightBlock(self, text: str) -> None:  # noqa: N802
        stripped = text.strip()
        in_code = self.previousBlockState() == _IN_CODE
        fence = stripped.startswith(("```", "~~~"))
        if in_code or fence:
            self.setFormat(0, len(text), self.code_fmt)
            self.setCurrentBlockState(-1 if in_code and fence else _IN_CODE)
            return
        self.setCurrentBlockState(-1)
        if stripped and (stripped.lstrip("#") != stripped and stripped.lstrip("#")[:1] in (" ", "")
                         or stripped in self.titles):
            self.setFormat(0, len(text), self.fmt)


class DocumentReader(QWidget):
    newNoteFromSelection = Signal(int, int, str, str)  # document id, fragment id, source label, text
    localOnlyToggled = Signal(int, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document: Document | None = None
        self.fragments: list[Fragment] = []
        self._starts: list[int] = []  # code-point offset of each fragment in the shown text
        self._lengths: list[int] = []  # each fragment's length as shown (its HTML tags hidden)
        self._origins: list[list[int]] = []  # per fragment: source offset of each shown character
        self._text = ""
        self._dark = False
        self._focus: tuple[int, list[tuple[int, int]]] | None = None
        self._find_hits: list[tuple[int, int]] = []
        self._loading = False

        self.title = QLabel(objectName="noteTitle", wordWrap=True)
        font = QFont(self.title.font())
        font.setPointSizeF(max(font.pointSizeF(), 10.0) + 4)
        font.setWeight(QFont.Weight.DemiBold)
        self.title.setFont(font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.path = ElidedLabel(objectName="emptyHint", mode=Qt.TextElideMode.ElideLeft)  # the file name shows
        self.local_button = QToolButton(autoRaise=True, checkable=True)
        self.local_button.setIcon(icons.svg("unlock"))
        self.local_button.toggled.connect(self._local_toggled)
        self.new_note_button = QToolButton()
        self.new_note_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.new_note_button.setIcon(icons.standard(icons.SP.SP_FileIcon))
        self.new_note_button.clicked.connect(self._new_note)
        self.new_note_button.setEnabled(False)

        self.find_field = QLineEdit()
        self.find_field.setClearButtonEnabled(True)
        self.find_field.textChanged.connect(self._find_changed)
        self.find_field.returnPressed.connect(lambda: self.find_next(backward=False))
        self.find_prev = QToolButton(autoRaise=True, arrowType=Qt.ArrowType.UpArrow)
        self.find_prev.clicked.connect(lambda: self.find_next(backward=True))
        self.find_next_button = QToolButton(autoRaise=True, arrowType=Qt.ArrowType.DownArrow)
        self.find_next_button.clicked.connect(lambda: self.find_next(backward=False))
        self.find_count = QLabel(objectName="emptyHint")

        self.outline = QTreeWidget()
        self.outline.setColumnCount(2)
        self.outline.setUniformRowHeights(True)
        header = self.outline.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.outline.itemActivated.connect(self._outline_activated)
        self.outline.itemClicked.connect(self._outline_activated)
        self.text = QPlainTextEdit(readOnly=True)
        text_font = QFont(self.text.font())
        text_font.setPointSizeF(max(text_font.pointSizeF(), 10.5) + 1)
        self.text.setFont(text_font)
        self.text.document().setDocumentMargin(14)
        self.text.copyAvailable.connect(self.new_note_button.setEnabled)
        self._highlighter = _HeadingHighlighter(self.text.document(), set())

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.title, 1)
        top.addWidget(self.local_button)
        top.addWidget(self.new_note_button)
        # The path has a line of its own: beside the find field a narrow reader (1280×720 at
        # 150 %) left it no room but "…".
        find = QHBoxLayout()
        find.setContentsMargins(0, 0, 0, 0)
        find.addStretch(1)
        find.addWidget(self.find_field)
        find.addWidget(self.find_prev)
        find.addWidget(self.find_next_button)
        find.addWidget(self.find_count)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.outline)
        self.splitter.addWidget(self.text)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([OUTLINE_WIDTH, 700])
        self._outline_width = OUTLINE_WIDTH  # what the outline returns to when there is room
        self._fitting = False
        self.splitter.splitterMoved.connect(self._outline_dragged)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addWidget(self.path)
        layout.addLayout(find)
        layout.addWidget(self.splitter, 1)
        # Ctrl+F is the window's Edit → Find, which comes here when the reader is shown
        # (a second Ctrl+F shortcut here would make the key ambiguous and do nothing).
        QShortcut(QKeySequence.StandardKey.FindNext, self, activated=lambda: self.find_next(backward=False))
        QShortcut(QKeySequence.StandardKey.FindPrevious, self,
                  activated=lambda: self.find_next(backward=True))
        self.retranslateUi()
        self._follow_theme()  # made while the dark theme is on: no palette change will say so

    # ----- showing --------------------------------------------------------------------

    def show_document(self, document: Document, fragments: Sequence[Fragment], *,
                      focus_fragment: int | None = None,
                      highlights: list[tuple[int, int]] | None = None) -> None:
        """The whole document; ``highlights`` are offsets into the focused fragment's text."""
        self._loading = True
        try:
            self.document = document
            self.fragments = list(fragments)
            self._starts = []
            self._lengths = []
            self._origins = []
            parts: list[str] = []
            pos = 0
            for frag in self.fragments:
                if parts:
                    parts.append(_SEPARATOR)
                    pos += len(_SEPARATOR)
                self._starts.append(pos)
                shown, origin = html_hidden(frag.text)
                self._lengths.append(len(shown))
                self._origins.append(origin)
                parts.append(shown)
                pos += len(shown)
            self._text = "".join(parts)
            self._highlighter.titles = {p for f in self.fragments
                                        for p in split_part(f.heading_path)[0].split(PATH_SEPARATOR) if p}
            self.text.setPlainText(self._text)
            self.title.setText(plain_title(document.title))
            self.path.set_full_text(document.path)
            self.local_button.setChecked(document.local_only)
            self.local_button.setIcon(icons.svg("lock" if document.local_only else "unlock"))
            self._fill_outline()
            self.find_field.clear()
        finally:
            self._loading = False
        self._focus = None
        if focus_fragment is not None:
            self.go_to_fragment(focus_fragment, highlights or [])
        else:
            self.text.moveCursor(QTextCursor.MoveOperation.Start)
            self._paint()

    def set_local_only(self, document_id: int, on: bool) -> None:
        """The flag changed elsewhere (the tree): show it without emitting it again."""
        if self.document is None or self.document.id != document_id:
            return
        self._loading = True
        try:
            self.document = replace(self.document, local_only=on)
            self.local_button.setChecked(on)
            self.local_button.setIcon(icons.svg("lock" if on else "unlock"))
        finally:
            self._loading = False

    def clear(self) -> None:
        self.document = None
        self.fragments = []
        self._starts = []
        self._lengths = []
        self._origins = []
        self._text = ""
        self._focus = None
        self._find_hits = []
        self.text.clear()
        self.outline.clear()
        self.title.clear()
        self.path.set_full_text("")

    def _fill_outline(self) -> None:
        self.outline.clear()
        parents: list[QTreeWidgetItem] = []
        for entry in outline_of(self.fragments):
            label = plain_title(entry.title) or page_label(entry.page)
            item = QTreeWidgetItem([label, page_label(entry.page) if entry.title else ""])
            item.setData(0, FRAGMENT_ROLE, entry.fragment_id)
            item.setToolTip(0, label)
            del parents[entry.depth:]
            if parents:
                parents[-1].addChild(item)
            else:
                self.outline.addTopLevelItem(item)
            parents.append(item)
        self.outline.expandToDepth(0)
        self.outline.setColumnHidden(1, not any(f.page for f in self.fragments))

    def go_to_fragment(self, fragment_id: int, highlights: list[tuple[int, int]] | None = None) -> None:
        index = next((i for i, f in enumerate(self.fragments) if f.id == fragment_id), None)
        if index is None:
            return
        base = self._starts[index]
        frag = self.fragments[index]
        origin = self._origins[index]  # source offsets -> shown ones (hidden tags shift them)
        spans = [(base + bisect.bisect_left(origin, a), base + bisect.bisect_left(origin, b))
                 for a, b in (highlights or []) if 0 <= a <= b <= len(frag.text)]
        self._focus = (index, spans)
        self._scroll_to_focus()
        # Again once pending layout (a resize, the reader just shown) has run: a scroll
        # made before the text is laid out at its final width lands elsewhere.
        QTimer.singleShot(0, self, self._scroll_to_focus)
        self._paint()
        self._select_outline(fragment_id)

    def _scroll_to_focus(self) -> None:
        """The passage's start at the top of the view; a hit further down is centred."""
        if self._focus is None:
            return
        index, spans = self._focus
        self._place_cursor(len(self._text))
        self._place_cursor(self._starts[index])
        if spans:
            self._place_cursor(spans[0][0])
            if self.text.cursorRect().top() > self.text.viewport().height() * 2 // 3:
                self.text.centerCursor()  # not at the bottom edge: the lines after it matter too

    def _place_cursor(self, offset: int) -> None:
        cursor = self.text.textCursor()
        cursor.setPosition(to_utf16(self._text, offset))
        self.text.setTextCursor(cursor)
        self.text.ensureCursorVisible()

    def _select_outline(self, fragment_id: int) -> None:
        frag_index = next(i for i, f in enumerate(self.fragments) if f.id == fragment_id)
        best: QTreeWidgetItem | None = None
        it = [self.outline.topLevelItem(i) for i in range(self.outline.topLevelItemCount())]
        order = {f.id: i for i, f in enumerate(self.fragments)}
        while it:
            item = it.pop(0)
            fid = item.data(0, FRAGMENT_ROLE)
            if fid is not None and order.get(int(fid), 1 << 30) <= frag_index and (
                    best is None or order[int(fid)] >= order[int(best.data(0, FRAGMENT_ROLE))]):
                best = item
            it.extend(item.child(i) for i in range(item.childCount()))
        if best is not None:
            self.outline.setCurrentItem(best)

    def _paint(self) -> None:
        selections = []
        if self._focus is not None:
            index, spans = self._focus
            base = self._starts[index]
            selections.append(self._selection(base, base + self._lengths[index],
                                              _FOCUS_COLORS[self._dark], full_width=True))
            selections.extend(self._selection(a, b, HIT_COLOR, _ON_MARK) for a, b in spans)
        selections.extend(self._selection(a, b, _FIND_COLOR, _ON_MARK) for a, b in self._find_hits)
        self.text.setExtraSelections(selections)

    def _follow_theme(self) -> None:
        """The theme's colours for the passage band and the headings: in the dark theme the
        passage asked for was white text on a cream band, unreadable, its headings navy on black."""
        dark = self.palette().color(QPalette.ColorRole.Base).lightness() < 128
        if dark == self._dark:
            return
        self._dark = dark
        self._highlighter.fmt.setForeground(_HEADING_COLORS[dark])
        self._highlighter.rehighlight()
        self._paint()

    def _selection(self, start: int, end: int, color: QColor, text_color: QColor | None = None,
                   full_width: bool = False) -> QTextEdit.ExtraSelection:
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(to_utf16(self._text, start))
        cursor.setPosition(to_utf16(self._text, end), QTextCursor.MoveMode.KeepAnchor)
        fmt = QTextCharFormat()
        fmt.setBackground(color)
        if text_color is not None:
            fmt.setForeground(text_color)
        if full_width:
            fmt.setProperty(QTextCharFormat.Property.FullWidthSelection, True)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor  # type: ignore[misc]
        selection.format = fmt  # type: ignore[misc]
        return selection

    def fragment_at(self, offset: int) -> Fragment | None:
        if not self.fragments:
            return None
        return self.fragments[max(bisect.bisect_right(self._starts, offset) - 1, 0)]

    # ----- find -----------------------------------------------------------------------

    def focus_find(self) -> None:
        self.find_field.setFocus()
        self.find_field.selectAll()

    def _find_changed(self, needle: str) -> None:
        self._find_hits = []
        folded = needle.casefold()
        if folded:
            hay = self._text.casefold()
            if len(hay) == len(self._text):  # casefold kept offsets (almost always)
                pos = hay.find(folded)
                while pos >= 0 and len(self._find_hits) < 10000:
                    self._find_hits.append((pos, pos + len(folded)))
                    pos = hay.find(folded, pos + max(len(folded), 1))
        self._update_count(None)
        self._paint()
        if self._find_hits:
            self.find_next(backward=False, from_start=True)

    def find_next(self, *, backward: bool, from_start: bool = False) -> None:
        if not self._find_hits:
            return
        cursor_cp = _utf16_to_cp(self._text, self.text.textCursor().selectionStart())
        starts = [a for a, _ in self._find_hits]
        if from_start:
            i = 0
        elif backward:
            i = bisect.bisect_left(starts, cursor_cp) - 1
        else:
            i = bisect.bisect_right(starts, cursor_cp)
        i %= len(self._find_hits)
        a, b = self._find_hits[i]
        cursor = self.text.textCursor()
        cursor.setPosition(to_utf16(self._text, a))
        cursor.setPosition(to_utf16(self._text, b), QTextCursor.MoveMode.KeepAnchor)
        self.text.setTextCursor(cursor)
        self.text.ensureCursorVisible()
        self._update_count(i)

    def _update_count(self, current: int | None) -> None:
        if not self.find_field.text():
            self.find_count.setText("")
        elif not self._find_hits:
            self.find_count.setText(self.tr("No matches"))
        else:
            self.find_count.setText(self.tr("{0} of {1}").format(
                (current or 0) + 1, len(self._find_hits)))

    # ----- actions --------------------------------------------------------------------

    def _outline_activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        fid = item.data(0, FRAGMENT_ROLE)
        if fid is not None:
            self.go_to_fragment(int(fid))

    def _new_note(self) -> None:
        cursor = self.text.textCursor()
        selected = cursor.selection().toPlainText()
        if not selected.strip() or self.document is None:
            return
        frag = self.fragment_at(_utf16_to_cp(self._text, cursor.selectionStart()))
        if frag is None:
            return
        self.newNoteFromSelection.emit(self.document.id, frag.id, self.source_label(frag), selected)

    def source_label(self, frag: Fragment) -> str:
        """"“Title”, p. 42" (《Title》 第 42 页) or with the heading path: where a quotation came from."""
        assert self.document is not None
        # The chapter's own H1 is the title already: "“附录 A”, 附录 A > 原始标识符" said it twice.
        where = page_label(frag.page, frag.page_end) or shown_heading_path(
            below_title(self.document.title, frag.heading_path))
        if not where:
            return self.tr("“{0}”").format(plain_title(self.document.title))
        return self.tr("“{0}”, {1}").format(plain_title(self.document.title), where)

    def _local_toggled(self, on: bool) -> None:
        self.local_button.setIcon(icons.svg("lock" if on else "unlock"))
        if not self._loading and self.document is not None:
            self.localOnlyToggled.emit(self.document.id, on)

    def _fit_header(self) -> None:
        """"New note from selection" keeps its words where the title still has room for a
        line of its own; narrower (1280×720 at 150 %), it is its icon and tooltip, and the
        title beside it no longer wraps into four lines ("Rc<T> / 引用计 / 数智能 / 指针")."""
        button = self.new_note_button
        words = button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
        with_words = button.sizeHint().width() if words else (
            button.sizeHint().width() + button.fontMetrics().horizontalAdvance(button.text()))
        title_room = self.title.fontMetrics().averageCharWidth() * TITLE_ROOM_CHARS
        wide = self.width() - with_words >= title_room
        style = Qt.ToolButtonStyle.ToolButtonTextBesideIcon if wide else Qt.ToolButtonStyle.ToolButtonIconOnly
        if button.toolButtonStyle() != style:
            button.setToolButtonStyle(style)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        self._fit_header()
        # Resized while hidden behind the editor (the window made narrow, then a document
        # opened), the splitter had no sizes to fit: the outline kept 200 px of 320 and the
        # text was six ideographs wide. Fit once the splitter is laid out at its new width.
        QTimer.singleShot(0, self, self._fit_outline)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_header()
        self._fit_outline()

    def _fit_outline(self) -> None:
        # The text is what is read: on a narrow window (150 % with Ask the library open) the
        # outline kept its 200 px and the text column was as narrow, seven ideographs a line.
        # The outline takes at most a third, down to room for a few words, and gets its width
        # back when the window does; a width the person dragged to is the one it returns to,
        # and an outline they folded away stays folded.
        outline, text = self.splitter.sizes()
        total = outline + text
        if outline == 0 or total <= 0:
            return
        cap = max(total // 3, self.outline.fontMetrics().horizontalAdvance("中" * OUTLINE_MIN_CHARS))
        fitted = min(self._outline_width, cap)
        if fitted != outline:
            self._fitting = True
            self.splitter.setSizes([fitted, total - fitted])
            self._fitting = False

    def _outline_dragged(self, position: int, _index: int) -> None:
        if not self._fitting:
            self._outline_width = position

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        elif event.type() == QEvent.Type.PaletteChange:
            self._follow_theme()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.new_note_button.setText(self.tr("New note from selection"))
        self.new_note_button.setToolTip(self.tr("Quote the selected text in a new note that links back here"))
        self.local_button.setToolTip(self.tr("Local only: never sent to a cloud service"))
        hint = self.tr("Find in document (Ctrl+F)")
        self.find_field.setPlaceholderText(hint)
        # Room for the whole hint (Chinese is wider per word than it looks in the source).
        self.find_field.setMinimumWidth(self.find_field.fontMetrics().horizontalAdvance(hint) + 36)
        self.find_prev.setToolTip(self.tr("Previous match"))
        self.find_next_button.setToolTip(self.tr("Next match"))
        self.outline.setHeaderLabels([self.tr("Outline"), self.tr("Page")])
        # A screen reader read the text as "edit" and the outline as "tree".
        self.text.setAccessibleName(self.tr("Document text"))
        self.outline.setAccessibleName(self.tr("Outline"))
        self.outline.header().setAccessibleName(self.tr("Outline"))
        if self.document is not None:
            self._fill_outline()
        self._update_count(None)


def _utf16_to_cp(text: str, position: int) -> int:
    """Qt's UTF-16 position back to a code-point offset into ``text``."""
    if text.isascii() or all(ord(c) < 0x10000 for c in text[:position]):
        return position
    units = 0
    for i, ch in enumerate(text):
        if units >= position:
            return i
        units += 2 if ord(ch) >= 0x10000 else 1
    return len(text)
