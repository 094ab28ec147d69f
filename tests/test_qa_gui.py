"""The QA pane: preview before sending, removing a snippet, Stop mid-stream, citations that open."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from first_held import FirstCallHeld
from PySide6.QtCore import QUrl
from test_gui_support import gui_marks, open_window

from desktop_kb.library import Library
from desktop_kb.store import uploads
from desktop_kb.ui import i18n
from tests.qa_server import ChatServer, Reply, sse_chunk

pytestmark = gui_marks()

GITLAB = ("用 Docker 安装 GitLab 之前，先准备 docker-compose.yml 文件。"
          "第一次启动 GitLab 需要几分钟，耐心等待健康检查通过。"
          "备份命令是 gitlab-backup create，建议每天执行一次。")
BACKUP = "GitLab 备份放在 /srv/backups。安装后配置 cron 定时任务。"
QUESTION = "怎么用 Docker 安装 GitLab？"



@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


def _library(data_dir: Path, server: ChatServer | None) -> dict[str, int]:
    with Library(data_dir) as lib:
        ids = {"gitlab": lib.add_note("Docker 部署 GitLab", GITLAB),
               "backup": lib.add_note("GitLab 备份", BACKUP)}
        if server is not None:
            lib.set_setting("qa.cloud_enabled", True)
            lib.set_setting("qa.provider.base_url", server.base_url)
            lib.set_setting("qa.provider.model", "m")
        lib.drain()
    return ids


def _ask(qtbot, pane, question: str = QUESTION):  # noqa: ANN001, ANN202
    pane.question.setText(question)
    with qtbot.waitSignal(pane.previewShown, timeout=10000) as shown:
        pane.ask_button.click()
    return shown.args[0]


def test_preview_remove_a_snippet_then_send_and_open_a_citation(qtbot, data_dir: Path, server) -> None:  # noqa: ANN001
    ids = _library(data_dir, server)
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    dialog = _ask(qtbot, pane)
    assert dialog.isVisible() and server.requests == []
    assert server.base_url.split("/")[2] in dialog.headline.text()
    assert dialog.snippets.count() >= 2
    first = dialog.plan.gated[0].packed
    assert first.text in dialog.payload.toPlainText()
    dialog.snippets.item(0).setSelected(True)
    dialog.remove_button.click()
    assert dialog.removed == {first.n}
    assert first.text not in dialog.payload.toPlainText()
    expected = json.loads(dialog.payload.toPlainText())
    server.replies.append(Reply.stream("配置定时任务[1]。"))
    with qtbot.waitSignal(pane.answerShown, timeout=10000) as answered:
        dialog.send_once.click()
    answer = answered.args[0]
    assert answer.mode == "generated"
    assert server.requests == [expected]  # exactly what the preview showed
    assert len(uploads.list_uploads(window.library.store_reader)) == 1
    html = pane.transcript.toHtml()
    assert "cite:0:c:1" in html and "<sup>" not in pane.transcript.toPlainText()
    record = pane.citation("cite:0:c:1")
    assert record is not None and record["source_id"] == ids["backup"]
    assert "GitLab 备份" in pane.tooltip_html(record)

    with qtbot.waitSignal(window.notes.noteOpened, timeout=5000):
        pane.transcript.anchorClicked.emit(QUrl("cite:0:c:1"))
    assert window.editor.note_id == ids["backup"]
    selections = window.editor.body.extraSelections()
    assert selections and selections[0].cursor.selectedText() == BACKUP[record["start"]:record["end"]]


def test_dont_send_gives_the_local_answer_and_a_local_citation_opens(qtbot, data_dir: Path, server) -> None:  # noqa: ANN001
    ids = _library(data_dir, server)
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    dialog = _ask(qtbot, pane)
    with qtbot.waitSignal(pane.answerShown, timeout=10000) as answered:
        dialog.cancel_button.click()
    assert answered.args[0].reason == "not_approved" and server.requests == []
    assert "not approved" in pane.transcript.toPlainText()
    record = pane.citation("cite:0:h:1")
    assert record is not None and record["source_id"] == ids["gitlab"]
    with qtbot.waitSignal(window.notes.noteOpened, timeout=5000):
        pane.transcript.anchorClicked.emit(QUrl("cite:0:h:1"))
    selections = window.editor.body.extraSelections()
    shown = [s.cursor.selectedText() for s in selections]
    assert shown == [GITLAB[a:b] for a, b in record["highlights"]] and "GitLab" in shown


def test_stop_mid_stream(qtbot, data_dir: Path, server) -> None:  # noqa: ANN001
    _library(data_dir, server)
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    server.replies.append(Reply(lines=[sse_chunk("先准备[1]")], stall=True))
    dialog = _ask(qtbot, pane)
    dialog.send_session.click()
    qtbot.waitUntil(lambda: pane.live is not None and pane.live["answer"] == "先准备[1]", timeout=10000)
    assert pane.stop_button.isVisible() and not pane.ask_button.isVisible()
    with qtbot.waitSignal(pane.answerShown, timeout=10000) as answered:
        pane.stop_button.click()
    answer = answered.args[0]
    assert "stopped" in answer.flags and answer.answer == "先准备[1]"
    assert pane.ask_button.isVisible() and not pane.stop_button.isVisible()
    # approved for the session: the next question goes without a preview
    server.replies.append(Reply.stream("再来[1]。"))
    pane.question.setText("GitLab 备份放在哪里？")
    with qtbot.assertNotEmitted(pane.previewShown), qtbot.waitSignal(pane.answerShown, timeout=10000):
        pane.ask_button.click()
    assert len(server.requests) == 2


def test_sessions_and_local_mode_without_cloud(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    _library(data_dir, None)
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    pane.question.setText(QUESTION)
    with qtbot.waitSignal(pane.answerShown, timeout=10000) as answered:
        pane.ask_button.click()
    assert answered.args[0].reason == "cloud_off"
    assert "cloud answering is off" in pane.transcript.toPlainText()
    qtbot.waitUntil(lambda: pane.sessions.count() == 1, timeout=5000)
    session = pane.session_id
    pane.new_session()
    assert pane.entries == []
    with qtbot.waitSignal(pane.bridge.messagesLoaded, timeout=5000,
                          check_params_cb=lambda sid, _messages: sid == session):
        pane.sessions.activated.emit(0)
    assert pane.session_id == session and len(pane.entries) == 1
    pane.bridge.rename_session(session, "部署问题")
    # Wait for the list that follows the rename, not an earlier reload still in flight.
    qtbot.waitUntil(lambda: pane.sessions.itemText(0) == "部署问题", timeout=5000)


def test_privacy_page_shows_the_upload_log(qtbot, data_dir: Path, server) -> None:  # noqa: ANN001
    _library(data_dir, server)
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    server.replies.append(Reply.stream("好[1]。"))
    dialog = _ask(qtbot, pane)
    with qtbot.waitSignal(pane.answerShown, timeout=10000):
        dialog.send_once.click()
    window.settings.open_settings()
    page = window.settings.dialog.privacy
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=5000)
    assert page.table.item(0, 1).text() == server.base_url.split("/")[2]
    assert page.table.item(0, 4).text().startswith("sent · ") and "sent" in page.table.item(0, 4).text()[7:]
    # In Chinese the outcome and the sources read "已发送 · sent 1" and "note 1, fragment 2": the
    # gate's counts and the source kinds were never translated.
    i18n.install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: page.table.item(0, 4).text().startswith("已发送 · "), timeout=3000)
        outcome, sources = page.table.item(0, 4).text(), page.table.item(0, 5).text().split("  [")[0]
        assert re.search("[A-Za-z]", outcome) is None, outcome
        assert "“Docker 部署 GitLab”" in sources, sources
    finally:
        i18n.install_language("en")
    chooser = window.settings.dialog.preset
    qtbot.waitUntil(lambda: window.settings.dialog.base_url.isEnabled(), timeout=5000)
    chooser.activated.emit(chooser.findData("deepseek"))
    assert window.settings.dialog.base_url.text() == "https://api.deepseek.com/v1"
    qtbot.waitUntil(lambda: window.library.get_setting("qa.provider.model") == "deepseek-chat", timeout=5000)


def test_the_upload_log_names_what_was_sent_by_title_and_file(qtbot, data_dir: Path, tmp_path: Path) -> None:  # noqa: ANN001
    # The log read "note 1, passage 3": nobody knows which passage 3 is. It names the note by
    # its title and the passage by its title and file; one deleted since says so, in Chinese too.
    material = tmp_path / "material"
    material.mkdir()
    (material / "rust-notes.md").write_text("# 所有权\n\n每个值都有一个所有者。\n", encoding="utf-8")
    with Library(data_dir) as lib:
        kept = lib.add_note("Docker 部署 GitLab", GITLAB)
        gone = lib.add_note("旧笔记", BACKUP)
        lib.import_paths([material])
        lib.drain()
        fragment = lib.store_reader.execute("SELECT id FROM fragments").fetchone()[0]
        uploads.log_upload(lib.store, session_id=None, provider_host="127.0.0.1", model="m", size=10,
                           sources=[("note", kept), ("fragment", fragment), ("note", gone)],
                           snippet_hashes=["a" * 64, "b" * 64, "c" * 64], verdicts={"sent": 3})
        lib.delete_note(gone)
    window = open_window(qtbot, data_dir)
    window.settings.open_settings()
    page = window.settings.dialog.privacy
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=5000)
    sources = page.table.item(0, 5).text().split("  [")[0]
    assert sources.startswith("“Docker 部署 GitLab”, “所有权” (rust-notes.md), "), sources
    assert sources.endswith(f"deleted note {gone}"), sources
    i18n.install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: "已删除" in page.table.item(0, 5).text(), timeout=3000)
        assert "rust-notes.md" in page.table.item(0, 5).text()
    finally:
        i18n.install_language("en")


def test_save_answer_as_note_links_its_sources(qtbot, data_dir: Path, server) -> None:  # noqa: ANN001
    ids = _library(data_dir, server)
    server.replies.append(Reply.stream("先准备 docker-compose.yml [1]，", "备份放在 /srv/backups [2]。"))
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    dialog = _ask(qtbot, pane)
    with qtbot.waitSignal(pane.answerShown, timeout=10000) as answered:
        dialog.send_once.click()
    answer = answered.args[0]
    assert answer.mode == "generated" and len(answer.citations) == 2
    cited = {(c.source_type, c.source_id) for c in answer.citations}
    with qtbot.waitSignal(pane.noteSaved, timeout=10000) as saved:
        pane.transcript.anchorClicked.emit(QUrl("save:0"))
    note_id = saved.args[0]
    with Library(data_dir) as lib:
        note = lib.get_note(note_id)
        links = {(lk.target_type, lk.target_id) for lk in lib.note_links(note_id).outgoing}
    assert note.title == QUESTION and "docker-compose.yml [1]" in note.body
    assert links == cited and ("note", ids["backup"]) in links


def test_hit_snippets_read_without_markdown_with_their_highlights() -> None:
    """The local hit list showed `Rc<T>`, **bold** and <span class="caption"> as typed."""
    from desktop_kb.ui.qa_pane import _snippet_html

    source = "前文。<span class=\"caption\">示例 15-19</span> **克隆** `Rc<T>` 会增加引用计数。"
    start = source.index("<span")
    snippet = source[start:]
    hit = source.index("引用计数")
    shown = _snippet_html({"snippet": snippet, "start": start, "highlights": [[hit, hit + 4]]})
    assert shown == ('示例 15-19 克隆 Rc&lt;T&gt; 会增加'
                     '<span style="background:#ffe08a;color:#111">引用计数</span>。')


def test_a_generated_answer_shows_its_markdown_as_code_and_bold_not_as_marks() -> None:
    """Models answer in Markdown: "`Rc<T>` … **总结**" was shown with its backticks and stars."""
    from desktop_kb.ui.qa_pane import answer_html

    shown = answer_html("`Rc<T>` 只能单线程 [1]。\n### 小结\n**总结**：用 `Arc<T>` [2]，`a**b` 不是粗体 [7]", "0:c", {1, 2})
    assert shown.startswith("<code>Rc&lt;T&gt;</code> 只能单线程 <a href=\"cite:0:c:1\"")
    assert "<br><b>小结</b><br><b>总结</b>：用 <code>Arc&lt;T&gt;</code> <a href=\"cite:0:c:2\"" in shown
    assert "<code>a**b</code> 不是粗体 [7]" in shown  # a marker that matches no snippet stays text


def test_sessions_saved_before_plain_titles_show_them_plain(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    """Citations store their titles; chats kept from before titles were shown plain still said
    "`Mutex<T>`的 API > 原子引用计数 `Arc<T>`" under every answer."""
    window = open_window(qtbot, data_dir)
    pane = window.qa_dock.pane
    cite = {"n": 1, "source_type": "fragment", "source_id": 1, "title": "`Mutex<T>`的 API > 原子引用计数 `Arc<T>`",
            "start": 0, "end": 4, "snippet": "原子引用计数", "highlights": []}
    pane.entries = [{"question": "Arc 是什么", "mode": "generated", "answer": "原子引用计数 [1]。",
                     "citations": [cite], "flags": []},
                    {"question": "Arc", "mode": "local", "reason": "cloud_off", "hits": [cite]}]
    pane._render()
    shown = pane.transcript.toPlainText()
    assert "Mutex<T>的 API > 原子引用计数 Arc<T>" in shown and "`" not in shown
    assert "`" not in pane.tooltip_html(cite)


def test_the_transcript_shows_the_end_of_the_newest_answer(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    """After an answer the pane stopped short of its end: the sources and "Save as note" of
    the newest answer were below the fold."""
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    window.qa_dock.raise_()
    pane = window.qa_dock.pane
    qtbot.waitUntil(pane.transcript.isVisible, timeout=5000)
    cite = {"n": 1, "source_type": "note", "source_id": 1, "title": "笔记", "start": 0, "end": 2,
            "snippet": "内容", "highlights": []}
    entry = {"question": "问题", "mode": "generated", "answer": "回答 [1]。\n" * 6, "citations": [cite], "flags": []}
    pane.entries = [dict(entry) for _ in range(8)]
    pane._render()
    bar = pane.transcript.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=5000)
    # The status line below grows to two or three lines once the answer is in (who answered,
    # what the gate did), and the transcript above it shrinks.
    pane.status.setText("由 127.0.0.1:8765 回答。\n已删除与任何片段都不对应的引用。\n内容闸门：发送 3 个。")
    before = bar.maximum()
    qtbot.waitUntil(lambda: bar.maximum() > before, timeout=5000)
    assert bar.value() == bar.maximum()
    bar.setValue(0)  # the person scrolls up to read: the view stays where they put it
    grown = bar.maximum()
    pane.status.setText("")
    # Looked at once the transcript has grown back (a fixed 50 ms could look before it had).
    qtbot.waitUntil(lambda: bar.maximum() < grown, timeout=5000)
    assert bar.value() == 0


def test_a_saved_answer_speaks_the_ui_language_and_quotes_plain_snippets(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    """In 简体中文 the saved note said "## Sources", and each source line carried its passage's
    Markdown flattened into it ("— ### 所有权规则 首先… - Rust 中的每一个值…")."""
    i18n.install_language("zh_CN")
    try:
        window = open_window(qtbot, data_dir, language_choice="zh_CN")
        pane = window.qa_dock.pane
        welcome = window.editor.note_id
        hit = {"n": 1, "source_type": "note", "source_id": welcome, "title": "`Rc<T>` 所有权",
               "start": 0, "end": 30, "snippet": "### 所有权规则\n\n- Rust 中的每一个值都有一个**所有者**。", "highlights": []}
        pane.entries = [{"question": "什么是所有权", "mode": "local", "reason": "cloud_off", "hits": [hit]}]
        with qtbot.waitSignal(pane.noteSaved, timeout=10000) as saved:
            pane.save_as_note(0)
        body = window.library.get_note(saved.args[0]).body
    finally:
        i18n.install_language("en")
    assert "## 来自资料库" in body
    assert "[1] **Rc<T> 所有权** — 所有权规则 Rust 中的每一个值都有一个所有者。" in body


def test_enter_in_the_preview_sends_nothing(qtbot, data_dir: Path, server) -> None:  # noqa: ANN001
    """'Send once' was the preview's default button: the Enter that asked, pressed once more
    (or an input method's commit key), sent the snippets without a look."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    _library(data_dir, server)
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    dialog = _ask(qtbot, pane)
    dialog.activateWindow()
    for widget in (dialog.focusWidget() or dialog, dialog.snippets, dialog.payload):
        qtbot.keyClick(widget, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert server.requests == [] and dialog.isVisible()
    assert not any(b.isDefault() for b in (dialog.send_once, dialog.send_session))
    dialog.cancel_button.click()


def test_a_provider_out_of_reach_is_said_in_the_window_language_with_what_to_do(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    # In 简体中文 the answer read "本地回答：无法连接 AI 服务商。(Could not reach 127.0.0.1:9:
    # [Errno 111] Connection refused.)": the system's English, and nothing on what to do.
    with Library(data_dir) as lib:
        lib.add_note("Docker 部署 GitLab", GITLAB)
        lib.set_setting("qa.cloud_enabled", True)
        lib.set_setting("qa.provider.base_url", "http://127.0.0.1:9/v1")  # nothing listens there
        lib.set_setting("qa.provider.model", "m")
        lib.drain()
    i18n.install_language("zh_CN")
    try:
        window = open_window(qtbot, data_dir, language_choice="zh_CN")
        window.qa_dock.show()
        pane = window.qa_dock.pane
        dialog = _ask(qtbot, pane)
        with qtbot.waitSignal(pane.answerShown, timeout=20000) as answered:
            dialog.send_once.click()
        assert answered.args[0].reason == "offline"
        shown = pane.transcript.toPlainText()
        assert "本地回答：无法连接 127.0.0.1:9。请检查网络" in shown and "GitLab" in shown  # the hits stay
        assert "Errno" not in shown and "Could not reach" not in shown
        assert "无法连接" not in pane.status.text()  # said once, in the answer
    finally:
        i18n.install_language("en")


def test_hits_stay_readable_in_the_dark_theme(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    # Dark theme: a hit's highlighted words were white on pale yellow (the span set only its
    # background), and after switching to Dark the [n] links and "Save as note" stayed dark blue.
    from desktop_kb.ui.appearance import dark_palette

    window = open_window(qtbot, data_dir)
    pane = window.qa_dock.pane
    hit = {"n": 1, "source_type": "note", "source_id": window.editor.note_id, "title": "GitLab",
           "start": 0, "end": 20, "snippet": "用 Docker 安装 GitLab", "highlights": [[2, 8]]}
    pane.entries = [{"question": "GitLab", "mode": "local", "reason": "cloud_off", "hits": [hit]}]
    pane._render()
    assert '<span style="background:#ffe08a;color:#111">Docker</span>' in pane._hits_html([hit], "0:h")

    def link_colours() -> set[str]:
        doc = pane.transcript.document()
        found: set[str] = set()
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fmt = it.fragment().charFormat()
                if fmt.isAnchor():
                    found.add(fmt.foreground().color().name())
                it += 1
            block = block.next()
        return found

    dark = dark_palette().color(dark_palette().ColorRole.Link).name()
    before = link_colours()
    try:
        window.appearance.set_theme("dark")  # View → Appearance → Dark
        qtbot.waitUntil(lambda: link_colours() == {dark}, timeout=5000)
        # Why the answer is local, and the secondary lines, read on the dark background too.
        shown = pane.transcript.toHtml()
        assert "#8a6d00" not in shown and "#e0c060" in shown
    finally:
        window.appearance.set_theme("system")
    assert before and before != {dark}


def test_a_hit_under_its_heading_does_not_say_the_heading_twice(qtbot, data_dir: Path, tmp_path: Path) -> None:  # noqa: ANN001
    """Asking about ownership, each hit of the Rust book read "什么是所有权？ > 所有权规则 —
    所有权规则 首先，…": its passage starts with the heading its title ends with. The search list
    said it twice too."""
    book = tmp_path / "book"
    book.mkdir()
    (book / "ch04.md").write_text("# 什么是所有权？\n\n## 所有权规则\n\n首先，让我们看一下所有权的规则。"
                                  "Rust 中的每一个值都有一个所有者。\n", encoding="utf-8")
    with Library(data_dir) as lib:
        lib.import_paths([book])
        lib.drain()
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    pane.question.setText("所有权规则")
    with qtbot.waitSignal(pane.answerShown, timeout=10000):
        pane.ask_button.click()
    shown = pane.transcript.toPlainText()
    assert "所有权规则 — 首先" in shown and "所有权规则 — 所有权规则" not in shown
    window.act_search.trigger()
    with qtbot.waitSignal(window.search.resultsShown, timeout=10000, check_params_cb=lambda n: n > 0):
        window.search.query.setText("所有权规则")
    label = window.search.list.itemWidget(window.search.list.item(0))
    assert re.sub("<[^>]+>", "", label.text()).count("所有权规则") == 1  # in the title, not again below it


def test_a_long_question_names_its_chat_whole_and_the_list_shows_where_it_is_cut(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    """A chat was named after the question's first 40 characters with no sign of the rest ("How
    do I share data between threads with"), and the chat list drew as much as fit, cut mid-word
    ("How do I share data bet"). The chat keeps the question (up to 80 characters, then "…"),
    and what does not fit in the list ends in "…", the whole title in its tooltip."""
    _library(data_dir, None)
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    question = "How do I share data between threads with Arc and Mutex safely?"
    pane.question.setText(question)
    with qtbot.waitSignal(pane.answerShown, timeout=10000):
        pane.ask_button.click()
    qtbot.waitUntil(lambda: pane.sessions.count() == 1, timeout=5000)
    assert pane.sessions.itemText(0) == question and pane.sessions.toolTip() == question
    pane.sessions.setFixedWidth(160)
    shown = pane.sessions.shown_text()
    assert shown.endswith("…") and question.startswith(shown[:-1])
    long_one = "为什么 " * 40 + "？"
    pane.new_session()
    pane.question.setText(long_one)
    with qtbot.waitSignal(pane.answerShown, timeout=10000):
        pane.ask_button.click()
    qtbot.waitUntil(lambda: pane.sessions.count() == 2, timeout=5000)
    titles = [pane.sessions.itemText(i) for i in range(2)]
    assert any(len(t) == 80 and t.endswith("…") for t in titles)


def test_a_saved_answer_does_not_repeat_the_heading_its_source_title_names(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    """The saved note's source line read "[1] **什么是所有权？ > 所有权规则** — 所有权规则 首先，…",
    like the hit list did: the passage opens with the heading its title ends with."""
    window = open_window(qtbot, data_dir)
    pane = window.qa_dock.pane
    hit = {"n": 1, "source_type": "note", "source_id": window.editor.note_id, "title": "什么是所有权？ > 所有权规则",
           "start": 0, "end": 40, "snippet": "### 所有权规则\n\n首先，让我们看一下所有权的规则。", "highlights": []}
    pane.entries = [{"question": "什么是所有权", "mode": "local", "reason": "cloud_off", "hits": [hit]}]
    with qtbot.waitSignal(pane.noteSaved, timeout=10000) as saved:
        pane.save_as_note(0)
    body = window.library.get_note(saved.args[0]).body
    assert "[1] **什么是所有权？ > 所有权规则** — 首先，让我们看一下所有权的规则。" in body


def test_a_chat_list_read_first_never_lands_over_a_later_one(qtbot, data_dir: Path,  # noqa: ANN001
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # Two lists of chats in flight (a question's new chat, then a rename): the one read first
    # landed last and the list showed the chat's old title until the next change.
    from PySide6.QtWidgets import QApplication

    _library(data_dir, None)
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    pane.question.setText(QUESTION)
    with qtbot.waitSignal(pane.answerShown, timeout=10000):
        pane.ask_button.click()
    qtbot.waitUntil(lambda: pane.sessions.count() == 1, timeout=5000)
    session = pane.session_id
    engine = pane.bridge.engine
    # The held list keeps one of the runner's two threads: the rename and its list need the
    # other, so it must not be busy with the window's start-up work (related material, tag
    # counts, status) still queued on a loaded machine — the wait below timed out behind it.
    assert window.runner.wait(60000)
    first = FirstCallHeld(engine.sessions)  # lands after the list asked for later
    monkeypatch.setattr(engine, "sessions", first)
    pane.bridge.load_sessions()
    assert first.called.wait(30)
    pane.bridge.rename_session(session, "部署问题")
    qtbot.waitUntil(lambda: pane.sessions.itemText(0) == "部署问题", timeout=10000)
    first.release.set()
    assert window.runner.wait(30000)
    QApplication.processEvents()  # the first list, queued as its task ended
    assert pane.sessions.itemText(0) == "部署问题"


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_why_an_answer_is_local_is_said_once(qtbot, data_dir: Path, language: str) -> None:  # noqa: ANN001
    # With cloud answering off the pane said "Local answer: cloud answering is off (Settings →
    # Features)." twice: in the answer and again on the line under it.
    _library(data_dir, None)
    i18n.install_language(language)
    try:
        window = open_window(qtbot, data_dir, language_choice=language)
        window.qa_dock.show()
        pane = window.qa_dock.pane
        for question in (QUESTION, "GitLab 备份放在哪里？"):
            pane.question.setText(question)
            with qtbot.waitSignal(pane.answerShown, timeout=10000) as answered:
                pane.ask_button.click()
            assert answered.args[0].reason == "cloud_off"
        reason = pane.reason_text("cloud_off")
        assert reason.startswith("本地回答" if language == "zh_CN" else "Local answer")
        shown = pane.transcript.toPlainText()
        assert shown.count(reason) == 2  # once per answer
        assert reason not in pane.status.text()
        assert "GitLab" in shown  # the hits are the answer
    finally:
        i18n.install_language("en")


def test_a_local_answer_is_shown_from_its_question_down(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    # With cloud answering off the view went to the end of the hit list: the person saw hit [8]
    # and neither the question, nor why the answer was local, nor the best hit.
    with Library(data_dir) as lib:
        for i in range(10):
            lib.add_note(f"GitLab 笔记 {i}", GITLAB + f" 第 {i} 次部署记录。" * 3)
        lib.drain()
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    window.resize(853, 480)
    pane = window.qa_dock.pane
    bar = pane.transcript.verticalScrollBar()
    for question in (QUESTION, "GitLab 备份命令是什么？"):
        pane.question.setText(question)
        with qtbot.waitSignal(pane.answerShown, timeout=10000) as answered:
            pane.ask_button.click()
        assert answered.args[0].reason == "cloud_off" and len(answered.args[0].hits) >= 5
        qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=5000)
        doc = pane.transcript.document()
        block = doc.begin()
        asked = None
        while block.isValid():
            if block.text().startswith("You:") and question in block.text():
                asked = block
            block = block.next()
        assert asked is not None
        top = doc.documentLayout().blockBoundingRect(asked).top()
        reason = asked.next()
        assert reason.text().startswith("Local answer")
        bottom = doc.documentLayout().blockBoundingRect(reason).bottom()
        qtbot.waitUntil(lambda top=top, bottom=bottom: bar.value() <= top
                        and bottom <= bar.value() + pane.transcript.viewport().height(), timeout=3000)
        assert bar.value() < bar.maximum()  # the hits go on below
    assert not pane.status.isVisible()  # no empty line under the transcript


DROP_NOTE = """# 为线程池实现 Drop

线程池离开作用域时要等待每个 worker 的线程结束：

```rust
impl Drop for ThreadPool {
    fn drop(&mut self) {
        for worker in &mut self.workers {
            println!("Shutting down worker {}", worker.id);
        }
    }
}
```
"""


def test_code_in_a_hit_keeps_its_lines(qtbot, data_dir: Path) -> None:  # noqa: ANN001
    # A hit or citation of code read "impl Drop for ThreadPool { fn drop(&mut self) { for worker
    # in &mut self.workers { …" as one line of prose, in the transcript and in its tooltip.
    with Library(data_dir) as lib:
        lib.add_note("线程池的 Drop", DROP_NOTE)
        lib.drain()
    window = open_window(qtbot, data_dir)
    window.qa_dock.show()
    pane = window.qa_dock.pane
    pane.question.setText("impl Drop for ThreadPool 里 drop 怎么写？")
    with qtbot.waitSignal(pane.answerShown, timeout=10000) as answered:
        pane.ask_button.click()
    assert answered.args[0].reason == "cloud_off"
    lines = [line.rstrip() for line in pane.transcript.toPlainText().splitlines()]
    assert "impl Drop for ThreadPool {" in [line.split("— ")[-1] for line in lines]
    # Indentation as written (non-breaking spaces in rich text).
    assert "        for worker in &mut self.workers {" in [line.replace("\xa0", " ") for line in lines]
    assert "    fn drop(&mut self) {" in [line.replace("\xa0", " ") for line in lines]
    record = pane.citation(QUrl("cite:0:h:1"))
    assert record is not None and "<br>" in pane.tooltip_html(record)


def test_snippet_code_keeps_its_lines_and_prose_flows() -> None:
    from desktop_kb.ui.snippet_html import marked_html

    # Prose paragraphs flow together; a fenced block keeps its lines; marks go from prose only.
    text = "先写 **测试**。\n\n然后运行：\n\n```rust\nlet mut x = 5;\n*y += 1;\n```\n\n完成。"
    shown = marked_html(text, 0, [], code_lines=True)
    assert shown.startswith("先写 测试。 然后运行：<br>")
    assert "let mut x = 5;<br>*y += 1;" in shown  # the deref star is code, not emphasis
    assert shown.endswith("<br>完成。")
    # A snippet cut from inside a fence: what comes before its closing fence is code.
    inside = "    }\n}\n```\n\n这样 drop 就会等待。"
    assert marked_html(inside, 0, [], code_lines=True).split("<br>")[:2] == [
        '<span style="font-family:monospace">&nbsp;&nbsp;&nbsp;&nbsp;}', "}</span>"]
    # A snippet with a highlight inside the code keeps it there.
    hit = marked_html("fn drop(&mut self) {\n    stop();\n}", 100, [(103, 107)], code_lines=True)
    assert '<span style="background:#ffe08a;color:#111">drop</span>' in hit
    # The search list's rows stay one line: no line structure unless asked for.
    assert "<br>" not in marked_html(text, 0, [])


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_question_hint_fits_a_narrow_pane_uncut(qtbot, data_dir: Path, language: str) -> None:  # noqa: ANN001
    # Ask the library docked beside the note at 1280×720 and 150 %: Qt cut the hint to
    # "Ask about your notes… …" (the Enter hint gone, two ellipses). A shorter wording is shown.
    from desktop_kb.ui.fitted_placeholder import room

    _library(data_dir, None)
    i18n.install_language(language)
    try:
        window = open_window(qtbot, data_dir)
        window.qa_dock.show()
        pane = window.qa_dock.pane
        field = pane.question
        metrics = field.fontMetrics()
        full = pane.tr("Ask about your notes… (Enter)")
        for width in (900, 330, 260):
            window.qa_dock.setFloating(True)
            window.qa_dock.resize(width, 500)
            qtbot.waitUntil(lambda w=width: abs(window.qa_dock.width() - w) < 40, timeout=3000)
            qtbot.wait(50)
            shown = field.placeholderText()
            assert metrics.horizontalAdvance(shown) <= room(field), (width, shown, room(field))
            if width == 900:
                assert shown == full  # with room, the whole hint
        assert field.placeholderText() != full or metrics.horizontalAdvance(full) <= room(field)
    finally:
        i18n.install_language("en")
