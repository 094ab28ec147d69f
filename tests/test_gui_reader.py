"""The document reader widget: whole document, outline, passage highlighted, find, selection → note."""

from __future__ import annotations

from PySide6.QtGui import QFont, QTextCursor

from desktop_kb.store.documents import Document, Fragment
from desktop_kb.ui.document_reader import DocumentReader, _utf16_to_cp, outline_of
from desktop_kb.ui.text_offsets import to_utf16


def doc(fmt: str = "pdf") -> Document:
    return Document(id=7, path="/books/线性代数.pdf", format=fmt, sha256="x", title="线性代数",
                    imported_at=0.0, local_only=False)


def frags() -> list[Fragment]:
    texts = [("第一章 向量", "第一章 向量\n\n向量可以相加。😀 emoji before the hit", 1),
             ("第一章 向量 > 内积", "内积\n\n内积给出长度与角度。", 2),
             ("第二章 矩阵", "第二章 矩阵\n\nThe rank of a matrix is its column space dimension.", 3)]
    return [Fragment(id=100 + i, document_id=7, ord=i, heading_path=hp, text=t, start=0, end=len(t),
                     page=p, page_end=p) for i, (hp, t, p) in enumerate(texts)]


def test_outline_from_headings_or_pages() -> None:
    entries = outline_of(frags())
    assert [(e.depth, e.title, e.fragment_id, e.page) for e in entries] == [
        (0, "第一章 向量", 100, 1), (1, "内积", 101, 2), (0, "第二章 矩阵", 102, 3)]
    bare = [Fragment(1, 7, 0, "", "a", 0, 1, 1, 1), Fragment(2, 7, 1, "", "b", 0, 1, 1, 1),
            Fragment(3, 7, 2, "", "c", 0, 1, 2, 2)]
    assert [(e.page, e.fragment_id) for e in outline_of(bare)] == [(1, 1), (2, 3)]


def test_reader_shows_whole_document_and_highlights_the_passage(qtbot) -> None:
    reader = DocumentReader()
    qtbot.addWidget(reader)
    reader.resize(900, 500)
    fragments = frags()
    hit = fragments[2].text.index("rank")
    reader.show_document(doc(), fragments, focus_fragment=102, highlights=[(hit, hit + 4)])
    text = reader.text.toPlainText()
    assert all(f.text in text for f in fragments)
    assert text.index("向量可以相加") < text.index("内积给出") < text.index("The rank")
    selections = reader.text.extraSelections()
    assert any(s.cursor.selectedText() == "rank" for s in selections)
    assert reader.outline.currentItem().text(0) == "第二章 矩阵"
    # An astral character earlier in the text must not shift the highlight (UTF-16 positions).
    first = fragments[0].text.index("hit")
    reader.go_to_fragment(100, [(first, first + 3)])
    assert any(s.cursor.selectedText() == "hit" for s in reader.text.extraSelections())


def test_find_in_document_cycles_through_matches(qtbot) -> None:
    reader = DocumentReader()
    qtbot.addWidget(reader)
    reader.show_document(doc(), frags())
    reader.find_field.setText("内积")
    assert reader.text.textCursor().selectedText() == "内积"
    assert reader.find_count.text() == "1 of 2"
    reader.find_next(backward=False)
    assert reader.find_count.text() == "2 of 2"
    reader.find_field.setText("no such words")
    assert reader.find_count.text() == "No matches"


def test_new_note_from_selection_names_its_fragment(qtbot) -> None:
    reader = DocumentReader()
    qtbot.addWidget(reader)
    reader.show_document(doc(), frags())
    text = reader.text.toPlainText()
    start = to_utf16(text, text.index("内积给出"))  # Qt counts UTF-16 units (the emoji is two)
    cursor = reader.text.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + 4, QTextCursor.MoveMode.KeepAnchor)
    reader.text.setTextCursor(cursor)
    with qtbot.waitSignal(reader.newNoteFromSelection) as signal:
        reader.new_note_button.click()
    assert signal.args == [7, 101, "“线性代数”, p. 2", "内积给出"]


