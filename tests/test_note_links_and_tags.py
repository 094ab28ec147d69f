"""Typed [[links]] and #tags kept in step with the note's text, in the same transaction.

Real SQLite files; every case edits text the way a person would and checks what
the links, backlinks and tag tables say afterwards.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from desktop_kb.store import links, markup_sync, notes, open_store
from desktop_kb.store.tags import notes_with_tags, tag_counts


@pytest.fixture
def store(tmp_path: Path) -> sqlite3.Connection:
    conn = open_store(tmp_path / "library.sqlite")
    yield conn
    conn.close()


def _targets(store: sqlite3.Connection, note_id: int) -> dict[int, str]:
    return {link.target_id: link.origin for link in links.outgoing_links(store, note_id)}


def test_typing_a_link_stores_it_and_deleting_the_text_removes_it(store: sqlite3.Connection) -> None:
    docker = notes.create_note(store, "Docker 安装", "步骤")
    gitlab = notes.create_note(store, "GitLab", "先看 [[docker 安装]] 再说")
    assert _targets(store, gitlab) == {docker: "wiki"}
    assert [b.note_id for b in links.backlinks(store, "note", docker)] == [gitlab]
    notes.update_note(store, gitlab, body="先看 `[[docker 安装]]` 再说")  # now code, not a link
    assert _targets(store, gitlab) == {}


def test_a_link_to_a_missing_note_resolves_when_the_note_is_created(store: sqlite3.Connection) -> None:
    source = notes.create_note(store, "读书笔记", "见 [[所有权]] 和 [[Borrowing|借用]]")
    assert _targets(store, source) == {}
    owner = notes.create_note(store, "所有权", "")
    assert _targets(store, source) == {owner: "wiki"}
    untitled = notes.create_note(store, "", "")
    notes.update_note(store, untitled, title="borrowing")  # a rename resolves it too
    assert _targets(store, source) == {owner: "wiki", untitled: "wiki"}


def test_renaming_the_target_moves_links_with_the_title(store: sqlite3.Connection) -> None:
    old = notes.create_note(store, "Docker", "")
    source = notes.create_note(store, "s", "[[Docker]]")
    notes.update_note(store, old, title="Docker 安装")
    assert _targets(store, source) == {}  # the text still names "Docker", which is gone
    other = notes.create_note(store, "docker", "")
    assert _targets(store, source) == {other: "wiki"}


def test_trash_and_restore_and_delete_re_resolve(store: sqlite3.Connection) -> None:
    first = notes.create_note(store, "Same", "")
    second = notes.create_note(store, "same", "")
    source = notes.create_note(store, "s", "[[SAME]]")
    assert _targets(store, source) == {first: "wiki"}  # the oldest of two equal titles
    notes.set_trashed(store, first, True)
    assert _targets(store, source) == {second: "wiki"}
    notes.set_trashed(store, first, False)
    assert _targets(store, source) == {first: "wiki"}
    notes.delete_note(store, first)
    assert _targets(store, source) == {second: "wiki"}


def test_a_link_made_another_way_survives_removing_the_text(store: sqlite3.Connection) -> None:
    target = notes.create_note(store, "T", "")
    source = notes.create_note(store, "S", "")
    links.create_link(store, source, "note", target, origin="suggestion")
    notes.update_note(store, source, body="[[T]]")
    assert _targets(store, source) == {target: "suggestion"}  # same link twice: a no-op
    notes.update_note(store, source, body="")
    assert _targets(store, source) == {target: "suggestion"}


def test_self_links_and_headings_of_the_same_note_store_nothing(store: sqlite3.Connection) -> None:
    note = notes.create_note(store, "Me", "[[Me]] [[#Intro]]")
    assert _targets(store, note) == {}


def test_tags_follow_the_text_and_nest(store: sqlite3.Connection) -> None:
    a = notes.create_note(store, "a", "#学习/Rust 和 #Docker")
    b = notes.create_note(store, "b", "#docker #学习")
    notes.create_note(store, "c", "`#docker` C# #123")
    counts = {t.key: (t.label, t.notes) for t in tag_counts(store)}
    assert counts == {"docker": ("Docker", 2), "学习": ("学习", 2), "学习/rust": ("学习/Rust", 1)}
    assert notes_with_tags(store, ["学习"]) == {a, b}
    assert notes_with_tags(store, ["#学习/rust"]) == {a}
    assert notes_with_tags(store, ["docker", "学习/Rust"]) == {a}
    assert notes_with_tags(store, ["学"]) == set()  # a prefix of a tag is not the tag
    notes.update_note(store, a, body="no tags left")
    assert notes_with_tags(store, ["docker"]) == {b}
    notes.set_trashed(store, b, True)
    assert tag_counts(store) == []
    assert notes_with_tags(store, ["docker"], trashed=True) == {b}


def test_like_wildcards_in_tags_are_literal(store: sqlite3.Connection) -> None:
    notes.create_note(store, "a", "#a_b/c")
    notes.create_note(store, "b", "#axb/c")
    assert len(notes_with_tags(store, ["a_b"])) == 1


def test_upgrade_from_v2_derives_links_and_tags_for_existing_notes(tmp_path: Path) -> None:
    """A v2 library (links CHECK without 'wiki') is rebuilt in place; nothing is lost."""
    from desktop_kb.store.schema import MIGRATIONS

    path = tmp_path / "old.sqlite"
    raw = sqlite3.connect(path, isolation_level=None)
    for version in (1, 2):
        for statement in MIGRATIONS[version]:
            raw.execute(statement)
    raw.execute("PRAGMA user_version = 2")
    raw.execute("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES "
                "(1, 'Target', '', 0, 0), (2, 'Src', '[[target]] #tag', 0, 0), (3, 'Other', '', 0, 0)")
    raw.execute("INSERT INTO links(note_id, target_type, target_id, origin, created_at) "
                "VALUES (3, 'note', 1, 'suggestion', 0)")
    raw.close()
    conn = open_store(path)
    assert markup_sync.ensure_synced(conn) == 3
    assert markup_sync.ensure_synced(conn) == 0
    assert _targets(conn, 2) == {1: "wiki"}
    assert _targets(conn, 3) == {1: "suggestion"}
    assert notes_with_tags(conn, ["tag"]) == {2}
    notes.delete_note(conn, 1)  # the recreated triggers still clean up
    assert conn.execute("SELECT count(*) FROM links").fetchone()[0] == 0
    conn.close()


def test_library_tag_search_and_filtered_list(library) -> None:
    a = library.add_note("部署", "用 Docker 部署 GitLab #运维 #docker")
    b = library.add_note("备份", "GitLab 备份步骤 #运维/备份")
    c = library.add_note("GitLab 笔记", "GitLab 的一般介绍，没有标签")
    library.drain()
    hits = library.search("GitLab tag:运维")
    assert {r.source_id for r in hits.results} == {a, b}
    assert [r.rank for r in hits.results] == [1, 2]
    assert {r.source_id for r in library.search("gitlab").results} >= {a, b, c}
    only_tags = library.search("tag:运维/备份")
    assert [r.source_id for r in only_tags.results] == [b]
    assert library.search("tag：DOCKER").results[0].source_id == a  # full-width colon, any case
    assert library.search("tag:docker tag:运维/备份").results == []
    assert [n.id for n in library.list_notes(tags=["运维"])] == [b, a]
    assert [(t.label, t.notes) for t in library.tags()] == [("docker", 1), ("运维", 2), ("运维/备份", 1)]


def test_rename_offers_and_updates_links_in_other_notes(library) -> None:
    target = library.add_note("Docker", "")
    one = library.add_note("one", "见 [[Docker]] 和 [[docker#安装|装]]，`[[Docker]]` 不是链接")
    two = library.add_note("two", "[[Docker]]")
    assert library.resolve_title("docker") == target
    assert library.resolve_title("Docker#安装") == target
    assert {n.id for n in library.link_referrers("Docker", exclude=target)} == {one, two}
    library.save_note(target, title="Docker 安装")
    assert library.note_links(one).outgoing == []  # the text names a title that is gone
    assert library.retarget_links("Docker", "Docker 安装", [one, two]) == 3
    assert library.get_note(one).body == "见 [[Docker 安装]] 和 [[Docker 安装#安装|装]]，`[[Docker]]` 不是链接"
    assert [e.target_id for e in library.note_links(one).outgoing] == [target]
    assert sorted(e.target_id for e in library.note_links(target).backlinks) == [one, two]
    assert {e.origin for e in library.note_links(target).backlinks} == {"wiki"}


def test_documents_are_found_by_file_name_and_title(library, tmp_path: Path) -> None:
    folder = tmp_path / "material"
    folder.mkdir()
    (folder / "docker-compose-notes.md").write_text("# 容器编排\n\n服务、网络与卷的配置。\n", encoding="utf-8")
    (folder / "other.md").write_text("# 其他\n\n与此无关的内容。\n", encoding="utf-8")
    library.import_paths([folder])
    library.drain()
    hits = library.search("docker-compose-notes")
    assert hits.results and hits.results[0].title == "容器编排"
    assert hits.results[0].document_id is not None
    assert library.search("容器编排").results[0].title.startswith("容器编排")
    assert library.search("tag:x docker-compose-notes").results == []  # a tag filter keeps to notes


def test_markdown_markers_are_stripped_from_snippets_with_highlights_kept() -> None:
    from desktop_kb.markup.plain import strip_with_spans

    text = "## 步骤\n1. **先**备份 `gitlab-backup`，见 [[Docker 安装|安装]] 和 [文档](http://x.org)。"
    start = text.index("gitlab")
    plain, spans = strip_with_spans(text, [(start, start + len("gitlab-backup"))])
    assert plain == "步骤\n先备份 gitlab-backup，见 安装 和 文档。"
    assert [plain[a:b] for a, b in spans] == ["gitlab-backup"]
    assert strip_with_spans("snake_case and 2*3*4", [])[0] == "snake_case and 2*3*4"
    # Emphasis with one underscore (the Rust book's "（_multiple producer, single consumer_）"
    # read with its marks); a word's own underscores and a code span's stay.
    assert strip_with_spans("是 多个生产者（_multiple producer_）的缩写；文件名 _src/main.rs_", [])[0] == \
        "是 多个生产者（multiple producer）的缩写；文件名 src/main.rs"
    assert strip_with_spans("sent_messages, a_b_ c_ d, `_private_`", [])[0] == "sent_messages, a_b_ c_ d, _private_"
    plain, spans = strip_with_spans("（_multiple producer_）", [(2, 10)])
    assert [plain[a:b] for a, b in spans] == ["multiple"]
    # One Latin letter lit up is noise ("Rc<T>" lit every "T"); a one-character Chinese word is not.
    plain, spans = strip_with_spans("`Rc<T>` 的 T 与 锁", [(4, 5), (10, 11), (14, 15)])
    assert [plain[a:b] for a, b in spans] == ["锁"]


def test_snippets_lose_fences_html_tags_and_reference_links_but_code_stays_as_written() -> None:
    from desktop_kb.markup.plain import strip_with_spans

    # The Rust book: captions are HTML, fences name their language, links are by reference.
    text = ('<span class="caption">示例 15-19：打印出引用计数</span>\n\n输入：\n\n```console\n'
            '$ rustc main.rs\n```\n\n见 [“->” 运算符][wheres-the---operator] 部分。')
    start = text.index("引用计数")
    plain, spans = strip_with_spans(text, [(start, start + 4)])
    assert plain == "示例 15-19：打印出引用计数\n\n输入：\n\n$ rustc main.rs\n\n见 “->” 运算符 部分。"
    assert [plain[a:b] for a, b in spans] == ["引用计数"]
    # Generics are not tags; code spans keep their insides; arithmetic is not emphasis.
    assert strip_with_spans("Vec<String>, Pin<P>, Box<dyn Error>", [])[0] == "Vec<String>, Pin<P>, Box<dyn Error>"
    assert strip_with_spans("调用 `__init__` 与 `a**b`，2**3 ~~旧~~", [])[0] == "调用 __init__ 与 a**b，2**3 旧"
    # A heading inside a quote (the Rust book's "> ### 栈（Stack）与堆（Heap）"), nested quotes.
    assert strip_with_spans("> ### 栈与堆\n>\n> > 1. 嵌套\n正文 > 不是引用", [])[0] == "栈与堆\n\n嵌套\n正文 > 不是引用"


def test_titles_are_shown_without_inline_markup() -> None:
    from desktop_kb.markup.plain import plain_title

    assert plain_title("`Rc<T>` 引用计数智能指针 > 克隆 `Rc<T>` 会增加引用计数") == \
        "Rc<T> 引用计数智能指针 > 克隆 Rc<T> 会增加引用计数"
    assert plain_title("**粗体** 与 [链接](http://x.org)") == "粗体 与 链接"
    assert plain_title("1. 引言") == "1. 引言"  # a numbered title is not a list item
    assert plain_title("C# 入门") == "C# 入门"
    assert plain_title("``") == "``"  # nothing but marks: shown as it is rather than empty


def test_cli_tags_note_list_by_tag_and_grouped_related(data_dir: Path, capsys, tmp_path: Path) -> None:
    import json

    from desktop_kb.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(["--data-dir", str(data_dir), *argv])
        out = capsys.readouterr()
        return code, out.out, out.err

    assert run("note", "add", "--title", "部署", "--body", "用 Docker 部署 GitLab #运维/docker #学习")[0] == 0
    assert run("note", "add", "--title", "备份", "--body", "gitlab-backup 每天一次 #运维")[0] == 0
    assert run("note", "add", "--title", "C#", "--body", "C# and F# are not tags")[0] == 0
    code, out, _ = run("tags")
    assert code == 0 and out.splitlines() == ["#学习\t1", "#运维\t2", "  #运维/docker\t1"]
    code, out, _ = run("tags", "--json")
    assert {t["key"]: t["notes"] for t in json.loads(out)["tags"]} == {"学习": 1, "运维": 2, "运维/docker": 1}
    code, out, _ = run("note", "list", "--tag", "运维", "--tag", "#学习")
    assert [line.split("\t")[1] for line in out.splitlines()] == ["部署"]

    folder = tmp_path / "copies"
    for sub in ("a", "b"):
        (folder / sub).mkdir(parents=True)
        (folder / sub / "gitlab.md").write_text(
            "# GitLab 备份\n\n用 gitlab-backup create 生成备份文件，备份保存在 /var/opt/gitlab/backups 目录，"
            "恢复时先停止 puma 和 sidekiq 服务，再运行 gitlab-backup restore。\n", encoding="utf-8")
    assert run("import", str(folder))[0] == 0
    code, out, _ = run("related", "2", "--json")
    suggestions = json.loads(out)["suggestions"]
    copies = [s for s in suggestions if s["target_type"] == "fragment"]
    assert len(copies) == 1 and len(copies[0]["copies"]) == 1  # one passage, two files
    assert [s["rank"] for s in suggestions] == list(range(1, len(suggestions) + 1))

    run("note", "edit", "1", "--body", "见 [[备份]]")
    code, _out, err = run("unlink", "1", "note", "2")
    assert code != 0 and "remove that text" in err


def test_user_words_for_the_segmenter(store: sqlite3.Connection) -> None:
    notes.create_note(store, "GitLab 备份", "见 [[间隔重复法]] #学习/间隔重复 #docker")
    notes.set_trashed(store, notes.create_note(store, "Trashed title", ""), True)
    assert markup_sync.user_words(store) == ["GitLab 备份", "间隔重复法", "docker", "学习/间隔重复", "学习",
                                             "间隔重复"]


def test_hits_links_and_named_documents_show_headings_without_code_marks(library, tmp_path: Path) -> None:
    """Stored heading paths keep their Markdown (fragment identity reads them); what is shown
    and cited does not: "`Rc<T>` 引用计数" reads "Rc<T> 引用计数"."""
    (tmp_path / "ch15-04-rc.md").write_text(
        "# `Rc<T>` 引用计数智能指针\n\n## 克隆 `Rc<T>` 会增加引用计数\n\n每次调用 Rc::clone 引用计数加一。\n",
        encoding="utf-8")
    library.import_paths([tmp_path / "ch15-04-rc.md"])
    library.drain()
    hit = library.search("Rc::clone 引用计数").results[0]
    assert hit.title == "Rc<T> 引用计数智能指针 > 克隆 Rc<T> 会增加引用计数"
    named = library.search("ch15-04-rc").results[0]
    assert named.title == "Rc<T> 引用计数智能指针"
    note = library.add_note("笔记", "")
    library.link(note, "fragment", hit.source_id)
    assert [e.title for e in library.note_links(note).outgoing] == [hit.title]
    stored = library.store.execute("SELECT heading_path FROM fragments WHERE id = ?", (hit.source_id,))
    assert stored.fetchone()[0] == "`Rc<T>` 引用计数智能指针 > 克隆 `Rc<T>` 会增加引用计数"


def test_a_library_tagged_by_the_old_parser_learns_c_plus_plus(store: sqlite3.Connection) -> None:
    """`#C++` was stored as #c; the parser's new version re-derives every note once."""
    note = notes.create_note(store, "语言", "#C++ 与 #C# 都学")
    assert {t.key for t in tag_counts(store)} == {"c++", "c#"}
    store.execute("DELETE FROM note_tags")  # what version 1 of the parser left behind
    store.execute("INSERT INTO note_tags(note_id, tag, label) VALUES (?, 'c', 'C')", (note,))
    store.execute("UPDATE settings SET value = '1' WHERE key = 'markup.version'")
    assert markup_sync.ensure_synced(store) == 1
    assert {t.key: t.label for t in tag_counts(store)} == {"c++": "C++", "c#": "C#"}
    assert notes_with_tags(store, ["c++"]) == {note} and notes_with_tags(store, ["c"]) == set()
