"""``pytest --redraw-in-waits`` (tests/redraws.py) makes a redraw inside a wait certain: a test
that holds a widget across a wait fails at once, as it would in CI only when a redraw landed
there (853ff4d), and a test that reads its widgets after the wait passes."""

from __future__ import annotations

import pytest
import redraws
from test_gui_support import gui_marks

from desktop_kb.retrieval.results import SearchResponse, SearchResult
from desktop_kb.tasks.library_tasks import TaskRunner
from desktop_kb.ui.search_popup import SearchPopup

pytestmark = gui_marks()


def test_a_hit_held_across_a_wait_is_deleted_and_one_read_after_it_is_whole(qtbot) -> None:  # noqa: ANN001
    popup = SearchPopup(TaskRunner())
    qtbot.addWidget(popup)
    hit = SearchResult(rank=1, source_type="note", source_id=1, title="所有权", snippet="每个值都有一个所有者",
                       highlights=[], start=0, end=10, score=1.0, chunk_id=1, chunk_start=0, chunk_end=10)
    popup.set_search(lambda text: SearchResponse(query=text, mode="lexical", results=[hit]))
    uninstall = redraws.install()
    try:
        with qtbot.waitSignal(popup.resultsShown, timeout=10000):
            popup.query.setText("所有者")
        held = popup.list.itemWidget(popup.list.item(0))
        assert "所有者" in held.text()
        qtbot.waitUntil(lambda: popup.list.count() == 1, timeout=5000)
        with pytest.raises(RuntimeError, match="already deleted"):
            held.text()
        read_after = popup.list.itemWidget(popup.list.item(0))
        assert "所有者" in read_after.text() and popup.list.currentRow() == 0
    finally:
        uninstall()
    qtbot.waitUntil(lambda: popup.list.count() == 1, timeout=5000)  # no redraw once uninstalled
    assert "所有者" in read_after.text()
