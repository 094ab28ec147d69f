"""Related material: the chapter about what a note is about before a later chapter that uses it
in passing, and words named only as whole words.

On the Rust book the learner's note on channels ("mpsc 通道在线程之间发消息") was offered the web
server chapter's thread pool first (it sends jobs down a channel) and the chapter on channels
second; an English note "Ownership rules" was offered the macros chapter first, its heading
"使用 macro_rules! 的声明宏" read as naming "rules".
"""

from __future__ import annotations

from pathlib import Path

from desktop_kb.discovery.related import Aboutness, document_support
from desktop_kb.library import Library


def _fragments(tmp_path: Path) -> dict[str, list[int]]:
    docs = tmp_path / "book"
    docs.mkdir()
    (docs / "ch16-02.md").write_text("# 通道\n\n## 创建通道\n\n甲。\n\n## 发送多个值\n\n乙。\n\n## 克隆发送者\n\n丙。\n",
                                     encoding="utf-8")
    (docs / "ch20-02.md").write_text("# 线程池\n\n## 使用通道发送任务\n\n丁。\n", encoding="utf-8")
    with Library(tmp_path / "lib", load_model=False) as lib:
        lib.import_paths([docs])
        rows = lib.store_reader.execute(
            "SELECT d.path, f.id FROM fragments f JOIN documents d ON d.id = f.document_id ORDER BY f.id").fetchall()
    found: dict[str, list[int]] = {}
    for path, fid in rows:
        found.setdefault(Path(path).stem, []).append(fid)
    return found


def test_a_chapter_that_meets_the_note_in_many_passages_goes_before_one_passage_elsewhere(tmp_path: Path) -> None:
    frags = _fragments(tmp_path)
    channels, pool = frags["ch16-02"], frags["ch20-02"]
    assert len(channels) >= 3 and pool
    # The pool's one passage scores highest alone; the chapter on channels meets the note in
    # three passages a little lower.
    best = {("fragment", pool[-1]): (1.0, 1)}
    best |= {("fragment", fid): (0.9, 10 + i) for i, fid in enumerate(channels[-3:])}
    best[("note", 7)] = (0.95, 99)
    with Library(tmp_path / "lib", load_model=False) as lib:
        assert document_support(lib.store_reader, best, 0.0) == {}  # off: each its own score
        support = document_support(lib.store_reader, best, 0.25)
    first = max(support, key=lambda key: support[key])
    assert first in {("fragment", fid) for fid in channels}
    assert support[("fragment", pool[-1])] < 1.0  # one passage alone speaks for a third of its document
    assert ("note", 7) not in support  # a note keeps its own score


def test_a_latin_word_is_named_only_as_a_whole_word() -> None:
    heading = Aboutness.of("宏 > 使用 macro_rules! 的声明宏", "## Mutex<T>的 API\n\n## Cargo.lock 文件\n\n## tests 目录\n")
    for part in ("rules", "mut", "lock", "test", "macro"):
        assert not heading.names(part), part
    for whole in ("macro_rules", "api", "tests", "cargo.lock", "宏", "声明"):
        assert heading.names(whole), whole
    assert Aboutness.of("什么是所有权？ Ownership", "").names("ownership")
    assert Aboutness.of("下雨天", "").names("下雨")  # Chinese words inside longer ones still count
