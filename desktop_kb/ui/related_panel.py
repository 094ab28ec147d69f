"""The related-material panel beside the editor: suggestions with reasons, and links.

Only draws and forwards clicks: the work runs in ``tasks.related_tasks``. A
suggestion becomes a link only when the person clicks ✓ (I9); ✕ hides it for
this note for good. The last change can be undone from the bar at the top.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.discovery.grouping import SuggestionGroup
from desktop_kb.discovery.links_view import LinkEntry
from desktop_kb.discovery.panel import NearDuplicate
from desktop_kb.discovery.related import Suggestion
from desktop_kb.markup.plain import strip_with_spans
from desktop_kb.tasks.related_tasks import Action, RelatedController, RelatedView
from desktop_kb.ui.accessible import name_unnamed
from desktop_kb.ui.elided_button import ElidedButton
from desktop_kb.ui.locator_text import shown_title

RENDER_SLICE_S = 0.008  # GUI time spent building widgets per event-loop turn

PANEL_STYLE = """
QFrame#relatedPanel { background: palette(base); }
QFrame#suggestionCard { border: 1px solid palette(midlight); border-radius: 6px; background: palette(window); }
QLabel#suggestionTag { color: palette(dark); font-size: 8pt; }
QLabel#relatedSection { font-weight: 600; color: palette(dark); padding: 8px 2px 2px 2px; }
QFrame#nearDuplicate { border: 1px solid #d9b44a; border-radius: 6px; background: palette(window); }
QLabel#suggestionCopies { color: palette(dark); font-size: 8pt; }
QToolButton#acceptButton { color: #2e7d32; font-weight: 700; }
QToolButton#dismissButton { color: #a33; font-weight: 700; }
QPushButton#linkTitle, QPushButton#suggestionTitle { border: none; text-align: left; padding: 2px; }
QPushButton#suggestionTitle { font-weight: 600; }
QPushButton#linkTitle:hover, QPushButton#suggestionTitle:hover { color: palette(link); }
"""


# Code punctuation after which a long token may wrap ("impl Messenger for MockMessenger {
# fn send(&self, message: &str) {…" in a narrow panel is one unbroken line otherwise).
_CODE_BREAK = re.compile(r"([(){}\[\]:;,.=&/_<>|])(?=[^\s(){}\[\]:;,.=&/_<>|])")


def _breakable(text: str) -> str:
    """``text`` escaped, with a zero-width space where a long run of code may wrap."""
    return html.escape(re.sub(r"\S{16,}", lambda m: _CODE_BREAK.sub("\\1\u200b", m.group()), text))


def highlighted_html(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` as escaped rich text with ``spans`` (offsets into it) in bold."""
    out: list[str] = []
    pos = 0
    for start, end in sorted(spans):
        if start < pos or end > len(text):
            continue
        out.append(_breakable(text[pos:start]))
        out.append(f'<b style="background-color:#fff1a8;color:#111">{_breakable(text[start:end])}</b>')
        pos = end
    out.append(_breakable(text[pos:]))
    return "".join(out).replace("\n", " ")


def _narrowable(label: QLabel) -> None:
    """A word-wrapped label that never widens its card past the panel: a word longer than the
    panel (a code token) is wrapped or cut at the edge, not the card's ✓ and ✕ with it."""
    policy = label.sizePolicy()  # keeps the word wrap's height-for-width
    policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
    label.setSizePolicy(policy)


