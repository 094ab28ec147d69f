"""Related panel: copies of a passage shown once, dismissals covering every copy, near-duplicate hints.

The library is imported from real files the way people collect material: the
same chapter saved twice, a lightly edited copy, files that only share a
boilerplate header, notes written from one template.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from desktop_kb.discovery.near_duplicates import Shingles, overlap, same_passage
from desktop_kb.discovery.panel import related_material
from desktop_kb.discovery.related import same_in_meaning
from desktop_kb.library import Library
from desktop_kb.retrieval.calibration import Calibration

CHAPTER = """# 所有权

所有权是 Rust 最独特的功能，它让 Rust 无需垃圾回收器即可保证内存安全。
Rust 中的每一个值都有一个被称为其所有者的变量。值在任一时刻有且只有一个所有者。
当所有者离开作用域，这个值将被丢弃。借用让函数使用值而不获取其所有权。
"""

HEADER = """Copyright (c) 2024 The Study Group. Licensed under the MIT licence; see LICENSE for details.
This file is part of the shared course material and may be redistributed with attribution.
"""


@pytest.fixture
def lib(data_dir: Path, tmp_path: Path) -> Iterator[Library]:
    library = Library(data_dir)
    if library.startup_rebuild is not None:
        library.startup_rebuild.result()
    try:
        yield library
    finally:
        library.close()


def _import(lib: Library, root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    lib.import_paths([root])
    lib.drain()


def _titles(view) -> list[list[str]]:
    return [[s.title for s in g.members] for g in view.groups]


def test_copies_of_one_passage_are_one_suggestion_and_one_dismissal(lib: Library, tmp_path: Path) -> None:
    _import(lib, tmp_path / "a", {"课程/所有权.md": CHAPTER, "备份/所有权副本.md": CHAPTER,
                                  "旧版/所有权.md": CHAPTER.replace("最独特", "最为独特")})
    note = lib.add_note("读书笔记", "Rust 的所有权：每个值有一个所有者，离开作用域时值被丢弃，借用不获取所有权。")
    lib.drain()
    view = lib.related_material(note)
    assert len(view.groups) == 1
    assert len(view.groups[0].members) == 3  # the edited copy too
    lib.dismiss_many(note, view.groups[0].keys)
    assert lib.related_material(note).groups == []
    # A fourth copy imported after the dismissal is the same passage: still not suggested.
    _import(lib, tmp_path / "b", {"新下载/ownership.md": CHAPTER})
    later = lib.related_material(note)
    assert later.groups == [] and later.hidden_as_dismissed == 1


def test_shared_boilerplate_does_not_make_files_copies(lib: Library, tmp_path: Path) -> None:
    _import(lib, tmp_path / "c", {
        "docker.md": HEADER + "\n用 Docker 安装 GitLab：先写 docker-compose.yml，再 docker compose up -d 启动容器。\n",
        "backup.md": HEADER + "\nGitLab 备份：gitlab-backup create 生成备份，恢复时停止 puma 与 sidekiq 服务。\n",
    })
    note = lib.add_note("GitLab 运维", "GitLab 用 Docker 安装，gitlab-backup create 备份。")
    lib.drain()
    view = lib.related_material(note)
    assert all(len(g.members) == 1 for g in view.groups)
    assert view.near_duplicates == []


def test_a_note_copied_from_a_passage_gets_a_hint_never_a_merge(lib: Library, tmp_path: Path) -> None:
    _import(lib, tmp_path / "d", {"所有权.md": CHAPTER, "副本/所有权.md": CHAPTER})  # one hint, not two
    copied = lib.add_note("所有权（摘抄）", CHAPTER.split("\n", 2)[2] + "\n我的理解：所有权在编译期检查。")
    own = lib.add_note("所有权（我的话）", "我理解的所有权：一个值同一时间只归一个变量管，变量没了值就释放。Rust 靠这个不需要 GC。")
    lib.drain()
    hints = lib.related_material(copied).near_duplicates
    assert [h.target_type for h in hints] == ["fragment"]
    assert hints[0].overlap >= 0.6
    assert lib.related_material(own).near_duplicates == []  # same topic, own words: no hint
    assert lib.get_note(copied).body.endswith("编译期检查。")  # nothing merged or changed


# USE's calibration on the Chinese Rust book: a sentence and its own passage sit at 0.41.
RUST_BOOK_USE = Calibration(unrelated=0.15427, spread=0.099, related=0.40858)


def test_a_passage_on_the_same_topic_is_not_the_same_in_meaning(lib: Library, tmp_path: Path) -> None:
    # The welcome note and "Hello, World!" in the Rust book: cosine 0.46, closeness 100 %
    # (it stops at a sentence-and-its-passage), and the panel called them "nearly the same".
    assert RUST_BOOK_USE.closeness(0.461) == 1.0
    assert not same_in_meaning(0.461, RUST_BOOK_USE)
    assert same_in_meaning(0.95, RUST_BOOK_USE)  # a rewording of the same text
    assert not same_in_meaning(0.85, None) and same_in_meaning(0.93, None)  # no calibration: raw cosine

    _import(lib, tmp_path / "e", {"所有权.md": CHAPTER})
    note = lib.add_note("所有权（我的话）", "我理解的所有权：一个值同一时间只归一个变量管，所有者离开作用域值就被丢弃。")
    lib.drain()
    scored = lib.related(note, limit=24)
    assert scored.suggestions  # the chapter shares the note's words
    scored.suggestions = [replace(s, similarity=0.461, closeness=RUST_BOOK_USE.closeness(0.461),
                                  same_meaning=same_in_meaning(0.461, RUST_BOOK_USE))
                          for s in scored.suggestions]
    assert related_material(lib.store_reader, scored, 8).near_duplicates == []
    scored.suggestions = [replace(s, similarity=0.95, same_meaning=same_in_meaning(0.95, RUST_BOOK_USE))
                          for s in scored.suggestions]
    (hint,) = related_material(lib.store_reader, scored, 8).near_duplicates
    assert hint.same_meaning and hint.overlap < 0.6


def test_notes_from_one_template_are_not_duplicates(lib: Library) -> None:
    template = "## 目标\n{0}\n## 步骤\n1. {1}\n2. {2}\n## 参考\n- 官方文档\n- 课程笔记\n"
    a = lib.add_note("周一", template.format("学会 Docker 网络", "创建 bridge 网络", "容器互相 ping"))
    lib.add_note("周二", template.format("学会 Rust 借用", "写一个借用示例", "读编译器报错"))
    lib.drain()
    assert lib.related_material(a).near_duplicates == []


def test_short_identical_notes_are_not_worth_a_hint() -> None:
    assert overlap(Shingles.of("TODO 明天"), Shingles.of("TODO 明天")) == 0.0
    assert not same_passage(Shingles.of("见上"), Shingles.of("见上"))


def test_markup_and_spacing_do_not_hide_a_copy() -> None:
    plain = "Ownership is Rust's most unique feature, and it enables memory safety without a garbage collector."
    marked = "**Ownership** is Rust’s *most unique* feature,\nand it enables `memory safety` without a garbage collector!"
    assert same_passage(Shingles.of(plain), Shingles.of(marked))


def test_the_shown_percentage_keeps_room_above_passages_on_one_topic() -> None:
    """Closeness stops at a sentence and its own passage, so the panel read "100 %" for the
    welcome note beside "Hello, World!" and for nearly every card; the shown likeness is
    100 % only for the same text."""
    assert RUST_BOOK_USE.closeness(0.461) == RUST_BOOK_USE.closeness(0.8) == 1.0
    assert round(RUST_BOOK_USE.likeness(0.461) * 100) == 36
    assert RUST_BOOK_USE.likeness(0.461) < RUST_BOOK_USE.likeness(0.8) < RUST_BOOK_USE.likeness(1.0) == 1.0
    assert RUST_BOOK_USE.likeness(0.1) == 0.0
    # A rewording, the least the panel calls "nearly the same", reads about two thirds.
    threshold = RUST_BOOK_USE.related + 0.5 * (1 - RUST_BOOK_USE.related)
    assert same_in_meaning(threshold + 1e-9, RUST_BOOK_USE)
    assert 0.6 < RUST_BOOK_USE.likeness(threshold) < 0.7
