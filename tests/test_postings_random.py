"""Random change sequences never leave a stored posting that disagrees with FTS5.

The stored postings (``kb_post``) are a cache of FTS5 that keyword search trusts
whenever an entry exists. A stale entry was found once by an unrelated GUI test
(a rebuild's new row ids), so this runs the change paths a person takes, in
random order, through ``Library`` — notes added, edited, trashed, restored and
deleted, a folder imported and re-imported, a rebuild, a second process saving,
the idle writer filling entries in between — and after every step checks that
keyword search's rows and scores equal the unsplit FTS5 ``bm25()`` query.
"""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_postings import _QUERIES, _WORDS, _same, _stored_path, _unsplit

from desktop_kb.index import postings
from desktop_kb.library import Library
from desktop_kb.retrieval import lexical

_COUNTER = itertools.count()
_text = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=25).map(" ".join)
_step = st.one_of(
    st.tuples(st.just("add"), _text, _text),
    st.tuples(st.just("edit"), st.integers(0, 30), _text),
    st.tuples(st.just("trash"), st.integers(0, 30)),
    st.tuples(st.just("restore"), st.integers(0, 30)),
    st.tuples(st.just("delete"), st.integers(0, 30)),
    st.tuples(st.just("import"), _text, _text),
    st.tuples(st.just("rebuild")),
    st.tuples(st.just("second"), _text),
    st.tuples(st.just("fill"), st.integers(1, 200)),
)


def _fill_some(lib: Library, instances: int | None) -> None:
    """What the idle writer does (every word here, not only common ones): all, or a slice."""
    def fill(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT OR IGNORE INTO kb_post_todo(term) SELECT term FROM kb_df")
        if instances is None:
            while postings.refresh(conn, instances=50):
                pass
        else:
            postings.refresh(conn, instances=instances)
        conn.execute("COMMIT")
    lib.worker.call(fill).result()


def _check(lib: Library) -> int:
    """Compare every query; returns how many read at least one stored entry."""
    assert lib.drain(60)

    def compare(index: sqlite3.Connection) -> int:
        used = 0
        for query in _QUERIES:
            stored, entries = _stored_path(index, query)
            _same(stored, _unsplit(index, query))
            used += entries > 0
        return used
    return int(lib.worker.call(compare).result())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_step, min_size=3, max_size=9))
def test_random_changes_keep_stored_postings_exact(steps: list[tuple], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexical, "MIN_DF", 1)  # every word is scored from kb_post when it has an entry
    root = tmp_path / f"case{next(_COUNTER)}"
    folder = root / "files"
    folder.mkdir(parents=True)
    with Library(root / "library", load_model=False) as lib:
        notes = [lib.add_note(f"n{i}", " ".join(_WORDS[i::4]) * 3) for i in range(4)]
        lib.drain(60)
        _fill_some(lib, None)
        assert _check(lib) >= len(_QUERIES) - 1  # the entries are there and read (one query's words are absent)
        for step in steps:
            kind = step[0]
            if kind == "add":
                notes.append(lib.add_note(step[1][:40], step[2]))
            elif kind == "edit" and notes:
                lib.save_note(notes[step[1] % len(notes)], body=step[2])
            elif kind == "trash" and notes:
                lib.trash_note(notes[step[1] % len(notes)])
            elif kind == "restore" and notes:
                lib.restore_note(notes[step[1] % len(notes)])
            elif kind == "delete" and notes:
                lib.delete_note(notes.pop(step[1] % len(notes)))
            elif kind == "import":
                (folder / "a.md").write_text(f"# {step[1][:30]}\n\n{step[2]}\n", encoding="utf-8")
                (folder / "b.md").write_text(f"{step[2]}\n\n{step[1]}\n", encoding="utf-8")
                lib.import_paths([folder])
            elif kind == "rebuild":
                lib.rebuild()
            elif kind == "second":
                with Library(root / "library", load_model=False) as other:  # another process's save
                    other.add_note("from the other process", step[1])
            elif kind == "fill":
                _fill_some(lib, step[1])
            _check(lib)
