"""The panes around the editor, driven as a person would: the outline jumps to a heading,
the mouse's back button goes back, the selection always matches what is open (after an
undone trash, with a library passage open), the near-duplicate hint opens a side-by-side
comparison and merges nothing, and the Ctrl+K popup is a frameless popup without Markdown
markers in its snippets."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel
from test_gui_support import gui_marks, open_window, wait_index_idle

pytestmark = gui_marks()

COPIED = (
    "所有权是 Rust 最与众不同的特性，它让 Rust 无需垃圾回收即可保障内存安全。"
    "每一个值都有一个被称为其所有者的变量；值在任一时刻有且只有一个所有者；"
    "当所有者离开作用域，这个值将被丢弃。借用让我们在不获取所有权的情况下使用值，"
    "引用默认不可变，可变引用在同一作用域内只能有一个。"
)


def _open(qtbot, window, note_id: int) -> None:  # noqa: ANN001
    with qtbot.waitSignal(window.notes.noteOpened, timeout=10000):
        window.notes.open_note(note_id)
    qtbot.waitUntil(lambda: window.editor.note_id == note_id, timeout=5000)


def _reload(qtbot, window) -> None:  # noqa: ANN001
    with qtbot.waitSignal(window.notes.notesLoaded, timeout=10000):
        window.notes.reload_notes()


def _selected_ids(window) -> list[int]:  # noqa: ANN001
    from desktop_kb.ui.note_list import ID_ROLE

    return sorted(int(i.data(ID_ROLE)) for i in window.note_list.view.selectionModel().selectedIndexes())


def test_outline_lists_headings_and_a_click_jumps_there(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    body = "# 安装\n\n先装 Docker。\n\n## Steps\n\n```\n# not a heading\n```\n\n## 备份\n\n每天一次。\n"
    note = window.library.add_note("运维", body)
    _reload(qtbot, window)
    _open(qtbot, window, note)
    window.outline_dock.toggleViewAction().trigger()
    panel = window.outline_dock.panel
    qtbot.waitUntil(lambda: panel.tree.topLevelItemCount() == 1, timeout=5000)
    top = panel.tree.topLevelItem(0)
    assert top.text(0) == "安装"
    assert [top.child(i).text(0) for i in range(top.childCount())] == ["Steps", "备份"]
    panel.tree.itemClicked.emit(top.child(1), 0)
    cursor = window.editor.body.textCursor()
    assert cursor.position() == body.index("## 备份")  # no astral characters: code points == UTF-16 units
    assert window.editor.body.hasFocus() or QApplication.focusWidget() is window.editor.body


def _front_tab(window) -> str:  # noqa: ANN001
    """The title of the pane in front in the right-hand tab group."""
    from PySide6.QtWidgets import QTabBar

    for bar in window.findChildren(QTabBar):
        if bar.isVisible() and any(bar.tabText(i) == "Related material" for i in range(bar.count())):
            return bar.tabText(bar.currentIndex())
    return ""


def test_a_pane_shown_from_the_view_menu_comes_to_the_front(qtbot, data_dir: Path) -> None:
    # View → Outline with Ask the library open added an "Outline" tab and kept showing Ask:
    # the pane was raised before its tab existed.
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    window.qa_dock.raise_()
    qtbot.waitUntil(lambda: _front_tab(window) == "Ask the library", timeout=3000)
    window.outline_dock.toggleViewAction().trigger()
    qtbot.waitUntil(lambda: _front_tab(window) == "Outline", timeout=3000)
    window.qa_dock.toggleViewAction().trigger()  # hidden from the menu …
    window.qa_dock.toggleViewAction().trigger()  # … and shown again: in front again
    qtbot.waitUntil(lambda: _front_tab(window) == "Ask the library", timeout=3000)


def test_mouse_back_button_goes_back(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    first = window.library.add_note("first", "one")
    second = window.library.add_note("second", "two")
    _reload(qtbot, window)
    _open(qtbot, window, first)
    _open(qtbot, window, second)
    target = window.editor.body.viewport()
    for kind in (QMouseEvent.Type.MouseButtonPress, QMouseEvent.Type.MouseButtonRelease):
        event = QMouseEvent(kind, QPointF(5, 5), QPointF(5, 5), Qt.MouseButton.BackButton,
                            Qt.MouseButton.BackButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(target, event)
    qtbot.waitUntil(lambda: window.editor.note_id == first, timeout=5000)
    assert window.note_list.current_id() == first
    assert window.navigation.act_forward.isEnabled()


def test_selection_is_exactly_the_open_note_after_an_undone_trash(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    keep = window.library.add_note("keep", "a")
    gone = window.library.add_note("gone", "b")
    _reload(qtbot, window)
    _open(qtbot, window, gone)
    with qtbot.waitSignal(window.trash.noteTrashed, timeout=15000):
        window.act_trash.trigger()
    _open(qtbot, window, keep)
    with qtbot.waitSignal(window.trash.noteRestored, timeout=15000):
        window.act_undo_trash.trigger()
    qtbot.waitUntil(lambda: window.editor.note_id == gone, timeout=5000)
    assert _selected_ids(window) == [gone]
    assert window.note_list.current_id() == gone


def test_opening_a_document_takes_the_highlight_off_the_note(qtbot, data_dir: Path, tmp_path: Path) -> None:
    # The list drops its selection with the view's signals held back, and the view repaints on
    # those signals: the clicked note stayed highlighted beside the document opened from the tree.
    from desktop_kb.library import Library
    from desktop_kb.ui.note_list import ID_ROLE

    (tmp_path / "docs" / "sub").mkdir(parents=True)
    (tmp_path / "docs" / "a.md").write_text("# 甲\n\n文字\n", encoding="utf-8")
    (tmp_path / "docs" / "sub" / "b.md").write_text("# 乙\n\n文字\n", encoding="utf-8")
    with Library(data_dir) as lib:
        lib.import_paths([tmp_path / "docs"])
        lib.add_note("second", "b")
        lib.add_note("third", "c")
        lib.drain()
    window = open_window(qtbot, data_dir)
    view = window.note_list.view
    model = view.model()
    plain = view.palette().base().color()

    def shown(row: int) -> QColor:
        """What the window shows at the end of a row: its backing store, not a fresh render."""
        rect = view.visualRect(model.index(row, 0))
        point = view.viewport().mapTo(window, QPoint(rect.right() - 3, rect.center().y()))
        return window.screen().grabWindow(window.winId(), point.x(), point.y(), 1, 1).toImage().pixelColor(0, 0)

    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(model.index(1, 0)).center())
    clicked = model.index(1, 0).data(ID_ROLE)
    qtbot.waitUntil(lambda: window.editor.note_id == clicked and shown(1) != plain, timeout=5000)
    qtbot.waitUntil(lambda: bool(window.tree._doc_items()), timeout=5000)
    with qtbot.waitSignal(window.documents.fragmentOpened, timeout=10000):
        window.tree.tree.itemActivated.emit(window.tree._doc_items()[0], 0)  # a double click
    assert _selected_ids(window) == []
    qtbot.waitUntil(lambda: shown(1) == plain, timeout=3000)


def test_near_duplicate_hint_compares_side_by_side_and_merges_nothing(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    original = window.library.add_note("所有权（书）", COPIED)
    copy_body = COPIED + "\n\n我的补充：编译期检查。"
    copy = window.library.add_note("所有权（摘抄）", copy_body)
    wait_index_idle(qtbot, window)
    _reload(qtbot, window)
    panel = window.related_panel
    window.notes.open_note(copy)
    qtbot.waitUntil(lambda: panel.view is not None and panel.view.note_id == copy and not panel.rendering,
                    timeout=15000)
    assert [h.duplicate.target_id for h in panel.hints] == [original]
    hint = panel.hints[0]
    assert "所有权（书）" in hint.text.text()
    hint.compare_button.click()
    qtbot.waitUntil(lambda: getattr(window, "compare_dialog", None) is not None
                    and window.compare_dialog.isVisible(), timeout=10000)
    dialog = window.compare_dialog
    assert [t.toPlainText() for t in dialog.texts] == [copy_body, COPIED]
    # What differs is marked: the remark the copy added, and nothing on the original's side.
    left, right = (t.extraSelections() for t in dialog.texts)
    assert "".join(sel.cursor.selectedText() for sel in left).strip() == "我的补充：编译期检查。"
    assert right == []
    dialog.buttons.button(QDialogButtonBox.StandardButton.Close).click()  # closes like every other dialog
    assert not dialog.isVisible()
    assert window.library.get_note(copy).body == copy_body  # never merged
    assert window.library.get_note(original).body == COPIED
    assert window.library.note_links(copy).outgoing == []  # and never linked without a click


def _first_hit_shown(qtbot, popup, query: str) -> str:  # noqa: ANN001
    """The text the search popup shows for its first hit once ``query`` has results."""
    with qtbot.waitSignal(popup.resultsShown, timeout=10000, check_params_cb=lambda n: n > 0):
        popup.query.setText(query)
    label = popup.list.itemWidget(popup.list.item(0))
    return label.text() if label is not None else popup.list.item(0).text()


def test_search_popup_is_frameless_fits_its_width_and_strips_markdown(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    window.library.add_note("部署", "## 安装 **Docker**\n\n- 用 `docker compose` 启动 GitLab\n")
    wait_index_idle(qtbot, window)
    window.act_search.trigger()
    popup = window.search
    assert popup.isVisible()
    assert popup.windowFlags() & Qt.WindowType.FramelessWindowHint
    assert popup.width() <= window.width()
    shown = _first_hit_shown(qtbot, popup, "docker")
    assert "Docker" in shown
    assert "##" not in shown and "**" not in shown and "`" not in shown
    assert popup.list.horizontalScrollBar().maximum() == 0  # nothing to scroll sideways
    qtbot.keyClick(popup.query, Qt.Key.Key_Escape)
    assert not popup.isVisible()


def test_search_hits_show_character_references_as_the_characters_they_stand_for(qtbot, data_dir: Path) -> None:
    # The Rust book's operator table writes "|" as <code>&vert;</code> (a bare bar would end the
    # table's cell): its hits read "&vert;&vert; | expr &vert;&vert; expr | 逻辑或" in the search
    # list and the QA pane. Inside a code span a reference stays as written, as Markdown shows it.
    from desktop_kb.ui.qa_pane import _snippet_html

    window = open_window(qtbot, data_dir)
    window.library.add_note("运算符", "| <code>&vert;&vert;</code> | <code>expr &vert;&vert; expr</code> | "
                                     "逻辑或 |\n\n写成 `&amp;` 时是字面的。\n")
    wait_index_idle(qtbot, window)
    window.act_search.trigger()
    popup = window.search
    shown = _first_hit_shown(qtbot, popup, "逻辑或")
    assert "expr || expr" in shown and "&amp;vert;" not in shown
    assert "&amp;amp;" in _snippet_html({"snippet": "写成 `&amp;` 时", "start": 0, "highlights": []})
    qtbot.keyClick(popup.query, Qt.Key.Key_Escape)


def test_ctrl_f_in_the_reader_finds_in_the_document_and_back_returns_to_it(qtbot, data_dir: Path,
                                                                          tmp_path: Path) -> None:
    window = open_window(qtbot, data_dir)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "rust.md").write_text("# 所有权\n\n每个值都有一个所有者。\n\n# 借用\n\n引用不获取所有权。\n",
                                    encoding="utf-8")
    window.library.import_paths([folder])
    wait_index_idle(qtbot, window)
    note = window.library.add_note("读书笔记", "见书。")
    _reload(qtbot, window)
    document_id = window.library.store_reader.execute("SELECT id FROM documents").fetchone()[0]
    with qtbot.waitSignal(window.documents.fragmentOpened, timeout=10000):
        window.documents.open_document(document_id)
    assert window.centre.currentWidget() is window.reader
    assert window.note_list.current_id() is None  # a document is open, not a note
    window.activateWindow()
    window.reader.text.setFocus()
    qtbot.waitUntil(window.reader.text.hasFocus, timeout=3000)
    # One Ctrl+F for the window (Edit → Find) that serves the reader too: two would be ambiguous.
    qtbot.keyClick(window.reader.text, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.reader.find_field, timeout=3000)
    window.reader.find_field.setText("所有权")
    assert window.reader.find_count.text() == "1 of 2"
    _open(qtbot, window, note)
    window.navigation.act_back.trigger()
    qtbot.waitUntil(lambda: window.centre.currentWidget() is window.reader, timeout=10000)
    assert window.reader.document is not None and window.reader.document.id == document_id


def test_preview_draws_links_to_missing_notes_unlike_links_that_open(qtbot, data_dir: Path) -> None:
    window = open_window(qtbot, data_dir)
    window.library.add_note("所有权", "x")
    note = window.library.add_note("读书", "见 [[所有权]] 与 [[借用|借用规则]]。")
    with qtbot.waitSignal(window.notes.notesLoaded, timeout=10000):
        window.notes.reload_notes()
    window.links.set_titles([(r.id, r.title) for r in
                             (window.note_list.model.get(i) for i in window.note_list.model.ids())])
    _open(qtbot, window, note)
    window.editor.preview_button.setChecked(True)
    styles: dict[str, bool] = {}
    block = window.editor.preview.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isAnchor():
                styles[it.fragment().text()] = fmt.underlineStyle() == fmt.UnderlineStyle.DotLine
            it += 1
        block = block.next()
    assert styles == {"所有权": False, "借用规则": True}


def test_the_preview_keeps_the_lines_as_typed(qtbot) -> None:  # noqa: ANN001
    # Markdown joins a paragraph's lines: "标签：#运维" ran into the line above it, after a space.
    from desktop_kb.ui.note_editor import NotePreview

    preview = NotePreview()
    qtbot.addWidget(preview)
    preview.show_markdown("用 Docker 安装 GitLab。\n标签：#运维\n\n```\nkeep\nas is\n```\n新段落")
    text = preview.toPlainText()
    assert "用 Docker 安装 GitLab。\n标签：#运维" in text
    assert "keep\nas is" in text and "keep  " not in text  # code untouched


def test_keys_go_back_to_the_window_when_the_search_popup_closes(qtbot, data_dir: Path) -> None:
    # Under a bare X server (no window manager to hand the focus back), after Esc or Enter in
    # the search popup every key went nowhere: Ctrl+K and Ctrl+, did nothing until the window
    # was clicked. The window takes the keys back itself.
    window = open_window(qtbot, data_dir)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    window.act_search.trigger()
    popup = window.search
    qtbot.waitUntil(popup.isActiveWindow, timeout=3000)
    qtbot.keyClick(popup.query, Qt.Key.Key_Escape)
    assert not popup.isVisible()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)



def test_an_underscore_on_a_hits_last_line_is_drawn(qtbot, data_dir: Path) -> None:
    # A hit's last line lost its underscores: "text.split_whitespace() … or_insert(0)" read
    # "text.split whitespace() … or insert(0)" in the search list. A label draws only inside
    # its contents, and they were exactly its text's height, centred: an underscore hangs
    # below the last line's. Each hit now has room under its text, drawn from the top.
    from desktop_kb.ui.search_popup import UNDER_LAST_LINE_PX

    window = open_window(qtbot, data_dir)
    window.library.add_note("zeta", "zeta_omicron")
    wait_index_idle(qtbot, window)
    window.act_search.trigger()
    popup = window.search
    with qtbot.waitSignal(popup.resultsShown, timeout=10000, check_params_cb=lambda n: n > 0):
        popup.query.setText("zeta_omicron")
    def laid_out() -> bool:  # the row read anew: a redraw of the list deletes its labels
        item = popup.list.item(0)
        return popup.list.itemWidget(item).height() >= item.sizeHint().height() - 2

    qtbot.waitUntil(laid_out, timeout=5000)
    label = popup.list.itemWidget(popup.list.item(0))
    assert "zeta_omicron" in label.text()
    margins = label.contentsMargins()
    text_height = QLabel.heightForWidth(label, label.width()) - margins.top() - margins.bottom()
    # (The row was measured at the list's width less 2 px: a pixel either way.)
    assert label.contentsRect().height() - text_height >= UNDER_LAST_LINE_PX - 1
    assert label.alignment() & Qt.AlignmentFlag.AlignTop
    qtbot.keyClick(popup.query, Qt.Key.Key_Escape)


def test_the_note_list_shows_the_line_under_a_heading_that_repeats_the_title(qtbot, data_dir: Path) -> None:
    # The welcome note's row read "Welcome to Desktop KB / … Welcome to Desktop KB": its first
    # line is the title as a heading, and the list draws the title above already.
    from desktop_kb.ui.note_list import SUBTITLE_ROLE

    window = open_window(qtbot, data_dir)
    note = window.library.add_note("Rust 所有权", "# Rust 所有权\n\n每一个值都有一个所有者。\n")
    other = window.library.add_note("部署", "# 安装\n\n先装 Docker。\n")
    _reload(qtbot, window)
    model = window.note_list.model

    def subtitle(note_id: int) -> str:
        return str(model.data(model.index(model.row_of(note_id), 0), SUBTITLE_ROLE))

    assert subtitle(note).endswith("  每一个值都有一个所有者。")
    assert subtitle(other).endswith("  安装")  # a heading that is not the title still tells
    _open(qtbot, window, note)
    body = window.editor.body
    body.selectAll()
    body.insertPlainText("# Rust 所有权\n\n值在任一时刻有且只有一个所有者。\n")  # the row a save redraws
    window.notes.save_now()
    qtbot.waitUntil(lambda: subtitle(note).endswith("  值在任一时刻有且只有一个所有者。"), timeout=5000)


def test_search_hits_show_a_link_written_as_code_as_its_text(qtbot, data_dir: Path) -> None:
    # The Rust book links its API names as code: "这个函数叫做 [`drop`][drop]". The hit read
    # "叫做 [drop][drop]，" in the search list, the QA pane and the related panel: a link
    # holding a code span was taken for code and kept whole.
    window = open_window(qtbot, data_dir)
    window.library.add_note("释放内存", "这个函数叫做 [`drop`][drop]，在结尾处自动调用。见 [`Vec<T>`](https://doc.rust-lang.org)。\n\n"
                                       "[drop]: https://doc.rust-lang.org/std/ops/trait.Drop.html\n")
    wait_index_idle(qtbot, window)
    window.act_search.trigger()
    popup = window.search
    shown = _first_hit_shown(qtbot, popup, "自动调用")
    assert "叫做 drop，" in shown and "[drop]" not in shown
    assert "见 Vec&lt;T&gt;。" in shown
    qtbot.keyClick(popup.query, Qt.Key.Key_Escape)


def test_a_narrow_note_list_elides_its_rows_instead_of_scrolling_sideways(qtbot, data_dir: Path) -> None:
    # At 1280×720 and 150 % the notes pane is about 170 px wide: the list grew a horizontal
    # scroll bar and cut each row at the pane's edge ("2026-12-07 11:25  学习 Rus"), the
    # ellipsis drawn 200 px out, where nobody sees it.
    from desktop_kb.ui.note_list import SUBTITLE_ROLE

    window = open_window(qtbot, data_dir)
    note = window.library.add_note("Rust 所有权与借用的规则总览", "学习 Rust 的所有权规则：每个值都有一个所有者。")
    _reload(qtbot, window)
    view = window.note_list.view
    view.setFixedWidth(150)
    qtbot.waitUntil(lambda: view.viewport().width() < 150, timeout=3000)
    QApplication.processEvents()
    assert view.horizontalScrollBar().maximum() == 0
    index = view.model().index(window.note_list.proxy.mapFromSource(
        window.note_list.model.index(window.note_list.model.row_of(note), 0)).row(), 0)
    assert view.visualRect(index).right() <= view.viewport().width()
    assert str(index.data(SUBTITLE_ROLE)).endswith("所有者。")


def test_the_empty_tag_pane_shows_its_whole_hint_when_narrow(qtbot, data_dir: Path) -> None:
    # At 1280×720 and 150 % with Ask the library open, the left column is ~160 px wide: the
    # tag pane's hint wraps to two lines and the splitter gave it one, cut through the middle
    # ("还没有标签：在笔记中写 #标签。" read as a row of half characters).
    from desktop_kb.ui import i18n

    i18n.install_language("zh_CN")
    try:
        window = open_window(qtbot, data_dir, language_choice="zh_CN")
        window.resize(853, 480)
        pane = window.tags.pane
        window.splitter.setSizes([160, 693])
        window.left.setSizes([400, 10, 400])  # a splitter put tight around the pane
        qtbot.waitUntil(lambda: pane.empty.isVisible() and pane.empty.width() < 200, timeout=5000)
        QApplication.processEvents()
        label = pane.empty
        assert label.heightForWidth(label.width()) > label.fontMetrics().height()  # two lines here
        assert label.height() >= label.heightForWidth(label.width())
    finally:
        i18n.install_language("en")
