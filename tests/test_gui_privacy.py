"""The privacy promise in the GUI: the redacted question in the preview, the lock's reason and its
deliberate lift, a note from a local-only document's selection, and a file "keyring" asked about."""

from __future__ import annotations

from pathlib import Path

import keyring
import pytest
from first_held import FirstCallHeld
from keyrings.alt.file import PlaintextKeyring
from PySide6.QtCore import QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication
from test_gui_support import gui_marks, open_window

from desktop_kb import secrets
from desktop_kb.library import Library
from desktop_kb.store.local_only import DerivedReason
from tests.qa_server import ChatServer

pytestmark = gui_marks()

GITLAB = "用 Docker 安装 GitLab 之前，先准备 docker-compose.yml 文件。第一次启动 GitLab 需要几分钟。"


def _answer(box_owner, attribute: str, button_text: str) -> None:  # noqa: ANN001
    """Click ``button_text`` in the modal box ``box_owner.<attribute>`` once it is open."""
    def click() -> None:
        box = getattr(box_owner, attribute)
        next(b for b in box.buttons() if b.text() == button_text).click()

    QTimer.singleShot(0, click)


def test_the_preview_shows_the_question_as_it_is_sent(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    with ChatServer() as server, Library(data_dir) as lib:
        lib.add_note("Docker 部署 GitLab", GITLAB)
        lib.set_setting("qa.cloud_enabled", True)
        lib.set_setting("qa.sensitive", "redact")
        lib.set_setting("qa.provider.base_url", server.base_url)
        lib.set_setting("qa.provider.model", "m")
        lib.drain()
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    pane.question.setText("root 密码是 Tiger#88，怎么用 Docker 安装 GitLab？")
    with qtbot.waitSignal(pane.previewShown, timeout=10000) as shown:
        pane.ask_button.click()
    dialog = shown.args[0]
    assert "Tiger#88" not in dialog.question.text() and "Tiger#88" not in dialog.payload.toPlainText()
    assert "password" in dialog.question.text()
    dialog.cancel_button.click()


def test_the_lock_shows_why_and_lifting_it_is_deliberate(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    with Library(data_dir) as lib:
        private = lib.add_note("内网 GitLab", "GitLab 装在 10.0.0.5。", local_only=True)
        derived = lib.add_note("GitLab 摘录", "GitLab 装在内网。", derived_from=[("note", private)])
        lib.drain()
    window = open_window(qtbot, data_dir)
    window.notes.open_note(derived)
    editor = window.editor
    qtbot.waitUntil(lambda: editor.note_id == derived, timeout=5000)
    # The window may have opened this note itself at start; let this open's own load arrive
    # before the clicks (it came after them once under load and showed the stored lock again).
    assert window.save_queue.flush(5)
    QApplication.processEvents()
    assert editor.local_button.isChecked() and editor.local_reason.isVisible()
    assert "内网 GitLab" in editor.local_reason.text()

    _answer(editor, "liftQuestion", "Keep local only")
    editor.local_button.click()
    assert editor.local_button.isChecked() and editor.local_reason.isVisible()
    assert window.library.get_note(derived).local_only

    _answer(editor, "liftQuestion", "Allow sending")
    editor.local_button.click()
    assert not editor.local_button.isChecked() and not editor.local_reason.isVisible()
    assert window.save_queue.flush(5)
    note = window.library.get_note(derived)
    assert not note.local_only and note.local_only_reason is None


def test_a_note_from_a_local_only_documents_selection_is_local_only(qtbot, data_dir: Path,  # noqa: ANN001
                                                                   tmp_path: Path) -> None:
    doc = tmp_path / "vpn.md"
    doc.write_text("# VPN\n\n公司 VPN 的服务器地址和配置步骤。\n", encoding="utf-8")
    with Library(data_dir) as lib:
        lib.import_paths([doc])
        document = lib.list_documents()[0]
        lib.set_document_local_only(document.id, True)
        fragment = lib.list_fragments(document.id)[0]
        lib.drain()
    window = open_window(qtbot, data_dir)
    window.documents.open_fragment(document.id, fragment.id)
    reader = window.reader
    qtbot.waitUntil(lambda: reader.document is not None and reader.document.id == document.id
                    and bool(reader.fragments), timeout=5000)
    cursor = reader.text.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    reader.text.setTextCursor(cursor)
    with qtbot.waitSignal(window.notes.noteCreated, timeout=10000) as created:
        reader.new_note_button.click()
    note = window.library.get_note(created.args[0])
    assert note.local_only
    reason = DerivedReason.from_text(note.local_only_reason)
    assert reason is not None and [s.kind for s in reason.sources] == ["document"]
    qtbot.waitUntil(lambda: window.editor.local_reason.isVisible(), timeout=5000)


@pytest.fixture
def file_keyring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PlaintextKeyring:
    backend = PlaintextKeyring()
    backend.file_path = str(tmp_path / "keyring_pass.cfg")  # type: ignore[misc]
    keyring.set_keyring(backend)
    monkeypatch.delenv(secrets.API_KEY_ENV, raising=False)
    return backend


def test_a_file_keyring_is_named_and_asked_about(qtbot, data_dir: Path,  # noqa: ANN001
                                                 file_keyring: PlaintextKeyring) -> None:
    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    dialog = window.settings.dialog
    qtbot.waitUntil(lambda: dialog.snapshot is not None, timeout=5000)
    assert file_keyring.file_path in dialog.keyring_message.text()
    assert dialog.save_key.isEnabled()

    dialog.api_key.setText("sk-test-file-123")
    _answer(dialog, "keyringQuestion", "Don't store")
    dialog.save_key.click()
    assert file_keyring.file_path in dialog.keyringQuestion.text()
    assert not Path(file_keyring.file_path).exists()
    assert dialog.api_key.text() == "sk-test-file-123"  # still the person's to take elsewhere

    _answer(dialog, "keyringQuestion", "Store in the file")
    with qtbot.waitSignal(dialog.keyStored, timeout=5000):
        dialog.save_key.click()
    assert secrets.get_api_key(secrets.PROVIDER_KEY) == "sk-test-file-123"
    assert "not in a system keyring" in dialog.keyring_message.text()


def test_an_upload_log_read_first_never_lands_over_a_later_one(qtbot, data_dir: Path,  # noqa: ANN001
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # Settings → Privacy opened while an answer was being sent: the log read before the request
    # landed after the one read after it, and the page said nothing had ever been sent.
    from desktop_kb.store import uploads
    from desktop_kb.ui import privacy_page

    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    page = window.settings.dialog.privacy
    qtbot.waitUntil(lambda: page._shown, timeout=10000)
    first = FirstCallHeld(privacy_page.load_privacy)  # lands after the log read once the request is logged
    monkeypatch.setattr(privacy_page, "load_privacy", first)
    page.reload()
    assert first.called.wait(30)
    uploads.log_upload(window.library.store, session_id=None, provider_host="127.0.0.1", model="m",
                       size=10, sources=[], snippet_hashes=["a" * 64], verdicts={"sent": 1})
    page.reload()
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=10000)
    first.release.set()
    assert window.runner.wait(30000)
    QApplication.processEvents()  # the first log, queued as its task ended
    assert page.table.rowCount() == 1