def _elide(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class SuggestionCard(QFrame):
    """One passage: its best copy, and where else the same text sits (dismissed together)."""

    opened = Signal(object)  # Suggestion
    accepted = Signal(object)
    dismissed = Signal(object)

    def __init__(self, group: SuggestionGroup, parent: QWidget | None = None, *, writable: bool = True) -> None:
        super().__init__(parent, objectName="suggestionCard")
        self.group = group
        suggestion = group.lead
        self.suggestion = suggestion
        self.copies = QLabel(objectName="suggestionCopies", wordWrap=True)
        self.open_button = ElidedButton(objectName="suggestionTitle", flat=True)
        self.open_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.open_button.clicked.connect(lambda: self.opened.emit(self.suggestion))
        self.tag = QLabel(objectName="suggestionTag")
        self.accept_button = QToolButton(objectName="acceptButton", text="✓")
        self.accept_button.clicked.connect(lambda: self.accepted.emit(self.suggestion))
        self.dismiss_button = QToolButton(objectName="dismissButton", text="✕")
        self.dismiss_button.clicked.connect(lambda: self.dismissed.emit(self.suggestion))
        self.reason = QLabel(objectName="suggestionReason", wordWrap=True)
        self.reason.setTextFormat(Qt.TextFormat.RichText)
        self.snippet = QLabel(wordWrap=True)
        self.snippet.setTextFormat(Qt.TextFormat.RichText)
        self.snippet.setText(highlighted_html(*strip_with_spans(suggestion.snippet, suggestion.highlights)))
        for label in (self.snippet, self.reason, self.copies):
            _narrowable(label)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.open_button, 1)
        top.addWidget(self.accept_button)
        top.addWidget(self.dismiss_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(3)
        layout.addLayout(top)
        layout.addWidget(self.tag)
        if group.copies:
            layout.addWidget(self.copies)
        layout.addWidget(self.reason)
        if suggestion.snippet:  # (setVisible on a widget without a parent would make a window)
            layout.addWidget(self.snippet)
        if not writable:  # a read-only library can store neither a link nor a dismissal
            self.accept_button.hide()
            self.dismiss_button.hide()
        self.retranslateUi()

    def retranslateUi(self) -> None:  # noqa: N802
        s = self.suggestion
        self.open_button.set_full_text(shown_title(s.title) or self.tr("Untitled"))
        self.open_button.setToolTip(shown_title(s.title))
        self.tag.setText(self.tr("Note") if s.target_type == "note" else self.tr("Library passage"))
        self.accept_button.setToolTip(self.tr("Link this to the open note"))
        if self.group.copies:
            self.dismiss_button.setToolTip(self.tr("Don't suggest this passage (or any copy of it) for this note again"))
            others = ", ".join(_elide(shown_title(c.title), 30) for c in self.group.copies[:3])
            more = len(self.group.copies) - 3
            self.copies.setText(self.tr("Same text also in: {0}").format(others)
                                + (self.tr(" and %n more", "", more) if more > 0 else ""))
        else:
            self.dismiss_button.setToolTip(self.tr("Don't suggest this for this note again"))
        parts: list[str] = []
        if s.terms:
            terms = ", ".join(f"<b>{html.escape(t)}</b>" for t in s.terms)
            parts.append(self.tr("Shared terms: {0}").format(terms))
        # Likeness is the model's similarity read on this library (0 % = unrelated text,
        # 100 % = the same text), so the same percentage means the same for every model.
        likeness = s.likeness if s.likeness is not None else s.similarity
        if likeness is not None and round(likeness * 100) > 0:  # never "similar in meaning: 0 %"
            parts.append(html.escape(self.tr("Similar in meaning: {0}%").format(round(likeness * 100))))
        if not parts:
            parts.append(html.escape(self.tr("Related in meaning")))
        self.reason.setText(" · ".join(parts))
        name_unnamed(self)  # ✓ and ✕ read as "check mark" and "multiplication x"


class LinkRow(QWidget):
    opened = Signal(object)  # LinkEntry
    removed = Signal(object)

    def __init__(self, entry: LinkEntry, *, backlink: bool, parent: QWidget | None = None,
                 writable: bool = True) -> None:
        super().__init__(parent)
        self.entry = entry
        self.backlink = backlink
        self.open_button = ElidedButton(objectName="linkTitle", flat=True)
        self.open_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.open_button.clicked.connect(lambda: self.opened.emit(self.entry))
        self.remove_button = QToolButton(objectName="dismissButton", text="✕")
        self.remove_button.clicked.connect(lambda: self.removed.emit(self.entry))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.open_button, 1)
        row.addWidget(self.remove_button)
        self.retranslateUi()
        if not writable:
            self.remove_button.hide()

    def retranslateUi(self) -> None:  # noqa: N802
        e = self.entry
        arrow = "←" if self.backlink else "→"
        kind = self.tr("note") if e.target_type == "note" else self.tr("passage")
        title = _elide(shown_title(e.title) or self.tr("Untitled"), 50)
        if e.trashed:
            title = self.tr("{0} (in trash)").format(title)
        self.open_button.set_full_text(f"{arrow} {title}  ·  {kind}")
        self.open_button.setToolTip(shown_title(e.title))
        if e.origin == "wiki":
            # Typed as [[…]]: the text is the link, so the text is where it is removed.
            self.remove_button.hide()
            self.open_button.setToolTip(self.tr("{0} — typed as [[…]] in the note; delete that text to "
                                                "remove the link").format(e.title))
        self.remove_button.setToolTip(self.tr("Remove this link"))
        name_unnamed(self)


