"""The library QA pane ("学习库问答"): chat sessions over the library, cited answers.

Local retrieval always runs and always gives a cited hit list; a generated
answer appears only when both gates allow it. ``[n]`` markers are superscript
links: hovering shows the source title and snippet, clicking opens the note
or fragment with the passage highlighted. The pane only draws; the engine runs
through :class:`desktop_kb.tasks.qa_tasks.QaBridge`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, Qt, QUrl, Signal
from PySide6.QtGui import QCursor, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTextBrowser,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.markup.plain import plain_title
from desktop_kb.qa.engine import QaAnswer, QaPlan
from desktop_kb.tasks.qa_tasks import QaBridge
from desktop_kb.ui.elided_button import ElidedComboBox
from desktop_kb.ui.env_messages import localize
from desktop_kb.ui.fitted_placeholder import FittedPlaceholder
from desktop_kb.ui.locator_text import shown_title
from desktop_kb.ui.qa_preview import SESSION, QaPreviewDialog
from desktop_kb.ui.snippet_html import CODE_STYLE, marked_html

_MARKER_RE = re.compile(r"\[(\d{1,3})\]")


def _snippet_html(c: dict[str, Any]) -> str:
    """A hit's or citation's snippet, its highlight spans marked (offsets are into the source);
    code keeps its lines, starting on a line of its own."""
    shown = marked_html(c.get("snippet", ""), c.get("start", 0), c.get("highlights") or [], c.get("title", ""),
                        code_lines=True)
    return f"<br>{shown}" if shown.startswith(f'<span style="{CODE_STYLE}">') else shown


# A model's answer is Markdown: its code, bold and headings are shown as such, not as marks.
_CODE_RE = re.compile(r"`([^`\n]+)`")
_BOLD_RE = re.compile(r"\*\*(?=\S)([^\n]*?\S)\*\*")
_HEADING_RE = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def answer_html(text: str, key: str, valid: set[int]) -> str:
    """A generated answer as rich text: ``[n]`` markers that match a snippet become links."""
    def link(m: re.Match[str]) -> str:
        n = int(m.group(1))
        if n not in valid:
            return m.group(0)
        return f'<a href="cite:{key}:{n}" style="text-decoration:none"><sup><b>[{n}]</b></sup></a>'

    codes: list[str] = []

    def hold(m: re.Match[str]) -> str:  # code is set aside: "`a**b`" holds no bold
        codes.append(m.group(1))
        return f"\x00{len(codes) - 1}\x00"

    held = _CODE_RE.sub(hold, html.escape(text.replace("\x00", ""), quote=False))
    marked = _HEADING_RE.sub(r"<b>\1</b>", _BOLD_RE.sub(r"<b>\1</b>", held))
    marked = _MARKER_RE.sub(link, marked.replace("\n", "<br>"))
    return re.sub("\x00(\\d+)\x00", lambda m: f"<code>{codes[int(m.group(1))]}</code>", marked)


class QaPane(QWidget):
    citationActivated = Signal(dict)  # a citation record (source_type, source_id, start, end, …)
    noteSaved = Signal(int)  # an answer was saved as this note
    answerShown = Signal(object)  # QaAnswer (tests, screenshots)
    previewShown = Signal(object)  # QaPreviewDialog

    def __init__(self, bridge: QaBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.session_id: int | None = None
        self.entries: list[dict[str, Any]] = []
        self.live: dict[str, Any] | None = None
        self.preview: QaPreviewDialog | None = None
        self._pending_question = ""

        self.sessions = ElidedComboBox()
        self.sessions.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        # Narrow only when the window is (it stretches otherwise): at 12 characters the pane
        # could not go below 341 px, and beside it the note title shrank to "欢迎使用 Deskto".
        self.sessions.setMinimumContentsLength(4)
        # The list opens wide enough to read a question; what still does not fit is elided at
        # the end (with the whole question as the tooltip), never cut without a sign.
        self.sessions.view().setTextElideMode(Qt.TextElideMode.ElideRight)
        self.sessions.view().setMinimumWidth(420)
        self.sessions.activated.connect(self._session_chosen)
        self.new_button = QToolButton()
        self.new_button.clicked.connect(self.new_session)
        self.rename_button = QToolButton()
        self.rename_button.clicked.connect(self.rename_session)
        self.delete_button = QToolButton()
        self.delete_button.clicked.connect(self.delete_session)
        self.transcript = QTextBrowser(objectName="qaTranscript")
        self.transcript.setOpenLinks(False)
        self.transcript.anchorClicked.connect(self._anchor_clicked)
        # The view follows the newest answer while it is at the end, also when the transcript
        # shrinks afterwards (the status line below grows once the answer is in): the newest
        # sources and "Save as note" were left below the fold.
        self._at_end = True
        bar = self.transcript.verticalScrollBar()
        bar.valueChanged.connect(lambda value: setattr(self, "_at_end", value >= bar.maximum()))
        bar.rangeChanged.connect(lambda _low, high: self._at_end and bar.setValue(high))
        self.transcript.highlighted.connect(self._anchor_hovered)
        self.status = QLabel(wordWrap=True, objectName="qaStatus")
        self._status_source: Callable[[], str] | None = None  # re-evaluated on a language switch
        self.scope = QComboBox()
        for data in ("all", "notes", "library"):
            self.scope.addItem("", data)
        self.question = QLineEdit(objectName="qaQuestion")
        self._question_hint = FittedPlaceholder(self.question)
        self.question.returnPressed.connect(self.ask)
        self.ask_button = QPushButton()
        self.ask_button.clicked.connect(self.ask)
        self.stop_button = QPushButton()
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.hide()

        top = QHBoxLayout()
        top.setSpacing(2)  # a tool row: its buttons sit together
        top.addWidget(self.sessions, 1)
        for b in (self.new_button, self.rename_button, self.delete_button):
            top.addWidget(b)
        ask_row = QHBoxLayout()
        ask_row.addWidget(self.question, 1)
        ask_row.addWidget(self.ask_button)
        ask_row.addWidget(self.stop_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.transcript, 1)
        layout.addWidget(self.status)
        scope_row = QHBoxLayout()
        self.scope_label = QLabel()
        scope_row.addWidget(self.scope_label)
        self.scope_label.setBuddy(self.scope)
        scope_row.addWidget(self.scope, 1)
        layout.addLayout(scope_row)
        layout.addLayout(ask_row)

        bridge.sessionsLoaded.connect(self._sessions_loaded)
        bridge.messagesLoaded.connect(self._messages_loaded)
        bridge.sessionCreated.connect(self._session_created)
        bridge.planned.connect(self._planned)
        bridge.delta.connect(self._delta)
        bridge.answered.connect(self._answered)
        bridge.failed.connect(self._failed)
        bridge.streamingChanged.connect(self._streaming)
        self._set_enabled(False)
        self.retranslateUi()

    # ----- library ------------------------------------------------------------------------

    def set_library(self, library: Any, **engine_kwargs: Any) -> None:
        self.bridge.set_library(library, **engine_kwargs)
        self._set_enabled(library is not None)
        if library is not None:
            self.bridge.load_sessions()

    def library_replaced(self) -> None:
        """A backup was restored: its chats are the ones to show. The chat on screen may not
        exist in it, and asking there failed with "No chat session with id 1"."""
        if self.bridge.streaming:
            return  # an answer in flight finishes in the chat it belongs to
        self.session_id = None
        self.entries = []
        self.live = None
        self._say(None)
        self._render()
        self.bridge.load_sessions()

    def _set_enabled(self, on: bool) -> None:
        for w in (self.question, self.ask_button, self.sessions, self.new_button, self.rename_button,
                  self.delete_button):
            w.setEnabled(on)

    # ----- sessions -----------------------------------------------------------------------

    def _sessions_loaded(self, sessions: list[Any]) -> None:
        self.sessions.blockSignals(True)
        self.sessions.clear()
        for s in sessions:
            title = s.title or self.tr("Untitled chat")
            self.sessions.addItem(title, s.id)
            self.sessions.setItemData(self.sessions.count() - 1, title, Qt.ItemDataRole.ToolTipRole)
        self.sessions.blockSignals(False)
        if self.session_id is not None and self.sessions.findData(self.session_id) >= 0:
            self.sessions.setCurrentIndex(self.sessions.findData(self.session_id))
        elif sessions and self.session_id is None and not self.entries:
            self.sessions.setCurrentIndex(0)
            self._open_session(sessions[0].id)
        self.rename_button.setEnabled(self.session_id is not None)
        self.delete_button.setEnabled(self.session_id is not None)

    def _session_chosen(self, index: int) -> None:
        session_id = self.sessions.itemData(index)
        if session_id is not None and session_id != self.session_id:
            self._open_session(int(session_id))

    def _open_session(self, session_id: int) -> None:
        self.session_id = session_id
        self.entries = []
        self.live = None
        self._say(None)
        self._render()
        self.bridge.load_messages(session_id)

    def _messages_loaded(self, session_id: int, messages: list[Any]) -> None:
        if session_id != self.session_id:
            return
        entries: list[dict[str, Any]] = []
        question = ""
        for m in messages:
            if m.role == "user":
                question = m.content
            else:
                entries.append({"question": question, "answer": m.content, **m.meta})
        self.entries = entries
        self._render()

    def new_session(self) -> None:
        self.session_id = None
        self.entries = []
        self.live = None
        self._say(None)
        self.sessions.setCurrentIndex(-1)
        self._render()
        self.question.setFocus()

    def _session_created(self, session_id: int) -> None:
        self.session_id = session_id

    def rename_session(self) -> None:
        if self.session_id is None:
            return
        title, ok = QInputDialog.getText(self, self.tr("Rename chat"), self.tr("Name:"),
                                         text=self.sessions.currentText())
        if ok and title.strip():
            self.bridge.rename_session(self.session_id, title.strip())

    def delete_session(self) -> None:
        if self.session_id is None:
            return
        session_id = self.session_id
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Delete chat"),
                          self.tr("Delete this chat and its messages? The upload log keeps its records."),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Delete"))
        box.button(QMessageBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        box.finished.connect(lambda r: r == QMessageBox.StandardButton.Yes and self._delete(session_id))
        self.delete_box = box
        box.open()

    def _delete(self, session_id: int) -> None:
        self.new_session()
        self.bridge.delete_session(session_id)

    # ----- asking ---------------------------------------------------------------------------

    def ask(self, text: str | None = None) -> None:
        question = (text if isinstance(text, str) else self.question.text()).strip()
        if not question or self.bridge.streaming or self.bridge.engine is None:
            return
        self.question.clear()
        self._pending_question = question
        self.live = {"question": question, "answer": "", "mode": "pending", "citations": [], "hits": []}
        self._say(lambda: self.tr("Searching the library…"))
        self._render()
        self.bridge.prepare(question, self.session_id, str(self.scope.currentData() or "all"))

    def _planned(self, plan: QaPlan) -> None:
        if self.session_id != plan.session_id:
            self.session_id = plan.session_id
            self.bridge.load_sessions()
        if plan.reason is not None:
            self.bridge.answer_locally(plan)
        elif plan.needs_approval:
            self._say(lambda: self.tr("Waiting for your approval…"))
            self.preview = QaPreviewDialog(plan, self)
            self.preview.decided.connect(lambda choice, removed: self._decided(plan, choice, removed))
            self.preview.open()
            self.previewShown.emit(self.preview)
        else:
            self._send(plan, set(), False, approved=False)  # the session's approval, checked again

    def _decided(self, plan: QaPlan, choice: str | None, removed: set[int]) -> None:
        self.preview = None
        if choice is None:
            self.bridge.answer_locally(plan, "not_approved")
        else:
            self._send(plan, removed, choice == SESSION, approved=True)

    def _send(self, plan: QaPlan, removed: set[int], approve_session: bool, *, approved: bool) -> None:
        self._say(lambda: self.tr("Asking {0}…").format(plan.host))
        if self.live is not None:
            self.live["mode"] = "streaming"
            self.live["citations"] = [
                {"n": o.n, "source_type": g.packed.source_type, "source_id": g.packed.source_id,
                 "title": g.packed.title, "start": g.packed.start, "end": g.packed.end,
                 "snippet": g.packed.text, "document_id": g.packed.document_id,
                 "highlights": [[g.packed.start, g.packed.end]]} for o, g in plan.outgoing(removed)]
        self.bridge.send(plan, approved=approved, removed=removed, approve_session=approve_session)

    def _delta(self, text: str) -> None:
        if self.live is not None:
            self.live["answer"] += text
            self._render()

    def stop(self) -> None:
        self.bridge.stop()

    def _streaming(self, on: bool) -> None:
        self.stop_button.setVisible(on)
        self.ask_button.setVisible(not on)
        self.question.setEnabled(not on)

    def _answered(self, answer: QaAnswer) -> None:
        self.live = None
        entry = {"question": self._pending_question, **answer.as_json()}
        self.entries.append(entry)
        self._say(lambda: self._status_text(entry))
        self._render()
        if entry.get("mode") != "generated":
            # A local answer arrives whole: it is read from its question, why it is local and
            # its best hit down (at the end the view showed hit [8] and none of those).
            self._show_from(f"{self.tr('You')}: {entry['question']}")
        self.bridge.load_sessions()
        self.answerShown.emit(answer)

    def _failed(self, message: str) -> None:
        self.live = None
        if not self.question.text():  # nothing typed is lost: the question waits to be asked again
            self.question.setText(self._pending_question)
        self._say(lambda: self.tr("Something went wrong: {0}").format(message))
        self._render()

    # ----- rendering ------------------------------------------------------------------------

    def _say(self, text: Callable[[], str] | None) -> None:
        """Show a status line; keeping how it was made lets a language switch say it again."""
        self._status_source = text
        self.status.setText(text() if text is not None else "")
        self.status.setVisible(bool(self.status.text()))  # an empty line is a gap above the scope row

    def reason_text(self, reason: str | None, entry: dict[str, Any] | None = None) -> str:
        limit = int(((entry or {}).get("question_gate") or {}).get("limit") or 2000)
        host = (entry or {}).get("provider") or self.tr("the AI provider")
        texts = {
            "nothing_found": self.tr("The library has nothing on this question."),
            "cloud_off": self.tr("Local answer: cloud answering is off (Settings → Features)."),
            "no_provider": self.tr("Local answer: no AI provider is configured."),
            "no_key": self.tr("Local answer: no API key is stored for the AI provider."),
            "gate_blocked": self.tr("Local answer: the content gate blocked every snippet."),
            "not_approved": self.tr("Local answer: sending was not approved."),
            "question_blocked": self.tr(
                "Local answer: your question holds a secret or personal data, so nothing was sent."),
            "question_too_long": self.tr(
                "The question is too long (more than {0} characters). Shorten it and ask again.").format(
                f"{limit:,}"),
            "changed": self.tr("Local answer: a source became local only after the preview, so nothing "
                               "was sent. Ask again."),
            # Who, and what to do, in the person's language: the provider's own English
            # ("[Errno 111] Connection refused") said neither in a Chinese window.
            "offline": self.tr("Local answer: {0} could not be reached. Check the network and the address "
                               "in Settings → AI provider; the hits below are from your library.").format(host),
            "timeout": self.tr("Local answer: {0} stopped answering. Ask again later; the hits below are "
                               "from your library.").format(host),
            "provider_error": self.tr("Local answer: {0} returned an error. Check the model name and key in "
                                      "Settings → AI provider.").format(host),
            "cancelled": self.tr("Local answer: stopped before an answer arrived."),
            # Nothing leaves unlogged (I8); what kept the log from being written says what to do.
            "not_logged": self.tr("Local answer: the upload log could not be written, so nothing was "
                                  "sent: {0}").format(localize((entry or {}).get("detail") or "")),
            "unsupported": self.tr("The answer cites no snippet, so it is unsupported — check the hits below."),
        }
        return texts.get(reason or "", reason or "")

    def _status_text(self, entry: dict[str, Any]) -> str:
        """What the transcript does not already say about the newest answer: who answered and
        what the gate did. Why an answer is local is said once, in the answer itself (the
        line below repeated "Local answer: cloud answering is off" word for word)."""
        gate = entry.get("gate") or {}
        gate_text = self.tr("Content gate: {0} sent, {1} redacted, {2} blocked.").format(
            gate.get("sent", 0), gate.get("redacted", 0), gate.get("blocked", 0))
        parts: list[str] = []
        if entry.get("reason") == "gate_blocked":
            parts.append(gate_text)
        elif entry.get("mode") == "generated":
            parts.append(self.tr("Answered by {0}.").format(entry.get("provider") or ""))
            if "stopped" in entry.get("flags", []):
                parts.append(self.tr("Stopped."))
            if "answer_too_long" in entry.get("flags", []):
                parts.append(self.tr("The answer reached the length limit and was cut off."))
            parts.append(gate_text)
        if entry.get("not_kept"):  # the answer is given, but no chat keeps it (another program holds it)
            parts.append(self.tr("This question and its answer are not kept in a chat: {0}").format(
                localize(entry["not_kept"])))
        return " ".join(parts)

    def _dark(self) -> bool:
        return self.palette().color(QPalette.ColorRole.Base).lightness() < 128

    def _muted_colour(self) -> str:
        """Secondary text ("Sources:", "Searching…"): fixed greys read dim grey on dark grey."""
        return "#9a9a9a" if self._dark() else "#666666"

    def _notice_colour(self) -> str:
        """Why the answer is local, in amber readable on either theme."""
        return "#e0c060" if self._dark() else "#8a6d00"

    def _detail_html(self, e: dict[str, Any]) -> str:
        """What the provider said, when it said something: an error's own words help to fix a key
        or a model name. Not for "could not be reached" (only the system's English errno)."""
        detail = e.get("detail")
        if not detail or e.get("reason") in ("offline", "timeout", "not_logged"):
            return ""
        return f" ({html.escape(self.tr('the provider said: {0}').format(detail))})"

    def _cite_links(self, text: str, key: str, valid: set[int]) -> str:
        return answer_html(text, key, valid)

    def _hits_html(self, hits: list[dict[str, Any]], key: str) -> str:
        rows = [f'<p style="margin:2px 0 6px 0"><a href="cite:{key}:{c["n"]}" style="text-decoration:none">'
                f'[{c["n"]}]</a> <b>{html.escape(shown_title(plain_title(c["title"])))}</b> — {_snippet_html(c)}</p>' for c in hits]
        return "".join(rows)

    def _entry_html(self, i: int | str, e: dict[str, Any]) -> str:
        parts = [f'<p style="margin-top:10px"><b>{html.escape(self.tr("You"))}:</b> '
                 f'{html.escape(e.get("question", ""))}</p>']
        mode = e.get("mode")
        if mode in ("generated", "streaming"):
            valid = {c["n"] for c in e.get("citations", [])}
            parts.append(f"<p>{self._cite_links(e.get('answer', ''), f'{i}:c', valid)}</p>")
            flags = e.get("flags", [])
            if "unsupported" in flags:
                parts.append(f'<p style="color:{self._notice_colour()}"><i>{html.escape(self.reason_text("unsupported"))}</i></p>')
            if "invalid_citations_removed" in flags:
                parts.append(f'<p style="color:{self._notice_colour()}"><i>'
                             f'{html.escape(self.tr("Citations that matched no snippet were removed."))}</i></p>')
            if mode == "generated":
                if e.get("citations"):
                    parts.append(f'<p style="color:{self._muted_colour()}"><small>{html.escape(self.tr("Sources"))}: ' + " · ".join(
                        f'<a href="cite:{i}:c:{c["n"]}">[{c["n"]}] {html.escape(shown_title(plain_title(c["title"])))}</a>'
                        for c in e["citations"]) + "</small></p>")
                if "unsupported" in flags and e.get("hits"):
                    parts.append(self._hits_html(e["hits"], f"{i}:h"))
        elif mode == "pending":
            parts.append(f'<p style="color:{self._muted_colour()}"><i>{html.escape(self.tr("Searching the library…"))}</i></p>')
        else:
            reason = self.reason_text(e.get("reason"), e)
            parts.append(f'<p style="color:{self._notice_colour()}"><i>{html.escape(reason)}</i>{self._detail_html(e)}</p>')
            parts.append(self._hits_html(e.get("hits", []), f"{i}:h"))
        if isinstance(i, int) and mode in ("generated", "local") and (e.get("citations") or e.get("hits")):
            parts.append(f'<p style="margin:0"><small><a href="save:{i}">'
                         f'{html.escape(self.tr("Save as note"))}</a></small></p>')
        return "".join(parts)

    def _render(self) -> None:
        blocks = [self._entry_html(i, e) for i, e in enumerate(self.entries)]
        if self.live is not None:
            blocks.append(self._entry_html("live", self.live))
        if not blocks:
            blocks = [f'<p style="color:{self._muted_colour()}">{html.escape(self._empty_text())}</p>']
        self.transcript.setHtml("".join(blocks))
        bar = self.transcript.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _show_from(self, text: str) -> None:
        """Scroll so the last paragraph starting with ``text`` is at the top of the view."""
        doc = self.transcript.document()
        found = doc.find(text, doc.characterCount(), QTextDocument.FindFlag.FindBackward)
        if not found.isNull():
            top = doc.documentLayout().blockBoundingRect(found.block()).top()
            bar = self.transcript.verticalScrollBar()
            bar.setValue(min(bar.maximum(), int(top)))

    def _empty_text(self) -> str:
        return self.tr("Ask a question about your notes and library. Answers cite their sources; "
                       "nothing leaves this computer unless you switch cloud answering on and approve it.")

    # ----- citations ------------------------------------------------------------------------

    def citation(self, url: QUrl | str) -> dict[str, Any] | None:
        """The citation record behind a ``cite:`` link."""
        parts = (url.toString() if isinstance(url, QUrl) else url).split(":")
        if len(parts) != 4 or parts[0] != "cite":
            return None
        _, index, kind, n = parts
        entry = self.live if index == "live" else (
            self.entries[int(index)] if index.isdigit() and int(index) < len(self.entries) else None)
        if entry is None:
            return None
        records = entry.get("citations" if kind == "c" else "hits", [])
        return next((c for c in records if c["n"] == int(n)), None)

    def save_as_note(self, index: int) -> None:
        """Save answer ``index`` as a note linked to its sources (off the GUI thread)."""
        if not 0 <= index < len(self.entries) or self.bridge.library is None:
            return
        from desktop_kb.qa.save_note import NoteWords

        words = NoteWords(sources=self.tr("Sources"), from_library=self.tr("From the library"),
                          untitled=self.tr("Answer"))
        self.bridge.save_as_note(dict(self.entries[index]), self.noteSaved.emit, words)

    def _anchor_clicked(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("save:") and text[5:].isdigit():
            self.save_as_note(int(text[5:]))
            return
        record = self.citation(url)
        if record is not None:
            self.citationActivated.emit(record)

    def _anchor_hovered(self, url: QUrl) -> None:
        record = self.citation(url) if url.toString() else None
        if record is None:
            QToolTip.hideText()
            return
        QToolTip.showText(QCursor.pos(), self.tooltip_html(record), self.transcript)

    def tooltip_html(self, record: dict[str, Any]) -> str:
        return f"<b>{html.escape(shown_title(plain_title(record['title'])))}</b><br>{_snippet_html(record)}"

    # ----- language ----------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        elif event.type() == QEvent.Type.PaletteChange:
            # Links take the palette's colour when the HTML is set: after View → Appearance →
            # Dark the [n] markers and "Save as note" stayed dark blue on the dark background.
            self._render()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.new_button.setText(self.tr("New"))
        self.new_button.setToolTip(self.tr("Start a new chat"))
        self.rename_button.setText(self.tr("Rename"))
        self.delete_button.setText(self.tr("Delete"))
        self.sessions.setPlaceholderText(self.tr("New chat"))
        self.sessions.setAccessibleName(self.tr("Chat"))
        self.transcript.setAccessibleName(self.tr("Questions, answers and their sources"))
        self.scope_label.setText(self.tr("Search in:"))
        for i, text in enumerate((self.tr("Everything"), self.tr("Notes only"), self.tr("Library only"))):
            self.scope.setItemText(i, text)
        self._question_hint.set_wordings(self.tr("Ask about your notes… (Enter)"),
                                         self.tr("Ask about your notes…"), self.tr("Ask…"))
        self.ask_button.setText(self.tr("Ask"))
        self.stop_button.setText(self.tr("Stop"))
        if self._status_source is not None:
            self.status.setText(self._status_source())
            self.status.setVisible(bool(self.status.text()))
        self._render()
