"""UI language: committed translations are complete, and switching retranslates open windows."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import keyring
import pytest
from test_gui_support import gui_marks, open_window, use_memory_keyring

from desktop_kb.ui import i18n

pytestmark = gui_marks()
TS = i18n.TRANSLATIONS / "desktop_kb_zh_CN.ts"


@pytest.fixture(autouse=True)
def _memory_keyring_and_english():
    previous = keyring.get_keyring()
    use_memory_keyring()
    yield
    keyring.set_keyring(previous)
    i18n.install_language("en")


def test_every_string_is_translated_and_compiled() -> None:
    root = ET.parse(TS).getroot()
    unfinished = [m.findtext("source") for m in root.iter("message")
                  if m.find("translation").get("type") in ("unfinished", "obsolete", "vanished")]
    assert unfinished == []
    qm = TS.with_suffix(".qm")
    assert qm.is_file() and qm.stat().st_mtime >= TS.stat().st_mtime - 1  # compiled after the last edit



def test_english_counts_read_as_english(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    """The index popup said "1 sources, 1 chunks indexed." and every other count read
    "1 document(s)": English had no plural forms. Each one now has them (tools/english_plurals.py)."""
    import sys

    from desktop_kb.library import Library

    with Library(data_dir, load_model=False) as lib:
        lib.add_note("One", "just one note zqplural")
    i18n.install_language("en")  # what app.py does for an English window
    window = open_window(qtbot, data_dir, language_choice="en")
    qtbot.waitUntil(lambda: window.index.last_status.state == "ok", timeout=10000)
    window.index_status.show_index_status()
    summary = window.status_popup.summary.text()
    assert summary.startswith("1 source, 1 chunk indexed."), summary
    i18n.install_language("zh_CN")
    qtbot.waitUntil(lambda: window.status_popup.summary.text().startswith("已索引 1 个来源、1 个分块。"),
                    timeout=3000)
    i18n.install_language("en")
    qtbot.waitUntil(lambda: window.status_popup.summary.text() == summary, timeout=3000)

    # Every count in the code has its English forms, compiled (run tools/english_plurals.py).
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "tools"))
    try:
        import english_plurals
    finally:
        sys.path.remove(str(root / "tools"))
    sources = sorted((root / "desktop_kb").rglob("*.py"))
    wanted = {m.findtext("source") for m in ET.parse(english_plurals.plural_messages(sources))
              .getroot().iter("message")}
    committed = {m.findtext("source"): [f.text for f in m.iter("numerusform")]
                 for m in ET.parse(english_plurals.TS).getroot().iter("message")}
    chinese = {m.findtext("source") for m in ET.parse(TS).getroot().iter("message")
               if m.get("numerus") == "yes"}
    wanted |= chinese  # lupdate does not see QCoreApplication.translate(ctx, text, "", n)
    assert wanted and wanted <= set(committed), wanted - set(committed)
    assert all(len(forms) == 2 and all(forms) for forms in committed.values())
    qm = english_plurals.TS.with_suffix(".qm")
    assert qm.stat().st_mtime >= english_plurals.TS.stat().st_mtime - 1

def test_system_locale_is_followed_by_default(monkeypatch) -> None:
    from PySide6.QtCore import QLocale

    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("zh_CN")))
    assert i18n.resolve_language(None) == "zh_CN"
    assert i18n.resolve_language("system") == "zh_CN"
    monkeypatch.setattr(QLocale, "system", staticmethod(lambda: QLocale("de_DE")))
    assert i18n.resolve_language(None) == "en"
    assert i18n.resolve_language("en") == "en"


def test_switching_language_retranslates_open_windows(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir, language_choice="en")
    window.settings.open_settings()
    settings = window.settings.dialog
    qtbot.waitUntil(lambda: settings.snapshot is not None, timeout=5000)
    window.index_status.show_index_status()
    window.global_search.open_search()
    assert window.menu_file.title() == "&File"

    settings.language.setCurrentIndex(settings.language.findData("zh_CN"))  # what the person clicks
    assert i18n.current_language() == "zh_CN"
    qtbot.waitUntil(lambda: window.menu_file.title() == "文件(&F)", timeout=3000)  # LanguageChange is posted
    assert window.note_list.header.text() == "笔记"
    assert window.tree.header.text() == "资料库"
    assert settings.windowTitle() == "设置"
    assert settings.tabs.tabText(3) == "AI 服务商"
    assert window.status_popup.rebuild_button.text() == "重建索引"
    assert window.search.windowTitle() == "搜索"
    assert window.badge.text() in ("已索引 ✓",) or window.badge.text().startswith("正在索引")
    assert window.degraded.text() == "没有嵌入模型 — 仅关键词搜索"
    assert window.state.text("ui/language") == "zh_CN"
    assert window.save_queue.flush(5)
    assert window.library.get_setting("ui.language") == "zh_CN"

    settings.language.setCurrentIndex(settings.language.findData("en"))
    qtbot.waitUntil(lambda: window.menu_file.title() == "&File", timeout=3000)
    assert settings.windowTitle() == "Settings"


def test_welcome_note_is_written_in_the_ui_language(qtbot, data_dir: Path) -> None:
    i18n.install_language("zh_CN")
    window = open_window(qtbot, data_dir, language_choice="zh_CN")
    assert window.editor.title.text() == "欢迎使用 Desktop KB"
    assert "学习库问答" in window.editor.body.toPlainText()
    assert "相关资料" in window.editor.body.toPlainText()
    assert window.library.get_setting("ui.welcome_created") is True


def test_reasons_for_damaged_study_material_are_translated(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    """The import summary shows each reader's reason for a damaged file in Chinese too."""
    import re
    import zipfile

    from doc_fixtures import encrypt_pdf, write_pdf, zip_bomb

    from desktop_kb.importer.load import open_document
    from desktop_kb.importer.model import UnreadableFile
    from desktop_kb.ui.import_dialog import reason_text

    (tmp_path / "junk.docx").write_bytes(b"not a zip at all")
    (tmp_path / "empty.epub").write_bytes(b"")
    with zipfile.ZipFile(tmp_path / "nodoc.docx", "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
    with zipfile.ZipFile(tmp_path / "nospine.epub", "w") as z:
        z.writestr("mimetype", "application/epub+zip")
        z.writestr("META-INF/container.xml",
                   '<container><rootfiles><rootfile full-path="p.opf"/></rootfiles></container>')
        z.writestr("p.opf", "<package><manifest/><spine/></package>")
    zip_bomb(tmp_path / "bomb.docx", "word/document.xml", size=300 * 1024 * 1024)
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n%%EOF")
    encrypt_pdf(write_pdf(tmp_path / "locked.pdf", [["secret"]]), "pw")
    (tmp_path / "latin.txt").write_bytes("Le résumé était très réussi.".encode("latin-1"))
    files = {"junk.docx": "docx", "empty.epub": "epub", "nodoc.docx": "docx",
             "nospine.epub": "epub", "bomb.docx": "docx", "broken.pdf": "pdf",
             "locked.pdf": "pdf", "latin.txt": "txt"}
    reasons = []
    for name, fmt in files.items():
        with pytest.raises(UnreadableFile) as err:
            open_document(tmp_path / name, fmt).parse()
        reasons.append(str(err.value))
    i18n.install_language("zh_CN")
    shown = {reason: reason_text(reason) for reason in reasons}
    assert all(re.search(r"[\u4e00-\u9fff]", text) for text in shown.values()), shown


def test_the_library_setting_chooses_the_language_the_app_starts_in(data_dir: Path) -> None:
    """``desktop-kb settings set ui.language zh_CN`` used to change nothing: the window read
    only its own ui.ini. The library's setting now wins when it names a language."""
    from desktop_kb.app import language_choice
    from desktop_kb.cli.entry import main
    from desktop_kb.library import Library

    Library(data_dir, load_model=False).close()
    assert language_choice(data_dir, "en") == "en"  # nothing set in the library: the window's
    assert main(["--data-dir", str(data_dir), "settings", "set", "ui.language", "zh_CN"]) == 0
    assert language_choice(data_dir, "en") == "zh_CN"
    assert main(["--data-dir", str(data_dir), "settings", "set", "ui.language", "system"]) == 0
    assert language_choice(data_dir, "en") == "en"
    assert language_choice(data_dir / "missing", "system") == "system"
    (data_dir / "damaged").mkdir()
    (data_dir / "damaged" / "library.sqlite").write_bytes(b"not a database" * 100)
    assert language_choice(data_dir / "damaged", "zh_CN") == "zh_CN"


@pytest.mark.parametrize("key, value", [("ui.language", "fr"), ("embed.threads", "many"),
                                        ("embed.threads", "0")])
def test_settings_the_app_cannot_use_are_refused(data_dir: Path, key: str, value: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from desktop_kb.cli.entry import main

    assert main(["--data-dir", str(data_dir), "settings", "set", key, value]) == 1
    assert key in capsys.readouterr().err
    assert main(["--data-dir", str(data_dir), "settings", "get", key]) == 0


def test_the_folder_chooser_speaks_chinese_too(qtbot) -> None:  # noqa: ANN001
    # Qt 6.12's file dialog labels carry mnemonics ("&Look in:", "Files of &type:") that
    # Qt's own qtbase_zh_CN.qm translates only without them: Import folder showed two
    # English labels in a Chinese dialog. Ours fills the gap.
    from PySide6.QtWidgets import QFileDialog, QLabel

    i18n.install_language("zh_CN")
    dialog = QFileDialog(None, "导入文件夹")
    qtbot.addWidget(dialog)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)  # what Linux without a portal shows
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    labels = {label.objectName(): label.text() for label in dialog.findChildren(QLabel)}
    assert labels["lookInLabel"] == "查找范围(&L)：" and labels["fileTypeLabel"] == "文件类型(&T)："
    assert [text for text in labels.values() if re.search("[A-Za-z]{2,}", text)] == []


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_about_names_the_version(qtbot, data_dir: Path, language: str) -> None:
    # Help → About said what the app is and where the data lives, but not which version.
    from desktop_kb import __version__

    i18n.install_language(language)
    window = open_window(qtbot, data_dir, language_choice=language)
    first_line = window.about_text().splitlines()[0]
    assert first_line.startswith(f"Desktop KB {__version__} — ")
    assert str(data_dir) in window.about_text()
    assert ("本地优先" in first_line) == (language == "zh_CN")


def test_the_sort_order_fits_its_text_after_a_switch(qtbot, data_dir: Path) -> None:
    # Opened in 简体中文 ("最近更新"), switched to English: the box kept its Chinese width and
    # showed "Recently" of "Recently updated".
    i18n.install_language("zh_CN")
    window = open_window(qtbot, data_dir, language_choice="zh_CN")
    sort = window.note_list.sort
    i18n.install_language("en")
    qtbot.waitUntil(lambda: sort.currentText() == "Recently updated", timeout=3000)
    qtbot.waitUntil(lambda: sort.width() > sort.fontMetrics().horizontalAdvance("Recently updated"), timeout=3000)


def test_the_folder_chooser_calls_a_folder_a_folder(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    # Its Type column said "Folder" in a Chinese dialog: qtbase_zh_CN.qm has no translation for
    # QAbstractFileIconProvider's "Folder" (disambiguated "All other platforms").
    from PySide6.QtWidgets import QFileDialog, QFileSystemModel

    (tmp_path / "课程").mkdir()
    i18n.install_language("zh_CN")
    dialog = QFileDialog(None, "导入文件夹", str(tmp_path))
    qtbot.addWidget(dialog)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    model = dialog.findChild(QFileSystemModel)
    qtbot.waitUntil(lambda: model.index(str(tmp_path / "课程")).isValid(), timeout=5000)
    folder = model.index(str(tmp_path / "课程"))
    qtbot.waitUntil(lambda: model.type(folder) != "", timeout=5000)
    assert model.type(folder) == "文件夹"


def test_the_import_summary_counts_only_what_it_wrote(qtbot) -> None:  # noqa: ANN001
    # Re-importing an unchanged folder said "未变 1 个；共 0 个片段" ("0 passages in all").
    from desktop_kb.importer.run import ImportSummary
    from desktop_kb.ui.import_dialog import ImportSummaryDialog

    i18n.install_language("zh_CN")
    dialog = ImportSummaryDialog(ImportSummary(unchanged=1))
    qtbot.addWidget(dialog)
    assert dialog.headline.text().startswith("新增 0 个，更新 0 个，未变 1 个；新写入 0 个片段。")
    i18n.install_language("en")
    qtbot.waitUntil(lambda: dialog.headline.text().startswith(
        "0 new, 0 updated, 1 unchanged; 0 passages added or updated."), timeout=3000)



def test_the_import_summary_of_a_book_says_its_remarks_in_chinese(
        qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    """Importing the Rust book listed '1 passage(s) longer than 4000 characters were split into
    parts' in English in the Chinese window, ten times, and ended with '0 hidden items skipped'."""
    from desktop_kb.library import Library
    from desktop_kb.ui.import_dialog import ImportSummaryDialog

    book = tmp_path / "book"
    book.mkdir()
    (book / "ch08-02-strings.md").write_text(
        "# 使用字符串储存 UTF-8 编码的文本\n\n" + "字符串是字节的集合，外加一些方法。" * 400, encoding="utf-8")
    (book / "config.yaml").write_text("- 第一项\n- 第二项\n", encoding="utf-8")
    with Library(tmp_path / "lib", load_model=False) as lib:
        summary = lib.import_paths([book])
    assert len(summary.remarks) == 2, summary.remarks
    i18n.install_language("zh_CN")
    dialog = ImportSummaryDialog(summary)
    qtbot.addWidget(dialog)
    dialog.show()
    rows = [dialog.skipped.topLevelItem(i).text(1) for i in range(dialog.skipped.topLevelItemCount())]
    assert len(rows) == 2 and all(re.search(r"[\u4e00-\u9fff]", r) for r in rows), rows
    assert not dialog.hidden.isVisible()
    i18n.install_language("en")
    qtbot.waitUntil(lambda: "1 passage longer than 4000 characters split into parts"
                    in dialog.skipped.topLevelItem(0).text(1)
                    + dialog.skipped.topLevelItem(1).text(1), timeout=3000)