class NearDuplicateHint(QFrame):
    """"This note is nearly the same as …": a hint with a side-by-side comparison, never a merge."""

    compare = Signal(object)  # NearDuplicate
    opened = Signal(object)

    def __init__(self, duplicate: NearDuplicate, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="nearDuplicate")
        self.duplicate = duplicate
        self.text = QLabel(wordWrap=True)
        self.compare_button = QPushButton()
        self.compare_button.clicked.connect(lambda: self.compare.emit(self.duplicate))
        self.open_button = QPushButton()
        self.open_button.clicked.connect(lambda: self.opened.emit(self.duplicate))
        buttons = QHBoxLayout()
        buttons.addWidget(self.compare_button)
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.text)
        layout.addLayout(buttons)
        self.retranslateUi()

    def retranslateUi(self) -> None:  # noqa: N802
        d = self.duplicate
        how = []
        if d.overlap > 0:
            how.append(self.tr("{0}% of the text is the same").format(round(d.overlap * 100)))
        if d.same_meaning and d.similarity is not None:
            how.append(self.tr("{0}% similar in meaning").format(round(d.similarity * 100)))
        self.text.setText(self.tr("This note is nearly the same as “{0}” ({1}). Nothing is merged; "
                                  "compare them and decide.").format(_elide(d.title or self.tr("Untitled"), 50),
                                                                      ", ".join(how)))
        self.compare_button.setText(self.tr("Compare side by side"))
        self.open_button.setText(self.tr("Open it"))


