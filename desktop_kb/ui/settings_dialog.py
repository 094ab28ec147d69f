"""Settings: data folder, language, feature switches, embedding model, AI provider.

Everything is read and written off the GUI thread (settings live in the
store). Writes go through the ordered note queue so two quick toggles land in
the order they were clicked. The API key goes to the OS keyring only.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_kb import secrets
from desktop_kb.library import Library
from desktop_kb.tasks import settings_tasks
from desktop_kb.tasks.library_tasks import TaskRunner, describe_error
from desktop_kb.tasks.settings_tasks import SettingsSnapshot
from desktop_kb.ui import i18n
from desktop_kb.ui.accessible import name_unnamed
from desktop_kb.ui.backups_page import BackupsPage
from desktop_kb.ui.model_page import ModelPage
from desktop_kb.ui.ocr_page import OcrPage
from desktop_kb.ui.privacy_page import PresetChooser, PrivacyPage

Submit = Callable[[Callable[[Library], Any]], None]


class SettingsDialog(QDialog):
    languageChosen = Signal(str)  # "system", "en" or "zh_CN"
    modelInstalled = Signal(str)
    loaded = Signal()
    keyStored = Signal(bool)  # True on success

    def __init__(self, runner: TaskRunner, library: Library, submit: Submit,
                 data_dir: Path, language_choice: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._library = library
        self._submit = submit
        self._data_dir = Path(data_dir)
        self._loading = True
        self.snapshot: SettingsSnapshot | None = None
        self.setMinimumSize(620, 440)

        self.tabs = QTabWidget()
        # Every tab's whole name, in either language (with scroll arrows, English cut
        # "Text recognition (O…" and hid "Backups"): see the minimum width in retranslateUi.
        self.tabs.setUsesScrollButtons(False)
        self.tabs.tabBar().setElideMode(Qt.TextElideMode.ElideNone)
        # General
        self.data_folder = QLineEdit(str(self._data_dir), readOnly=True)
        self.open_folder = QPushButton()
        self.open_folder.clicked.connect(self._open_folder)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.data_folder, 1)
        folder_row.addWidget(self.open_folder)
        self.language = QComboBox()
        self.language.addItem("", i18n.SYSTEM)
        self.language.addItem("English", "en")
        self.language.addItem("简体中文", "zh_CN")
        self.language.setCurrentIndex(max(0, self.language.findData(language_choice)))
        self.language.currentIndexChanged.connect(
            lambda _i: self.languageChosen.emit(str(self.language.currentData())))
        general = QWidget()
        self.general_form = QFormLayout(general)
        self.data_label, self.language_label = QLabel(), QLabel()
        self.general_form.addRow(self.data_label, folder_row)
        self.data_label.setBuddy(self.data_folder)  # a row holding a layout sets no buddy
        self.general_form.addRow(self.language_label, self.language)
        # Features
        self.discovery = QCheckBox()
        self.cloud = QCheckBox()
        self.cloud_hint = QLabel(wordWrap=True, objectName="emptyHint")
        self.discovery.toggled.connect(lambda on: self._set("discovery.enabled", on))
        self.cloud.toggled.connect(lambda on: self._set("qa.cloud_enabled", on))
        features = QWidget()
        features_layout = QVBoxLayout(features)
        features_layout.addWidget(self.discovery)
        features_layout.addWidget(self.cloud)
        features_layout.addWidget(self.cloud_hint)
        features_layout.addStretch(1)
        # Embedding model
        model = ModelPage(runner, library)
        self.model_page = model
        model.modelInstalled.connect(self.modelInstalled)
        # AI provider
        self.base_url = QLineEdit()
        self.model_name = QLineEdit()
        self.base_url.editingFinished.connect(
            lambda: self._set("qa.provider.base_url", self.base_url.text().strip() or None))
        self.model_name.editingFinished.connect(
            lambda: self._set("qa.provider.model", self.model_name.text().strip() or None))
        self.api_key = QLineEdit(echoMode=QLineEdit.EchoMode.Password)
        self.save_key = QPushButton()
        self.save_key.clicked.connect(self.store_key)
        self.delete_key = QPushButton()
        self.delete_key.clicked.connect(self.remove_key)
        key_row = QHBoxLayout()
        key_row.addWidget(self.api_key, 1)
        key_row.addWidget(self.save_key)
        key_row.addWidget(self.delete_key)
        self.keyring_message = QLabel(wordWrap=True)
        self.keyring_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        provider = QWidget()
        self.provider_form = QFormLayout(provider)
        self.base_url_label, self.model_name_label, self.key_label = QLabel(), QLabel(), QLabel()
        self.preset, self.preset_label = PresetChooser(self.base_url, self.model_name), QLabel()
        self.provider_form.addRow(self.preset_label, self.preset)
        self.provider_form.addRow(self.base_url_label, self.base_url)
        self.provider_form.addRow(self.model_name_label, self.model_name)
        self.provider_form.addRow(self.key_label, key_row)
        self.provider_form.addRow(self.keyring_message)

        for page in (general, features, model, provider):
            page.layout().setContentsMargins(14, 14, 14, 14)
            self.tabs.addTab(page, "")
        self.privacy = PrivacyPage(runner, library, submit)
        self.tabs.addTab(self.privacy, "")
        self.ocr_page = OcrPage(runner, library)
        self.tabs.addTab(self.ocr_page, "")
        self.backups = BackupsPage(runner, self._data_dir)
        self.tabs.addTab(self.backups, "")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 10)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        # Enter closes (the first button, "Open folder", was the default: Enter after typing the
        # base URL opened a file manager). A focused button still answers its own Enter.
        self.close_button.setDefault(True)
        self._key_state = ""
        self.retranslateUi()
        self.reload()

    # ----- loading --------------------------------------------------------------------

    def reload(self) -> None:
        self._loading = True
        self.privacy.reload()
        self.model_page.reload()
        self.ocr_page.reload()
        self.backups.reload()
        for widget in (self.discovery, self.cloud, self.base_url, self.model_name):
            widget.setEnabled(False)
        library = self._library
        self._runner.run(lambda: settings_tasks.load_settings(library), self._loaded,
                         lambda exc: self.keyring_message.setText(describe_error(exc)))

    def _loaded(self, snapshot: SettingsSnapshot) -> None:
        self.snapshot = snapshot
        self._loading = True
        try:
            values = snapshot.values
            self.discovery.setChecked(bool(values.get("discovery.enabled", True)))
            self.cloud.setChecked(bool(values.get("qa.cloud_enabled", False)))
            self.base_url.setText(str(values.get("qa.provider.base_url") or ""))
            self.model_name.setText(str(values.get("qa.provider.model") or ""))
            for widget in (self.discovery, self.cloud, self.base_url, self.model_name):
                widget.setEnabled(True)
            self._key_state = "stored" if snapshot.has_key else ""
        finally:
            self._loading = False
        self.retranslateUi()
        self.loaded.emit()

    # ----- writes ---------------------------------------------------------------------

    def _set(self, key: str, value: object) -> None:
        if not self._loading:
            self._submit(lambda library: library.set_setting(key, value))

    def _open_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._data_dir)))

    # ----- API key --------------------------------------------------------------------

    def store_key(self) -> None:
        key = self.api_key.text().strip()
        if not key:
            return
        info = self.snapshot.keyring if self.snapshot is not None else None
        insecure = info is not None and info.kind == secrets.INSECURE
        if insecure and not self._allow_file_keyring(info):
            return  # nothing stored; the key stays in the field for the person to take elsewhere
        self.api_key.clear()  # the key leaves the widget at once; it is never logged
        base_url = self.base_url.text().strip() or None  # the key is this provider's
        self._runner.run(lambda: settings_tasks.store_api_key(key, base_url, allow_insecure=insecure),
                         lambda _r: self._key_result("stored_in_file" if insecure else "stored"),
                         lambda exc: self._key_result("failed", describe_error(exc)))

    def _file_keyring_how(self, info: secrets.KeyringInfo) -> str:
        if info.needs_terminal:
            return self.tr("encrypted with a password it asks for in a terminal")
        return self.tr("base64-encoded, so anyone who can read that file can read the key")

    def _allow_file_keyring(self, info: secrets.KeyringInfo) -> bool:
        """Say plainly where the key would go, and store it there only on a clear yes."""
        where = info.location or self.tr("a file")
        if info.needs_terminal:
            box = QMessageBox(QMessageBox.Icon.Information, self.tr("The key cannot be stored from here"),
                              self.tr("There is no system keyring on this computer. The only keyring available, "
                                      "{0}, keeps keys in {1}, {2}; the app cannot show that prompt. Store the "
                                      "key from a terminal with “desktop-kb provider key "
                                      "--allow-insecure-keyring”, or set DESKTOP_KB_API_KEY.").format(
                                  info.backend, where, self._file_keyring_how(info)), parent=self)
            box.addButton(QMessageBox.StandardButton.Ok)
            self.keyringQuestion = box
            box.exec()
            return False
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Store the key in a file?"),
                          self.tr("There is no system keyring on this computer. The only keyring available, "
                                  "{0}, would keep your API key in the file {1}, {2}. Store the key there "
                                  "anyway? You can instead set DESKTOP_KB_API_KEY in the environment.").format(
                              info.backend, where, self._file_keyring_how(info)), parent=self)
        store = box.addButton(self.tr("Store in the file"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(box.addButton(self.tr("Don't store"), QMessageBox.ButtonRole.RejectRole))
        self.keyringQuestion = box
        box.exec()
        return box.clickedButton() is store

    def remove_key(self) -> None:
        base_url = self.base_url.text().strip() or None
        self._runner.run(lambda: settings_tasks.delete_api_key(base_url),
                         lambda _r: self._key_result("deleted"),
                         lambda exc: self._key_result("failed", describe_error(exc)))

    def _key_result(self, state: str, detail: str = "") -> None:
        self._key_state = state
        self.retranslateUi()
        self.keyStored.emit(state in ("stored", "deleted"))

    # ----- language -------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)

    def retranslateUi(self) -> None:  # noqa: N802
        QTimer.singleShot(0, self, lambda: name_unnamed(self))  # see MainWindow.retranslateUi
        self.setWindowTitle(self.tr("Settings"))
        for i, title in enumerate((self.tr("General"), self.tr("Features"),
                                   self.tr("Embedding model"), self.tr("AI provider"))):
            self.tabs.setTabText(i, title)
        self.tabs.setTabText(self.tabs.indexOf(self.privacy), self.privacy.title())
        self.tabs.setTabText(self.tabs.indexOf(self.ocr_page), self.tr("Text recognition (OCR)"))
        self.tabs.setTabText(self.tabs.indexOf(self.backups), self.backups.title())
        # As wide as the tab names in this language (an explicit minimum overrides the layout's).
        margins = self.layout().contentsMargins() if self.layout() is not None else None
        spare = 8 + (margins.left() + margins.right() if margins is not None else 24)
        self.setMinimumWidth(max(620, self.tabs.tabBar().sizeHint().width() + spare))
        self.preset_label.setText(self.tr("Preset"))
        self.data_label.setText(self.tr("Data folder"))
        self.open_folder.setText(self.tr("Open folder"))
        self.language_label.setText(self.tr("Language"))
        self.language.setItemText(0, self.tr("System default"))
        self.discovery.setText(self.tr("Suggest related material for the open note"))
        self.cloud.setText(self.tr("Answer questions with a cloud AI provider"))
        self.cloud_hint.setText(self.tr(
            "Off by default. When on, only short approved snippets and your question are sent — "
            "never whole notes, and never anything marked local only."))
        self.base_url_label.setText(self.tr("Base URL"))
        self.base_url.setPlaceholderText("https://api.example.com/v1")
        self.model_name_label.setText(self.tr("Model name"))
        self.key_label.setText(self.tr("API key"))
        file_keyring = self.snapshot is not None and self.snapshot.keyring.kind == secrets.INSECURE
        self.api_key.setPlaceholderText(
            self.tr("Paste the key; you are asked before it is stored in a file") if file_keyring
            else self.tr("Paste the key; it is kept in the system keyring"))
        self.save_key.setText(self.tr("Save key"))
        self.delete_key.setText(self.tr("Delete key"))
        self.close_button.setText(self.tr("Close"))
        self._update_keyring_message()

    def _update_keyring_message(self) -> None:
        snap = self.snapshot
        state = self._key_state
        if snap is None:
            self.keyring_message.setText(self.tr("Checking the system keyring…"))
            return
        info = snap.keyring
        if info.kind == secrets.INSECURE and state != "failed":
            where = info.location or self.tr("a file")
            if state == "stored_in_file":
                text = self.tr("The key is stored in {0} ({1}), not in a system keyring.").format(where, info.backend)
            else:
                text = self.tr("There is no system keyring here. The only keyring available, {0}, keeps keys in "
                               "{1}, {2}. You will be asked before a key is stored there.").format(
                    info.backend, where, self._file_keyring_how(info))
            self.keyring_message.setObjectName("keyringStatusBad")
        elif info.kind == secrets.NONE or state == "failed":
            text = self.tr("No system keyring is available on this computer (no Secret Service such as GNOME "
                           "Keyring or KeePassXC, no KWallet), and Desktop KB never writes keys to a file of its "
                           "own. Install and unlock GNOME Keyring or KWallet and restart, or set "
                           "DESKTOP_KB_API_KEY in the environment for this session.")
            if state == "failed":
                text = self.tr("The key was not saved.") + " " + text
            self.keyring_message.setObjectName("keyringStatusBad")
        else:
            text = {
                "stored": self.tr("A key is stored in the system keyring."),
                "deleted": self.tr("The key was deleted from the system keyring."),
            }.get(state, self.tr("Keys are stored in the system keyring, never in a file."))
            self.keyring_message.setObjectName("keyringStatusOk")
        no_keyring = info.kind == secrets.NONE
        self.save_key.setEnabled(not no_keyring)
        self.delete_key.setEnabled(not no_keyring)
        self.api_key.setEnabled(not no_keyring)
        self.keyring_message.setText(text)
        self.keyring_message.style().unpolish(self.keyring_message)
        self.keyring_message.style().polish(self.keyring_message)