def test_outline_click_scrolls_to_its_section(qtbot) -> None:
    reader = DocumentReader()
    qtbot.addWidget(reader)
    reader.show_document(doc(), frags())
    item = reader.outline.topLevelItem(1)
    reader._outline_activated(item)
    position = reader.text.textCursor().position()
    text = reader.text.toPlainText()
    assert text[_utf16_to_cp(text, position):].startswith("第二章 矩阵")


def test_fenced_code_reads_as_code_and_its_comments_are_not_headings(qtbot) -> None:
    # The Rust book's shell and Rust listings were set in the body font, and a "# comment"
    # line inside them was drawn as a heading.
    text = "## 安装\n\n运行：\n\n```console\n# 先更新\n$ rustup update\n```\n\n之后的正文。"
    fragment = Fragment(id=100, document_id=7, ord=0, heading_path="安装", text=text, start=0,
                        end=len(text), page=None, page_end=None)
    reader = DocumentReader()
    qtbot.addWidget(reader)
    reader.show_document(doc("md"), [fragment])
    document = reader.text.document()

    def formats(line: str) -> list:
        block = document.findBlock(to_utf16(text, text.index(line)))
        return block.layout().formats()

    comment = formats("# 先更新")
    assert comment and all(r.format.fontFixedPitch() for r in comment)
    assert all(r.format.fontWeight() != QFont.Weight.Bold for r in comment)
    assert all(r.format.fontFixedPitch() for r in formats("$ rustup update"))
    assert not any(r.format.fontFixedPitch() for r in formats("之后的正文。"))
    assert any(r.format.fontWeight() == QFont.Weight.Bold for r in formats("## 安装"))


def test_the_quotation_line_does_not_repeat_the_chapter_title(qtbot) -> None:
    """A book chapter's H1 is its title: a selection under it was quoted as
    '“附录 A：关键字”, 附录 A：关键字 > 原始标识符', the title twice (and so was the note's title)."""
    chapter = Document(id=8, path="/book/appendix-01-keywords.md", format="md", sha256="y",
                       title="附录 A：关键字", imported_at=0.0, local_only=False)
    texts = [("附录 A：关键字", "# 附录 A：关键字\n\n下面的列表包含 Rust 中正在使用的关键字。"),
             ("附录 A：关键字 > 原始标识符", "## 原始标识符\n\n原始标识符允许使用通常不能使用的关键字。")]
    fragments = [Fragment(id=200 + i, document_id=8, ord=i, heading_path=hp, text=t, start=0,
                          end=len(t)) for i, (hp, t) in enumerate(texts)]
    reader = DocumentReader()
    qtbot.addWidget(reader)
    reader.show_document(chapter, fragments)
    assert reader.source_label(fragments[1]) == "“附录 A：关键字”, 原始标识符"
    assert reader.source_label(fragments[0]) == "“附录 A：关键字”"
    # Another document's heading that merely starts the same way is kept whole.
    other = Fragment(id=210, document_id=8, ord=2, heading_path="附录 A：关键字表 > 说明",
                     text="x", start=0, end=1)
    assert reader.source_label(other) == "“附录 A：关键字”, 附录 A：关键字表 > 说明"


def test_a_long_path_takes_one_line_of_the_header_and_keeps_its_file_name(qtbot) -> None:
    # At 1280×720 and 150 % the reader is about 320 px wide: the word-wrapped path took eight
    # lines ("/work/ shared/ corpora/ rust- book-cn/ src/ ch15-04- rc.md") and left the
    # document a quarter of the pane.
    reader = DocumentReader()
    qtbot.addWidget(reader)
    reader.resize(320, 480)
    reader.show()
    path = "/work/shared/corpora/rust-book-cn/src/ch15-04-rc.md"
    long_doc = Document(id=7, path=path, format="md", sha256="x", title="Rc<T> 引用计数智能指针",
                        imported_at=0.0, local_only=False)
    reader.show_document(long_doc, frags(), focus_fragment=100, highlights=[])
    qtbot.waitUntil(lambda: reader.path.isVisible(), timeout=3000)
    line = reader.path.fontMetrics().height()
    assert reader.path.height() < 2 * line
    shown = reader.path.text()
    assert shown.startswith("…") and shown.endswith("/src/ch15-04-rc.md")
    assert reader.path.toolTip() == path
    assert reader.text.height() > 480 // 2  # the document keeps most of the pane


