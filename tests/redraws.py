"""``pytest --redraw-in-waits``: every wait of a GUI test redraws the views a refresh may redraw.

The related panel, the search list, the library tree and the tag tree rebuild their rows
whenever new data arrives (an index event, an import, a change from outside), and a redraw
deletes the old rows' widgets and items. A test that reads a card, a label or an item, then
waits (``waitUntil``, ``waitSignal``, ``wait_index_idle``…), then uses it, works until a redraw
lands inside that wait: CI then reads "Internal C++ object already deleted" (853ff4d). This
option makes that redraw certain: at the start of each wait every such view is drawn again
from the data it shows, with its signals blocked (a redraw of the same data announces nothing
a test waits for), and what it dropped is deleted at once. A redraw keeps what the person
chose (the search list's row, the tree's folders and the tags chosen), as the app's own do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytestqt.qtbot as qtbot_module
import pytestqt.wait_signal as wait_signal

_last: dict[tuple[str, int], Any] = {}  # (view kind, id(view)) -> what it was last drawn from
_depth = [0]  # inside a wait already: its own polling waits redraw nothing more


def install() -> Callable[[], None]:
    """Redraw in every wait from now on; returns what puts things back as they were."""
    from desktop_kb.ui.library_tree import LibraryTree
    from desktop_kb.ui.search_popup import SearchPopup
    from desktop_kb.ui.tag_pane import TagPane

    undo = [_remember(SearchPopup, "_show", "search", lambda args: args),
            _remember(LibraryTree, "set_snapshot", "tree", lambda args: args[0]),
            _remember(TagPane, "set_tags", "tags", lambda args: args[0])]
    until, wait, signal_wait = (qtbot_module.QtBot.waitUntil, qtbot_module.QtBot.wait,
                                wait_signal._AbstractSignalBlocker.wait)

    def wait_until(self: Any, callback: Callable[[], bool | None], *, timeout: int = 5000) -> None:
        with _redrawn():
            until(self, callback, timeout=timeout)

    def wait_ms(self: Any, ms: int) -> None:
        with _redrawn():
            wait(self, ms)

    def wait_for_signal(self: Any) -> None:
        with _redrawn():
            signal_wait(self)

    qtbot_module.QtBot.waitUntil = wait_until  # type: ignore[method-assign]  # wait_until: bound per QtBot
    qtbot_module.QtBot.wait = wait_ms  # type: ignore[method-assign]
    wait_signal._AbstractSignalBlocker.wait = wait_for_signal  # type: ignore[method-assign]

    def uninstall() -> None:
        qtbot_module.QtBot.waitUntil = until  # type: ignore[method-assign]
        qtbot_module.QtBot.wait = wait  # type: ignore[method-assign]
        wait_signal._AbstractSignalBlocker.wait = signal_wait  # type: ignore[method-assign]
        for put_back in undo:
            put_back()
        _last.clear()

    return uninstall


def _remember(cls: type, name: str, kind: str, what: Callable[[tuple[Any, ...]], Any]) -> Callable[[], None]:
    draw = getattr(cls, name)

    def recorded(self: Any, *args: Any) -> Any:
        _last[(kind, id(self))] = what(args)
        return draw(self, *args)

    setattr(cls, name, recorded)
    return lambda: setattr(cls, name, draw)


@contextmanager
def _redrawn() -> Iterator[None]:
    if _depth[0] == 0:
        redraw_all()
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1


def redraw_all() -> None:
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    from desktop_kb.ui.library_tree import LibraryTree
    from desktop_kb.ui.related_panel import RelatedPanel
    from desktop_kb.ui.search_popup import SearchPopup
    from desktop_kb.ui.tag_pane import TagPane

    app = QApplication.instance()
    if app is None:
        return
    for top in QApplication.topLevelWidgets():
        for kind, draw in ((RelatedPanel, _related), (SearchPopup, _search), (LibraryTree, _tree),
                           (TagPane, _tags)):
            try:
                views = [top, *top.findChildren(kind)] if isinstance(top, kind) else top.findChildren(kind)
            except RuntimeError:  # deleted while the loop ran
                continue
            for view in views:
                with _quiet(view):
                    draw(view)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@contextmanager
def _quiet(view: Any) -> Iterator[None]:
    blocked = view.blockSignals(True)
    try:
        yield
    finally:
        view.blockSignals(blocked)


def _related(panel: Any) -> None:
    view = panel.view
    if view is None or panel.rendering or view.note_id != panel.controller.note_id:
        return
    panel.show_view(view)
    while panel.rendering:  # all of it now: a redraw still under way is not what a test waits on
        panel._render_step()
    panel._render_timer.stop()


def _search(popup: Any) -> None:
    last = _last.get(("search", id(popup)))
    if last is None or last[0] != popup.generation:
        return
    row = popup.list.currentRow()
    popup._show(*last)
    popup.list.setCurrentRow(row)


def _tree(tree: Any) -> None:
    snapshot = _last.get(("tree", id(tree)))
    if snapshot is None:
        return
    # As the window reloads it (the open document stays chosen), or the bare tree.
    documents = getattr(tree.window(), "documents", None)
    getattr(documents, "_tree_loaded", tree.set_snapshot)(snapshot)


def _tags(pane: Any) -> None:
    tags = _last.get(("tags", id(pane)))
    if tags is not None:
        pane.set_tags(tags)
