"""Locator words the core writes in English ("(part 2)", "p. 42") read in the window's language."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel
from test_gui_support import gui_marks, open_window, wait_index_idle

from desktop_kb.ui import i18n

pytestmark = gui_marks()


@pytest.fixture
def chinese_ui():
    i18n.install_language("zh_CN")
    yield
    i18n.install_language("en")


def _long_section(folder: Path) -> Path:
    """A section far over the passage cap, so the importer cuts it into numbered parts."""
    folder.mkdir()
    filler = "借用检查器会在编译时比较引用的作用域，确保引用总是有效的。" * 100
    (folder / "小书.md").write_text(
        f"# 小书\n\n## 第一章 起步\n\n{filler}{filler}铁锈蟹是 Rust 的吉祥物，名叫 Ferris。\n",
        encoding="utf-8")
    return folder


def test_a_part_of_a_long_section_is_named_in_chinese(qtbot, data_dir: Path, tmp_path: Path,
                                                      chinese_ui) -> None:
    # The Chinese window showed "小书 > 第一章 起步 (part 2)" in search hits, related cards, QA
    # citations and the quotation line of a note made from a selection.
    window = open_window(qtbot, data_dir)
    with qtbot.waitSignal(window.import_export.importFinished, timeout=20000):
        window.import_export.import_paths([_long_section(tmp_path / "study")])
    window.import_export.import_summary.accept()
    wait_index_idle(qtbot, window)

    window.global_search.open_search_text("铁锈蟹")
    qtbot.waitUntil(lambda: bool(window.search.results), timeout=5000)
    hit = window.search.results[0]
    assert hit.title.endswith("(part 2)")  # the stored words are the core's, for the CLI
    row = window.search.list.itemWidget(window.search.list.item(0))
    assert isinstance(row, QLabel)
    assert "第一章 起步（第 2 部分）" in row.text() and "(part" not in row.text()

    window.global_search.open_result(hit)
    qtbot.waitUntil(lambda: window.centre.currentWidget() is window.reader, timeout=5000)
    frag = next(f for f in window.reader.fragments if f.id == hit.source_id)
    label = window.reader.source_label(frag)
    assert label.endswith("第一章 起步（第 2 部分）") and "part" not in label
    outline = [window.reader.outline.topLevelItem(i).text(0)
               for i in range(window.reader.outline.topLevelItemCount())]
    assert all("part" not in t and "部分" not in t for t in outline)


def test_page_and_part_words_of_a_title(chinese_ui) -> None:
    from desktop_kb.retrieval.locators import with_locator
    from desktop_kb.text.headings import with_part
    from desktop_kb.ui.locator_text import shown_title

    assert shown_title(with_locator(with_part("线性代数 > 第二章", 2), 42)) == "线性代数 > 第二章（第 2 部分） · 第 42 页"
    assert shown_title(with_locator("线性代数", 41, 42)) == "线性代数 · 第 41–42 页"
    assert shown_title("Chapter (partial)") == "Chapter (partial)"
    i18n.install_language("en")
    assert shown_title(with_locator(with_part("Book > Ch 2", 2), 42)) == "Book > Ch 2 (part 2) · p. 42"
