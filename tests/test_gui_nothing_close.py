"""The search popup says "nothing close" when meaning search found nothing near, in both languages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_gui_support import gui_marks

from desktop_kb.retrieval.results import SearchResponse
from desktop_kb.retrieval.search import NOTHING_NOTICE
from desktop_kb.tasks.library_tasks import TaskRunner
from desktop_kb.ui import i18n
from desktop_kb.ui.search_popup import SearchPopup

pytestmark = gui_marks()


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.install_language("en")


@pytest.mark.parametrize(("language", "nothing", "no_results"), [
    ("en", "Nothing in the library is close to this.", "No results."),
    ("zh_CN", "资料库里没有与此相近的内容。", "没有结果。"),
])
def test_nothing_close_is_not_a_bare_no_results(qtbot, language: str, nothing: str, no_results: str) -> None:
    i18n.install_language(language)
    runner = TaskRunner()
    popup = SearchPopup(runner)
    qtbot.addWidget(popup)
    responses = {"周末去哪里钓鱼": SearchResponse(query="周末去哪里钓鱼", mode="hybrid", notice=NOTHING_NOTICE),
                 "zzqx": SearchResponse(query="zzqx", mode="lexical")}
    popup.set_search(lambda text: responses[text])
    for query, expected in (("周末去哪里钓鱼", nothing), ("zzqx", no_results)):
        with qtbot.waitSignal(popup.resultsShown, timeout=10000):
            popup.query.setText(query)
        assert popup.state.text() == expected
