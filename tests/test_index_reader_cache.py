"""A searching thread's index connection keeps a question's pages (index/db.SEARCH_CACHE_KIB)."""

from __future__ import annotations

import threading

from desktop_kb.index.db import SEARCH_CACHE_KIB


def test_each_searching_threads_index_reader_has_the_search_page_cache(library) -> None:  # type: ignore[no-untyped-def]
    library.add_note("借用", "借用检查器在编译时检查引用。")
    library.drain()
    sizes = [library.index_reader.execute("PRAGMA cache_size").fetchone()[0]]

    def other_thread() -> None:  # the QA worker searches on a thread of its own
        sizes.append(library.index_reader.execute("PRAGMA cache_size").fetchone()[0])

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert sizes == [-SEARCH_CACHE_KIB, -SEARCH_CACHE_KIB]
    assert library.search("借用", mode="lexical").results  # and it searches as before