def test_in_a_narrow_reader_the_new_note_button_is_its_icon_and_the_title_keeps_its_lines(qtbot) -> None:
    # At 1280×720 and 150 % "New note from selection" took half the header's width and the
    # title beside it wrapped into four lines ("Rc<T> / 引用计 / 数智能 / 指针").
    from PySide6.QtCore import Qt

    reader = DocumentReader()
    qtbot.addWidget(reader)
    reader.resize(320, 480)
    reader.show()
    rc = Document(id=7, path="/b/rc.md", format="md", sha256="x", title="Rc<T> 引用计数智能指针",
                  imported_at=0.0, local_only=False)
    reader.show_document(rc, frags(), focus_fragment=100, highlights=[])
    button = reader.new_note_button
    qtbot.waitUntil(lambda: button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly, timeout=3000)
    assert button.toolTip()  # what it does, where its words were
    qtbot.waitUntil(lambda: reader.title.height() < 2.5 * reader.title.fontMetrics().height(), timeout=3000)
    reader.resize(900, 480)
    qtbot.waitUntil(lambda: button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon, timeout=3000)


def test_html_that_markdown_lets_through_reads_as_a_browser_shows_it(qtbot) -> None:
    # The Rust book's captions showed as '<span class="caption">示例 15-17: …</span>' in the
    # middle of the chapter. Tags go; code keeps its angle brackets; a hit after a hidden tag
    # is still highlighted on its own words.
    chapter = ('<span class="filename">文件名: src/main.rs</span>\n\n'
               "```html\n<h1>Hello!</h1>\n```\n\n"
               '<span class="caption">示例 15-17: 展示不能用两个 `Box<T>` 的列表</span>\n\n'
               "运算符 <code>&vert;</code> 与 Vec<String> 都照原样显示。")
    fragment = Fragment(id=200, document_id=7, ord=0, heading_path="Rc<T>", text=chapter, start=0,
                        end=len(chapter), page=None, page_end=None)
    reader = DocumentReader()
    qtbot.addWidget(reader)
    reader.resize(900, 500)
    hit = chapter.index("展示不能")
    reader.show_document(doc("md"), [fragment], focus_fragment=200, highlights=[(hit, hit + 4)])
    shown = reader.text.toPlainText()
    assert "<span" not in shown and "</span>" not in shown and "<code>" not in shown
    assert "文件名: src/main.rs" in shown and "示例 15-17: 展示不能用两个 `Box<T>` 的列表" in shown
    assert "<h1>Hello!</h1>" in shown  # an HTML listing is code: as written
    assert "运算符 | 与 Vec<String> 都照原样显示。" in shown
    assert any(s.cursor.selectedText() == "展示不能" for s in reader.text.extraSelections())


def test_a_reader_narrowed_while_hidden_gives_the_text_its_room_when_shown(qtbot) -> None:
    # The window made narrow (1280×720 at 150 %) while a note was open, then a document opened:
    # the outline kept its 200 px and the text column was six ideographs wide.
    from PySide6.QtWidgets import QLabel, QStackedWidget

    stack = QStackedWidget()
    qtbot.addWidget(stack)
    editor = QLabel("note")
    reader = DocumentReader()
    stack.addWidget(editor)
    stack.addWidget(reader)
    stack.resize(1000, 500)
    stack.show()
    stack.resize(340, 500)  # narrowed while the editor is in front
    qtbot.waitUntil(lambda: editor.width() <= 340, timeout=3000)
    stack.setCurrentWidget(reader)
    reader.show_document(doc(), frags())

    def fitted() -> bool:
        outline, text = reader.splitter.sizes()
        return outline > 0 and outline <= (outline + text) // 3 + 1
    qtbot.waitUntil(fitted, timeout=3000)
