"""Documents found by their title or file name lead the results, marked like any other hit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_kb.library import Library

OWNERSHIP = """# 认识所有权

所有权（系统）是 Rust 最为与众不同的特性，它让 Rust 无需垃圾回收器即可保证内存安全。
"""
COMPOSE = "# Compose\n\nservices:\n  web:\n    image: nginx\n"


@pytest.fixture
def lib(data_dir: Path, tmp_path: Path) -> Iterator[Library]:
    library = Library(data_dir, load_model=False)
    if library.startup_rebuild is not None:
        library.startup_rebuild.result()
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ch04-01.md").write_text(OWNERSHIP, encoding="utf-8")
    (docs / "docker-compose.md").write_text(COMPOSE, encoding="utf-8")
    library.import_paths([docs])
    library.drain()
    try:
        yield library
    finally:
        library.close()


def test_a_document_found_by_its_title_shows_why(lib: Library, tmp_path: Path) -> None:
    # "所有权" found 认识所有权 by its title first, with an unmarked snippet, no path and no
    # score: the one result the person came for looked unexplained in the popup.
    first = lib.search("所有权").results[0]
    assert first.title == "认识所有权"
    marked = [first.snippet[a - first.start:b - first.start] for a, b in first.highlights]
    assert marked and set(marked) == {"所有权"}
    assert first.path == str(tmp_path / "docs" / "ch04-01.md")


def test_a_file_name_finds_its_document_and_marks_words_of_it(lib: Library, tmp_path: Path) -> None:
    first = lib.search("Docker-Compose").results[0]
    assert first.path == str(tmp_path / "docs" / "docker-compose.md")
    assert first.highlights == []  # the name is not in its text: nothing to mark, nothing made up
    compose = lib.search("compose").results[0]
    assert [compose.snippet[a:b] for a, b in compose.highlights] == ["Compose"]
