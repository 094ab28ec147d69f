"""The search popup says "nothing close" when meaning search found nothing near, in both languages,
where the results would be, and goes back to the list when results come."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_gui_support import gui_marks

from desktop_kb.retrieval.results import WEAK_NOTICE, SearchResponse, SearchResult
from desktop_kb.retrieval.search import NOTHING_NOTICE
from desktop_kb.tasks.library_tasks import TaskRunner
from desktop_kb.ui import i18n
from desktop_kb.ui.search_popup import SearchPopup

pytestmark = gui_marks()


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.install_language("en")


@pytest.mark.parametrize(("language", "nothing", "no_results", "close"), [
    ("en", "Nothing in the library is close to this.", "No results.", "Esc to close"),
    ("zh_CN", "资料库里没有与此相近的内容。", "没有结果。", "Esc 关闭"),
])
def test_nothing_close_is_not_a_bare_no_results(qtbot, language: str, nothing: str, no_results: str,
                                                close: str) -> None:
    i18n.install_language(language)
    runner = TaskRunner()
    popup = SearchPopup(runner)
    qtbot.addWidget(popup)
    hit = SearchResult(rank=1, source_type="note", source_id=1, title="钓鱼笔记", snippet="周末钓鱼",
                       highlights=[(2, 4)], start=0, end=4, score=1.0, chunk_id=1, chunk_start=0, chunk_end=4)
    responses = {"周末去哪里钓鱼": SearchResponse(query="周末去哪里钓鱼", mode="hybrid", notice=NOTHING_NOTICE),
                 "zzqx": SearchResponse(query="zzqx", mode="lexical"),
                 "钓鱼": SearchResponse(query="钓鱼", mode="hybrid", results=[hit])}
    popup.set_search(lambda text: responses[text])
    shown = []
    for query, headline in (("周末去哪里钓鱼", nothing), ("zzqx", no_results)):
        with qtbot.waitSignal(popup.resultsShown, timeout=10000):
            popup.query.setText(query)
        # The reason stands where the results would be, not only in the small status line.
        assert popup.pages.currentWidget() is popup.empty
        assert headline in popup.empty.text() and popup.empty.accessibleName() == headline
        assert popup.state.text() == close
        shown.append(popup.empty.text())
    assert shown[0] != shown[1]  # "nothing close" does not read like a keyword miss
    with qtbot.waitSignal(popup.resultsShown, timeout=10000):
        popup.query.setText("钓鱼")
    assert popup.pages.currentWidget() is popup.list and popup.list.count() == 1


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Searched in the library's words: 线程之间"),
    ("zh_CN", "已按资料库的用词搜索：线程之间"),
])
def test_the_popup_says_when_the_library_words_were_searched(qtbot, language: str, said: str) -> None:
    i18n.install_language(language)
    popup = SearchPopup(TaskRunner())
    qtbot.addWidget(popup)
    hit = SearchResult(rank=1, source_type="note", source_id=1, title="并发", snippet="线程之间",
                       highlights=[(0, 2)], start=0, end=4, score=1.0, chunk_id=1, chunk_start=0, chunk_end=4)
    responses = {"執行緒之間": SearchResponse(query="執行緒之間", mode="lexical", results=[hit],
                                            searched_as="线程之间"),
                 "线程之间": SearchResponse(query="线程之间", mode="lexical", results=[hit])}
    popup.set_search(lambda text: responses[text])
    with qtbot.waitSignal(popup.resultsShown, timeout=10000):
        popup.query.setText("執行緒之間")
    assert popup.state.text() == said
    with qtbot.waitSignal(popup.resultsShown, timeout=10000):
        popup.query.setText("线程之间")
    assert "线程之间" not in popup.state.text()


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Only some of these words are in the library."),
    ("zh_CN", "资料库里只有这些词中的一部分。"),
])
def test_weak_keyword_matches_are_listed_under_a_notice(qtbot, language: str, said: str) -> None:
    """Keyword search that holds only some of the question's words lists those passages (it
    showed an empty "nothing close" page), and says above them, in the UI language, what they are."""
    i18n.install_language(language)
    popup = SearchPopup(TaskRunner())
    qtbot.addWidget(popup)
    popup.show()
    hit = SearchResult(rank=1, source_type="note", source_id=1, title="Weak 引用", snippet="子节点指向父节点",
                       highlights=[(0, 3)], start=0, end=8, score=1.0, chunk_id=1, chunk_start=0, chunk_end=8)
    weak_query = "做一棵树，下面的节点要能找到上一级"
    responses = {weak_query: SearchResponse(query=weak_query, mode="lexical", results=[hit],
                                            notice=WEAK_NOTICE, weak_matches=True),
                 "父节点": SearchResponse(query="父节点", mode="lexical", results=[hit])}
    popup.set_search(lambda text: responses[text])
    with qtbot.waitSignal(popup.resultsShown, timeout=10000):
        popup.query.setText(weak_query)
    assert popup.pages.currentWidget() is popup.list and popup.list.count() == 1
    assert popup.weak.isVisible() and said in popup.weak.text() and popup.weak.accessibleName() == said
    assert WEAK_NOTICE not in popup.state.text()  # the core's English notice is not shown raw
    with qtbot.waitSignal(popup.resultsShown, timeout=10000):
        popup.query.setText("父节点")
    assert not popup.weak.isVisible() and popup.list.count() == 1


def test_weak_matches_with_a_model_do_not_offer_to_install_one(qtbot) -> None:
    i18n.install_language("zh_CN")
    popup = SearchPopup(TaskRunner())
    qtbot.addWidget(popup)
    popup.show()
    hit = SearchResult(rank=1, source_type="note", source_id=1, title="Tom", snippet="我家的猫叫 Tom",
                       highlights=[(6, 9)], start=0, end=9, score=1.0, chunk_id=1, chunk_start=0, chunk_end=9)
    responses = {mode: SearchResponse(query=mode, mode=mode, results=[hit], notice=WEAK_NOTICE,
                                      weak_matches=True) for mode in ("hybrid", "lexical")}
    popup.set_search(lambda text: responses[text])
    with qtbot.waitSignal(popup.resultsShown, timeout=10000):
        popup.query.setText("hybrid")
    assert "意思上也没有相近的" in popup.weak.text() and "嵌入模型" not in popup.weak.text()
    with qtbot.waitSignal(popup.resultsShown, timeout=10000):
        popup.query.setText("lexical")
    assert "嵌入模型" in popup.weak.text()
