"""Settings → Privacy: the content gate's mode and the log of everything that left.

Also the provider preset chooser used on the AI provider page. Reads and
writes go through the settings dialog's runner and ordered queue.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import PurePath
from typing import Any

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.qa.providers import PRESETS
from desktop_kb.tasks.library_tasks import LatestOnly, TaskRunner, describe_error
from desktop_kb.tasks.settings_tasks import PrivacySnapshot, load_privacy
from desktop_kb.ui.locator_text import shown_title


class PrivacyPage(QWidget):
    uploadsLoaded = Signal(int)  # rows shown

    def __init__(self, runner: TaskRunner, library: Any, submit: Callable[[Callable[[Any], Any]], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._latest = LatestOnly()  # an older reload never draws over a later one
        self._library = library
        self._submit = submit
        self._loading = True
        self.sensitive = QComboBox()
        self.sensitive.addItem("", "block")
        self.sensitive.addItem("", "redact")
        self.sensitive.currentIndexChanged.connect(self._sensitive_changed)
        self.budget = QSpinBox(minimum=200, maximum=8000, singleStep=100)
        self.budget.editingFinished.connect(self._budget_changed)
        self.form = QFormLayout()
        self.sensitive_label, self.budget_label = QLabel(), QLabel()
        self.form.addRow(self.sensitive_label, self.sensitive)
        self.form.addRow(self.budget_label, self.budget)
        self.log_header = QLabel(objectName="paneHeader")
        self.log_hint = QLabel(wordWrap=True, objectName="emptyHint")
        self.table = QTableWidget(0, 6, objectName="uploadLog")
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.refresh_button = QPushButton()
        self.refresh_button.clicked.connect(self.reload)
        self.message = QLabel(wordWrap=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 14, 14, 14)
        layout.addLayout(self.form)
        layout.addWidget(self.log_header)
        layout.addWidget(self.log_hint)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.refresh_button)
        layout.addWidget(self.message)
        self.rows: list[Any] = []
        self.titles: dict[tuple[str, int], tuple[str, str | None]] = {}
        self.retranslateUi()

    def title(self) -> str:
        return self.tr("Privacy")

    def reload(self) -> None:
        library = self._library
        self._runner.run(lambda: load_privacy(library), self._latest(self._loaded),
                         lambda exc: self.message.setText(describe_error(exc)))

    def _loaded(self, snapshot: PrivacySnapshot) -> None:
        self._loading = True
        self.sensitive.setCurrentIndex(max(0, self.sensitive.findData(snapshot.sensitive)))
        self.budget.setValue(int(snapshot.budget_chars or 1200))
        self._loading = False
        self.rows = snapshot.uploads
        self.titles = snapshot.titles
        self._shown = True
        self._render_rows()
        self.uploadsLoaded.emit(len(self.rows))

    _shown = False  # rows have been loaded at least once

    def _render_rows(self) -> None:
        rows = self.rows
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            when = datetime.datetime.fromtimestamp(row.created_at).strftime("%Y-%m-%d %H:%M:%S")
            sources = ", ".join(self.source_text(t, i) for t, i in row.sources)
            verdicts = " ".join(self.verdict_text(k, v) for k, v in sorted(row.verdicts.items()) if v)
            hashes = ", ".join(h[:12] for h in row.snippet_hashes)
            cells = [when, row.provider_host, f"{row.bytes:,}", str(row.n_snippets),
                     f"{self.outcome_text(row.outcome)} · {verdicts}", f"{sources}  [{hashes}]"]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        self.message.setText(self.tr("Nothing has ever been sent from this library.") if not rows else "")

    def source_text(self, source_type: str, source_id: int) -> str:
        """A logged source ("note", 12) by the name the person knows it by: the note's title, or
        the passage's title and its file ("passage 382" said nothing of what was sent)."""
        known = self.titles.get((source_type, source_id))
        if known is not None:
            title, path = known
            shown = f"“{shown_title(title)}”"
            return self.tr("{0} ({1})").format(shown, PurePath(path).name) if path else shown
        # Deleted since it was sent: only its kind and number are left.
        if source_type == "note":
            return self.tr("deleted note {0}").format(source_id)
        if source_type == "fragment":
            return self.tr("passage {0}, no longer in the library").format(source_id)
        return f"{source_type} {source_id}"

    def verdict_text(self, verdict: str, count: int) -> str:
        """The content gate's count of one verdict ("sent", 5) in the UI language."""
        return {
            "sent": self.tr("%n sent", "", count), "redacted": self.tr("%n redacted", "", count),
            "blocked": self.tr("%n blocked", "", count), "removed": self.tr("%n removed", "", count),
        }.get(verdict, f"{verdict} {count}")

    def outcome_text(self, outcome: str) -> str:
        """The stored outcome ("sent", "http 429", "cancelled", …) in the UI language."""
        if outcome.startswith("http "):
            return self.tr("HTTP error {0}").format(outcome[5:])
        return {
            "sending": self.tr("sending"), "sent": self.tr("sent"), "ok": self.tr("sent"),
            "interrupted": self.tr("interrupted: the app ended while sending"),
            "cancelled": self.tr("cancelled"), "error": self.tr("failed"),
            "offline": self.tr("unreachable"), "timeout": self.tr("timed out"),
            "auth": self.tr("key refused"), "rate_limited": self.tr("rate limited"),
            "protocol": self.tr("broken answer"), "http": self.tr("HTTP error"),
        }.get(outcome, outcome)

    def _sensitive_changed(self, _index: int) -> None:
        if not self._loading:
            value = self.sensitive.currentData()
            self._submit(lambda lib: lib.set_setting("qa.sensitive", value))

    def _budget_changed(self) -> None:
        if not self._loading:
            value = self.budget.value()
            self._submit(lambda lib: lib.set_setting("qa.budget_chars", value))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.sensitive_label.setText(self.tr("Secrets and personal data"))
        self.sensitive.setItemText(0, self.tr("Block the snippet (recommended)"))
        self.sensitive.setItemText(1, self.tr("Send it with the sensitive part removed"))
        self.budget_label.setText(self.tr("Context budget (characters)"))
        self.log_header.setText(self.tr("Upload log"))
        self.log_hint.setText(self.tr(
            "Every request that left this computer: when, to which host, how many bytes, which "
            "sources and the hashes of the snippets sent (never their text)."))
        self.table.setHorizontalHeaderLabels([self.tr("Time"), self.tr("Provider"), self.tr("Bytes"),
                                              self.tr("Snippets"), self.tr("Outcome"), self.tr("Sources")])
        self.refresh_button.setText(self.tr("Refresh"))
        if self._shown:  # the log, its outcomes and the empty-log line, in the new language
            self._render_rows()


class PresetChooser(QComboBox):
    """Fills the base URL and model fields from a known provider; the fields save themselves."""

    def __init__(self, base_url: QLineEdit, model: QLineEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._base_url = base_url
        self._model = model
        self.addItem("", None)
        for p in PRESETS:
            self.addItem(p.label, p.id)
        self.activated.connect(self._chosen)
        self.retranslateUi()

    def _chosen(self, index: int) -> None:
        preset_id = self.itemData(index)
        chosen = next((p for p in PRESETS if p.id == preset_id), None)
        if chosen is None:
            return
        self._base_url.setText(chosen.base_url)
        self._base_url.editingFinished.emit()
        self._model.setText(chosen.model)
        self._model.editingFinished.emit()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.setItemText(0, self.tr("Choose a preset…"))
