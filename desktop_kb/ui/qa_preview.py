"""Gate 1's preview: the exact payload before the first cloud request of a session.

The person sees the provider host, the question and every packed snippet with
its source and the content gate's verdict, can remove snippets (the payload
below updates), and then sends once, sends for the whole session, or sends
nothing. Blocked snippets are listed (so the person knows why) but can never
be sent.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.qa.engine import QaPlan
from desktop_kb.ui.locator_text import shown_title

ONCE, SESSION = "once", "session"


class QaPreviewDialog(QDialog):
    decided = Signal(object, object)  # choice (ONCE | SESSION | None), removed snippet numbers (set)

    def __init__(self, plan: QaPlan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plan = plan
        self.removed: set[int] = set()
        self.choice: str | None = None
        self.setMinimumSize(640, 520)
        self.headline = QLabel(objectName="popupHeadline", wordWrap=True)
        self.explain = QLabel(wordWrap=True, objectName="emptyHint")
        self.question = QLabel(wordWrap=True)
        self.question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.snippets = QListWidget(objectName="previewSnippets")
        self.snippets.setWordWrap(True)
        self.snippets.setAlternatingRowColors(True)
        self.snippets.itemSelectionChanged.connect(self._selection_changed)
        self.remove_button = QPushButton()
        self.remove_button.setEnabled(False)
        self.remove_button.clicked.connect(self.remove_selected)
        self.restore_button = QPushButton()
        self.restore_button.clicked.connect(self.restore_all)
        self.payload_label = QLabel(objectName="paneHeader")
        self.payload = QPlainTextEdit(readOnly=True, objectName="previewPayload")
        self.payload.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.snippets, 1)
        row = QHBoxLayout()
        row.addWidget(self.remove_button)
        row.addWidget(self.restore_button)
        row.addStretch(1)
        top_layout.addLayout(row)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.payload_label)
        bottom_layout.addWidget(self.payload, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setSizes([300, 200])

        self.buttons = QDialogButtonBox()
        # Action, not Accept, role: a button box makes its first Accept button the default
        # when shown, whatever setDefault said.
        self.send_once = self.buttons.addButton("", QDialogButtonBox.ButtonRole.ActionRole)
        self.send_session = self.buttons.addButton("", QDialogButtonBox.ButtonRole.ActionRole)
        self.cancel_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.RejectRole)
        self.send_once.clicked.connect(lambda: self._decide(ONCE))
        self.send_session.clicked.connect(lambda: self._decide(SESSION))
        self.cancel_button.clicked.connect(lambda: self._decide(None))
        # Nothing leaves on a stray Enter (the one that asked, or an input method's commit
        # key pressed once more): sending takes a click or the button's own key.
        for button in (self.send_once, self.send_session, self.cancel_button):
            button.setAutoDefault(False)
            button.setDefault(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.explain)
        layout.addWidget(self.question)
        layout.addWidget(split, 1)
        layout.addWidget(self.buttons)
        self.retranslateUi()

    # ----- content ------------------------------------------------------------------------

    def _fill(self) -> None:
        self.snippets.clear()
        for g in self.plan.gated:
            p = g.packed
            verdict = self._verdict_text(g.verdict.action, g.verdict.reasons)
            if g.verdict.allowed and p.n in self.removed:
                verdict = self.tr("removed by you")
            shown = g.verdict.text if g.verdict.text is not None else p.text
            item = QListWidgetItem(f"[{p.n}] {shown_title(p.title)} — {verdict}\n{shown}")
            item.setData(Qt.ItemDataRole.UserRole, p.n)
            if not g.verdict.allowed or p.n in self.removed:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsSelectable)
                item.setForeground(QColor("#8a8f98"))
            self.snippets.addItem(item)
        sendable = len(self.plan.outgoing(self.removed))
        self.payload.setPlainText(json.dumps(self.plan.body(self.removed), ensure_ascii=False, indent=2))
        self.send_once.setEnabled(sendable > 0)
        self.send_session.setEnabled(sendable > 0)

    def _reason_names(self, reasons: list[str]) -> str:
        names = {"local_only": self.tr("local only"), "api_key": self.tr("API key or token"),
                 "private_key": self.tr("private key"), "password": self.tr("password"),
                 "resident_id": self.tr("ID card number"), "mobile": self.tr("phone number"),
                 "bank_card": self.tr("bank card number"), "email": self.tr("e-mail address"),
                 "passport": self.tr("passport number"), "address": self.tr("home address"),
                 "recovery_code": self.tr("recovery phrase or code"),
                 "licence_plate": self.tr("licence plate number")}
        return ", ".join(names.get(r, r) for r in reasons)

    def _verdict_text(self, action: str, reasons: list[str]) -> str:
        why = self._reason_names(reasons)
        if action == "blocked":
            return self.tr("blocked ({0})").format(why)
        if action == "redacted":
            return self.tr("sent with {0} removed").format(why)
        return self.tr("will be sent")

    def _selection_changed(self) -> None:
        self.remove_button.setEnabled(bool(self.snippets.selectedItems()))

    def remove_selected(self) -> None:
        for item in self.snippets.selectedItems():
            self.removed.add(int(item.data(Qt.ItemDataRole.UserRole)))
        self._fill()

    def restore_all(self) -> None:
        self.removed.clear()
        self._fill()

    def _decide(self, choice: str | None) -> None:
        self.choice = choice
        self.decided.emit(choice, set(self.removed))
        self.accept() if choice else self.reject()

    # ----- language ----------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setWindowTitle(self.tr("Send to the AI provider?"))
        self.headline.setText(self.tr("This is exactly what will be sent to {0}.").format(self.plan.host))
        self.explain.setText(self.tr(
            "Only the snippets below and your question leave this computer — never whole notes. "
            "Select a snippet and remove it to keep it here. Blocked snippets are never sent."))
        verdict = self.plan.question_verdict
        self.question.setText(self.tr("Question: {0}").format(self.plan.question_sent))
        if verdict.action == "redacted":
            self.question.setText(self.tr("Question (sent with {0} removed): {1}").format(
                self._reason_names(verdict.reasons), self.plan.question_sent))
        self.remove_button.setText(self.tr("Remove selected"))
        self.restore_button.setText(self.tr("Put all back"))
        self.payload_label.setText(self.tr("Request body"))
        self.send_once.setText(self.tr("Send once"))
        self.send_session.setText(self.tr("Send for this session"))
        self.cancel_button.setText(self.tr("Don't send"))
        self._fill()
