"""Global search (Ctrl+K): results as you type, keyboard first.

Each query runs off the GUI thread; a generation counter drops answers to
queries the person has already typed past, so results never flicker back.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.retrieval.results import SearchResponse, SearchResult
from desktop_kb.retrieval.search import NOTHING_NOTICE
from desktop_kb.tasks.library_tasks import TaskRunner
from desktop_kb.ui.i18n import RESOURCES
from desktop_kb.ui.locator_text import shown_title
from desktop_kb.ui.snippet_html import marked_html

DEBOUNCE_MS = 150
LOCK_ICON = (RESOURCES / "icons" / "lock.svg").as_posix()
LIMIT = 20
UNDER_LAST_LINE_PX = 3  # below a hit's last line, where an underscore hangs

SearchFn = Callable[[str], SearchResponse]


def snippet_html(result: SearchResult) -> str:
    """The snippet without Markdown markers, its highlights (absolute source offsets) in colour."""
    return marked_html(result.snippet, result.start, result.highlights, result.title).replace("\n", " ")


class SearchPopup(QDialog):
    resultChosen = Signal(object)  # SearchResult
    resultsShown = Signal(int)  # how many results are listed now

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._search: SearchFn | None = None
        self.generation = 0
        self.results: list[SearchResult] = []
        self.setModal(False)
        self.setObjectName("searchPopup")
        # A popup, not a window: no title bar, no minimise/maximise under any window manager.
        self.setWindowFlags(Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint)
        self.resize(720, 480)
        self.query = QLineEdit(objectName="searchQuery", clearButtonEnabled=True)
        self.query.installEventFilter(self)
        self.list = QListWidget(objectName="searchResults")
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.list.setAlternatingRowColors(False)
        self.list.itemActivated.connect(lambda _item: self.open_current())
        self.list.installEventFilter(self)
        # A query that finds nothing says so where the results would be, in words that
        # tell a keyword miss from "nothing near in meaning", not only in the status line.
        self.empty = QLabel(objectName="searchEmpty", wordWrap=True,
                            alignment=Qt.AlignmentFlag.AlignCenter)
        self.empty.setTextFormat(Qt.TextFormat.RichText)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.list)
        self.pages.addWidget(self.empty)
        self.state = QLabel(objectName="emptyHint", wordWrap=True)
        # Keyword search that found only some of the words lists those passages under this
        # line (retrieval.search.weak_matches_shown): above the list, where it is read first.
        self.weak = QLabel(objectName="searchWeak", wordWrap=True)
        self.weak.setTextFormat(Qt.TextFormat.RichText)
        self.weak.hide()
        self._weak_shown = False
        self._weak_with_model = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 10)
        layout.setSpacing(8)
        layout.addWidget(self.query)
        layout.addWidget(self.weak)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.state)
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self._run_query)
        self.query.textChanged.connect(self._typed)
        self.retranslateUi()

    def set_search(self, search: SearchFn | None) -> None:
        self._search = search

    def popup(self) -> None:
        parent = self.parentWidget()
        if parent is not None:
            geo = parent.geometry()
            width = min(760, max(520, geo.width() - 160))
            self.resize(width, min(520, max(320, geo.height() - 200)))
            self.move(geo.x() + (geo.width() - width) // 2, geo.y() + 80)
        self.show()
        self.raise_()
        self.activateWindow()
        self.query.setFocus()
        self.query.selectAll()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 - Qt API
        # The keys go back to the window (Esc, or Enter on a hit that opens in it): where no
        # window manager hands the focus back, Ctrl+K, Ctrl+, and every key after a search
        # went nowhere until the window was clicked.
        super().hideEvent(event)
        # Only when nothing else took them: a click on another window of the app keeps them.
        parent = self.parentWidget()
        if parent is not None and parent.isVisible() and QApplication.activeWindow() in (None, self):
            parent.activateWindow()

    # ----- querying -------------------------------------------------------------------

    def _typed(self, _text: str) -> None:
        self.generation += 1  # anything in flight is now stale
        self._debounce.start()

    def _run_query(self) -> None:
        text = self.query.text().strip()
        self.generation += 1
        generation = self.generation
        if not text:
            self._show(generation, SearchResponse(query="", mode=""))
            return
        search = self._search
        if search is None:
            self.state.setText(self.tr("The library is still opening…"))
            return
        self.state.setText(self.tr("Searching…"))
        self._runner.run(lambda: search(text),
                         lambda response: self._show(generation, response),
                         lambda exc: self._failed(generation, exc))

    def _show(self, generation: int, response: SearchResponse) -> None:
        if generation != self.generation:
            return  # a newer query is on its way
        self.results = list(response.results)
        self.list.clear()
        for result in self.results:
            item = QListWidgetItem()
            label = QLabel(self._result_html(result))
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
            label.setMinimumWidth(0)  # wrap to the list's width; never push a horizontal scrollbar
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            label.setContentsMargins(8, 6, 8, 6)
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
            self.list.addItem(item)
            self.list.setItemWidget(item, label)
        if self.results:
            self.list.setCurrentRow(0)
        self._weak_shown = response.weak_matches and bool(self.results)
        self._weak_with_model = response.mode != "lexical"  # a model searched by meaning too
        self._say_weak()
        if response.query and not self.results:
            self._show_empty(nothing_close=response.notice == NOTHING_NOTICE)
        else:
            self.pages.setCurrentWidget(self.list)
            if response.weak_matches:
                self.state.setText(self.tr("↑↓ to choose, Enter to open, Esc to close"))
            elif response.notice:
                self.state.setText(response.notice)
            elif self.results and response.searched_as:
                # 執行緒 was searched as 线程: say so, or the highlighted words look unrelated.
                self.state.setText(self.tr("Searched in the library's words: {0}").format(
                    response.searched_as))
            elif self.results:
                self.state.setText(self.tr("↑↓ to choose, Enter to open, Esc to close"))
            else:
                self.state.setText(self.tr("Type to search notes and the library."))
        self._fix_row_heights()
        self.resultsShown.emit(len(self.results))

    def _say_weak(self) -> None:
        if not self._weak_shown:
            self.weak.hide()
            return
        headline = self.tr("Only some of these words are in the library.")
        if self._weak_with_model:
            hint = self.tr("The passages below hold some of them, and none is close in meaning: they "
                           "may not be what you mean. Try the words the material itself would use.")
        else:
            hint = self.tr("The passages below hold some of them and may not be what you mean. Try the "
                           "words the material itself would use, or install an embedding model "
                           "(Settings → Embedding model) to search by meaning.")
        self.weak.setText(f"<b>{html.escape(headline)}</b> {html.escape(hint)}")
        self.weak.setAccessibleName(headline)
        self.weak.show()

    def _show_empty(self, nothing_close: bool) -> None:
        """Say, where the results would be, why there are none: "nothing close" (meaning
        search looked and found nothing near) must not read like a keyword miss."""
        if nothing_close:
            headline = self.tr("Nothing in the library is close to this.")
            hint = self.tr("No passage contains these words, and none is close in meaning. "
                           "Try the words the material itself would use.")
        else:
            headline = self.tr("No results.")
            hint = self.tr("No note or library document contains these words. "
                           "Try fewer or different words.")
        self.empty.setText(f"<p style='font-size:12pt'><b>{html.escape(headline)}</b></p>"
                           f"<p>{html.escape(hint)}</p>")
        self.empty.setAccessibleName(headline)
        self.pages.setCurrentWidget(self.empty)
        self.state.setText(self.tr("Esc to close"))

    def _fix_row_heights(self) -> None:
        """Word-wrapped labels need their height for the list's actual width."""
        width = max(200, self.list.viewport().width() - 2)
        for i in range(self.list.count()):
            item = self.list.item(i)
            label = self.list.itemWidget(item)
            if isinstance(label, QLabel):
                # Room under the last line, the text at the top: a label draws only inside its
                # text's height, and the underscores of "split_whitespace" on a hit's last line
                # hang below it (they were not drawn at all).
                label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
                item.setSizeHint(QSize(width, label.heightForWidth(width) + UNDER_LAST_LINE_PX))

    def _failed(self, generation: int, exc: BaseException) -> None:
        if generation == self.generation:
            self.state.setText(self.tr("Search failed: {0}").format(exc))

    def _result_html(self, result: SearchResult) -> str:
        kind = self.tr("Note") if result.source_type == "note" else self.tr("Library")
        lock = (f' <img src="{LOCK_ICON}" width="12" height="12">' if result.local_only else "")
        title = html.escape(shown_title(result.title) or self.tr("Untitled"))
        return (f'<div><b>{title}</b>{lock} <span style="color:#888">· {kind}</span></div>'
                f'<div>{snippet_html(result)}</div>')

    # ----- keyboard -------------------------------------------------------------------

    def open_current(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.results):
            self.hide()
            self.resultChosen.emit(self.results[row])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up) and self.list.count():
                step = 1 if key == Qt.Key.Key_Down else -1
                row = max(0, min(self.list.count() - 1, self.list.currentRow() + step))
                self.list.setCurrentRow(row)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if self._debounce.isActive():  # Enter right after typing: search first
                    self._debounce.stop()
                    self._run_query()
                    return True
                self.open_current()
                return True
            if key == Qt.Key.Key_Escape:
                self.hide()
                return True
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: object) -> None:  # noqa: N802
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._fix_row_heights()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        elif event.type() == QEvent.Type.ActivationChange and not self.isActiveWindow() and self.isVisible() \
                and QApplication.activeWindow() is not None:
            self.hide()  # clicked elsewhere in the app: a popup goes away
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Search"))
        self.query.setPlaceholderText(self.tr("Search notes and the library — 中文 or English"))
        # A screen reader read the results as "list" and the field's ⊗ as "button".
        self.list.setAccessibleName(self.tr("Search results"))
        for button in self.query.findChildren(QToolButton):
            button.setAccessibleName(self.tr("Clear the search"))
        if not self.results:
            self.state.setText(self.tr("Type to search notes and the library."))
        self._say_weak()