class RelatedPanel(QFrame):
    """Near-duplicate hints and the open note's links first, then suggestions."""

    compareRequested = Signal(object)  # NearDuplicate

    openNote = Signal(int, object, object)  # note id, highlights, scroll to
    rendered = Signal(int)  # note id: every card and link row of the latest view is on screen
    openFragment = Signal(int, int, object, object)  # document id, fragment id, highlights, scroll to

    def __init__(self, controller: RelatedController, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="relatedPanel")
        self.controller = controller
        self.view: RelatedView | None = None
        self.cards: list[SuggestionCard] = []
        self.link_rows: list[LinkRow] = []
        self._pending: list[Callable[[], None]] = []  # widgets still to build, a few per turn
        self._render_timer = QTimer(self, singleShot=True, interval=0)
        self._render_timer.timeout.connect(self._render_step)
        self._message = ""
        self.reading = False  # a document, not a note, is open beside the panel
        self.setStyleSheet(PANEL_STYLE)
        self.setMinimumWidth(240)

        self.header = QLabel(objectName="paneHeader")
        self.status = QLabel(objectName="emptyHint", wordWrap=True)
        self.degraded = QLabel(objectName="degradedNotice", wordWrap=True)
        self.degraded.hide()
        self.undo_bar = QFrame(objectName="undoBar")
        self.undo_label = QLabel(wordWrap=True)
        self.undo_button = QToolButton()
        self.undo_button.clicked.connect(controller.undo)
        undo_row = QHBoxLayout(self.undo_bar)
        undo_row.setContentsMargins(8, 2, 4, 2)
        undo_row.addWidget(self.undo_label, 1)
        undo_row.addWidget(self.undo_button)
        self.undo_bar.hide()

        self.suggestions_header = QLabel(objectName="relatedSection")
        self.suggestion_box = QVBoxLayout()
        self.suggestion_box.setSpacing(6)
        self.links_header = QLabel(objectName="relatedSection")
        self.outgoing_box = QVBoxLayout()
        self.backlinks_header = QLabel(objectName="relatedSection")
        self.backlink_box = QVBoxLayout()
        # A note without links either way gets one line under its suggestions, not two headings
        # and two "none yet" lines above them (~140 px at 150 %, pushing the first suggestion
        # down to the panel's middle at 1280x720).
        self.no_links = QLabel(objectName="emptyHint", wordWrap=True)
        self.hint_box = QVBoxLayout()
        self.hints: list[NearDuplicateHint] = []
        body = QWidget()
        inner = QVBoxLayout(body)
        inner.setContentsMargins(6, 0, 6, 6)
        # Links first: what the person linked matters more than what the app guesses.
        inner.addLayout(self.hint_box)
        inner.addWidget(self.links_header)
        inner.addLayout(self.outgoing_box)
        inner.addWidget(self.backlinks_header)
        inner.addLayout(self.backlink_box)
        inner.addWidget(self.suggestions_header)
        inner.addWidget(self.status)
        inner.addLayout(self.suggestion_box)
        inner.addWidget(self.no_links)
        inner.addStretch(1)
        self.scroll = QScrollArea(widgetResizable=True, frameShape=QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a Tab stop that did nothing
        self.scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.degraded)
        layout.addWidget(self.undo_bar)
        layout.addWidget(self.scroll, 1)

        controller.viewReady.connect(self.show_view)
        controller.actionDone.connect(self._action_done)
        controller.undone.connect(lambda _a: self.undo_bar.hide())
        controller.failed.connect(self._failed)
        controller.enabledChanged.connect(self.setVisible)
        self.show_note(None)
        self.retranslateUi()

    # ----- state -----------------------------------------------------------------------

    def show_note(self, note_id: int | None) -> None:
        """A new note is open (or none): never leave the previous note's material on screen."""
        if note_id is None or note_id != self.controller.note_id or self.view is None:
            self.view = None
            self._clear()
            self.undo_bar.hide()
        self.controller.set_note(note_id)
        self._render_status()

    def show_view(self, view: RelatedView) -> None:
        if view.note_id != self.controller.note_id:
            return
        self.view = view
        self._message = ""
        self._clear()
        # Widgets are built a few at a time, so the event loop never waits on a
        # whole panel of word-wrapped rich text at once (DESIGN §7: no stall > 50 ms).
        self._pending = [lambda d=d: self._add_hint(d) for d in view.result.near_duplicates[:2]]
        self._pending += [lambda e=e: self._add_link_row(e, backlink=False) for e in view.links.outgoing]
        self._pending += [lambda e=e: self._add_link_row(e, backlink=True) for e in view.links.backlinks]
        self._pending += [lambda g=g: self._add_card(g) for g in view.result.groups]
        self._render_status()
        self._render_step()

    @property
    def rendering(self) -> bool:
        return bool(self._pending)

    def _render_step(self) -> None:
        started = time.perf_counter()
        while self._pending and (time.perf_counter() - started) < RENDER_SLICE_S:
            self._pending.pop(0)()
        if self._pending:
            self._render_timer.start()
        elif self.view is not None:
            self.rendered.emit(self.view.note_id)

    def _add_hint(self, duplicate: NearDuplicate) -> None:
        hint = NearDuplicateHint(duplicate)
        hint.compare.connect(self.compareRequested)
        hint.opened.connect(lambda d: self._open_key(d.target_type, d.target_id, d.document_id))
        self.hint_box.addWidget(hint)
        self.hints.append(hint)

    def _open_key(self, target_type: str, target_id: int, document_id: int | None) -> None:
        if target_type == "note":
            self.openNote.emit(target_id, None, None)
        elif document_id is not None:
            self.openFragment.emit(document_id, target_id, None, None)

    def _add_card(self, group: SuggestionGroup) -> None:
        card = SuggestionCard(group, writable=not self.controller.read_only)
        card.opened.connect(self._open_suggestion)
        card.accepted.connect(self._accept)
        card.dismissed.connect(self._dismiss)
        self.suggestion_box.addWidget(card)
        self.cards.append(card)

    def _add_link_row(self, entry: LinkEntry, *, backlink: bool) -> None:
        row = LinkRow(entry, backlink=backlink, writable=not self.controller.read_only)
        row.opened.connect(self._open_link)
        row.removed.connect(self._remove_link)
        (self.backlink_box if backlink else self.outgoing_box).addWidget(row)
        self.link_rows.append(row)

    def _clear(self) -> None:
        self._pending = []
        self._render_timer.stop()
        for widget in [*self.cards, *self.link_rows, *self.hints]:
            widget.hide()
            widget.setParent(None)
            widget.deleteLater()
        self.cards = []
        self.link_rows = []
        self.hints = []

    # ----- clicks ----------------------------------------------------------------------

    def _accept(self, s: Suggestion) -> None:
        self._hide_card(s)
        self.controller.accept(s.target_type, s.target_id, s.title)

    def _dismiss(self, s: Suggestion) -> None:
        self._hide_card(s)
        card = next((c for c in self.cards if c.suggestion.key == s.key), None)
        copies = tuple(c.key for c in card.group.copies) if card is not None else ()
        self.controller.dismiss(s.target_type, s.target_id, s.title, copies)

    def _hide_card(self, s: Suggestion) -> None:
        for card in self.cards:
            if card.suggestion.key == s.key:
                card.accept_button.setEnabled(False)
                card.dismiss_button.setEnabled(False)

    def _remove_link(self, entry: LinkEntry) -> None:
        note_id = self.controller.note_id
        if note_id is None:
            return
        for row in self.link_rows:
            if row.entry is entry:
                row.remove_button.setEnabled(False)
                backlink = row.backlink
                break
        else:
            return
        if backlink:  # the link belongs to the other note
            self.controller.remove_link(entry.target_id, "note", note_id, entry.title, entry.origin)
        else:
            self.controller.remove_link(note_id, entry.target_type, entry.target_id, entry.title,
                                        entry.origin)

    def _open_suggestion(self, s: Suggestion) -> None:
        highlights = [(s.start + a, s.start + b) for a, b in s.highlights]
        if s.target_type == "note":
            self.openNote.emit(s.target_id, highlights, s.start)
        elif s.document_id is not None:
            self.openFragment.emit(s.document_id, s.target_id, highlights, s.start)

    def _open_link(self, entry: LinkEntry) -> None:
        if entry.target_type == "note":
            self.openNote.emit(entry.target_id, None, None)
        elif entry.document_id is not None:
            self.openFragment.emit(entry.document_id, entry.target_id, None, None)

    def _action_done(self, action: Action) -> None:
        title = _elide(action.title or self.tr("Untitled"), 40)
        texts = {
            "link": self.tr("Linked “{0}”."),
            "dismiss": self.tr("“{0}” will not be suggested for this note again."),
            "unlink": self.tr("Link to “{0}” removed."),
        }
        self.undo_label.setText(texts[action.kind].format(title))
        self.undo_bar.show()

    def _failed(self, message: str) -> None:
        self._message = self.tr("Related material is unavailable: {0}").format(message)
        self._render_status()

    # ----- text ------------------------------------------------------------------------

    def _render_status(self) -> None:
        view = self.view
        if self._message:
            text = self._message
        elif self.controller.note_id is None and self.reading and not self.controller.read_only:
            # Beside a book chapter "open a note" reads as if the panel ignored what is open.
            text = self.tr("Related material is shown for notes. To keep a passage with its "
                           "related material, select it and choose “New note from selection”.")
        elif self.controller.note_id is None:
            text = self.tr("Open a note to see related notes and library passages.")
        elif view is None:
            text = self.tr("Looking for related material…")
        elif view.result.missing:
            text = self.tr("This note is in the trash: no suggestions.")
        elif view.result.welcome:
            # It is about the app: it shares 搜索, Ctrl, 状态 with any note, and any note with it.
            text = self.tr("This is the app’s welcome note: related material is suggested beside "
                           "your own notes. Once you edit this note, it is treated as yours.")
        elif not view.result.groups and view.result.small_library and not self.controller.read_only:
            # A handful of notes: say why the panel is empty and how it fills, rather than
            # offer whatever shares a word by chance (the panel shows nothing below its floor).
            text = self.tr("Nothing related yet: this library is still small. Suggestions come as it "
                           "grows: write more notes on the topic, link notes with [[title]], or import "
                           "study material (File → Import folder…).")
        elif not view.result.groups:
            text = (self.tr("Nothing related found.") if self.controller.read_only else
                    self.tr("Nothing related found yet. Suggestions update after the note is saved."))
        elif self.controller.read_only:
            text = self.tr("Suggested because they share terms or meaning with this note.")
        else:
            text = self.tr("Suggested because they share terms or meaning with this note. "
                           "✓ links, ✕ hides for good.")
        self.status.setText(text)
        lexical_only = (view is not None and view.result.mode != "hybrid" and not view.result.missing
                        and not view.result.welcome)
        # Advice the person can take: no "install" for a model that is installed but still
        # loading (or failed to load), nor on a read-only disk where nothing can be installed.
        if view is not None and view.result.model_loading:
            text = self.tr("Keyword matches only for now: the embedding model {0} is still loading. "
                           "Suggestions by meaning follow by themselves.").format(view.result.model_loading)
        elif view is not None and view.result.model_failed:
            text = self.tr("Keyword matches only: the embedding model could not be loaded. "
                           "The index status in the status bar says why.")
        elif self.controller.read_only:
            text = self.tr("Keyword matches only: this library is on a read-only disk, so no embedding "
                           "model can be installed for it.")
        else:
            text = self.tr("Keyword matches only: install an embedding model in Settings "
                           "to also find material related in meaning.")
        self.degraded.setText(text)
        self.degraded.setVisible(lexical_only)
        has_note = self.controller.note_id is not None and view is not None
        outgoing = has_note and bool(view.links.outgoing)  # type: ignore[union-attr]
        backlinks = has_note and bool(view.links.backlinks)  # type: ignore[union-attr]
        self.links_header.setVisible(outgoing)
        self.backlinks_header.setVisible(backlinks)
        self.no_links.setVisible(has_note and not outgoing and not backlinks and not view.result.missing
                                 and not view.result.welcome)  # type: ignore[union-attr]

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.header.setText(self.tr("Related material"))
        self.suggestions_header.setText(self.tr("Suggestions"))
        self.links_header.setText(self.tr("Links from this note"))
        self.backlinks_header.setText(self.tr("Links to this note"))
        self.no_links.setText(self.tr("No links to or from this note yet."))
        self.undo_button.setText(self.tr("Undo"))
        for widget in [*self.cards, *self.link_rows, *self.hints]:
            widget.retranslateUi()
        self._render_status()


class RelatedDock(QDockWidget):
    """The panel's dock: beside the editor, tabbed with the QA pane so neither squeezes it."""

    def __init__(self, panel: RelatedPanel, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("relatedDock")
        self.panel = panel
        self.setWidget(panel)
        self.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea)
        self.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.retranslateUi()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(QCoreApplication.translate("RelatedPanel", "Related material"))
