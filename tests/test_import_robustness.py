"""Import robustness: concurrent imports, bad file names, failures counted, links kept or listed."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_kb.importer import load as load_mod
from desktop_kb.library import Library
from desktop_kb.store.links import dismissed_targets, outgoing_links

TIMEOUT = 120


def cli(data_dir: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


def _folder(tmp_path: Path, n: int) -> Path:
    folder = tmp_path / "folder"
    folder.mkdir()
    for i in range(n):
        (folder / f"f{i:03d}.md").write_text(
            f"# 标题 {i}\n\n第一段 zqir{i:03d}a\n\n## 小节\n\n第二段 zqir{i:03d}b\n", encoding="utf-8")
    return folder


def test_two_imports_of_one_folder_at_once_both_finish(tmp_path: Path) -> None:
    data_dir = tmp_path / "library"
    folder = _folder(tmp_path, 60)
    Library(data_dir, load_model=False).close()  # create the store once, not in a race
    first, second = cli(data_dir, "import", str(folder), "--json"), cli(data_dir, "import", str(folder), "--json")
    outs = []
    for proc in (first, second):
        out, err = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 0, err
        outs.append(json.loads(out))
    # Between them every file was added exactly once; the rest found it unchanged.
    assert sum(o["added"] for o in outs) == 60
    assert all(o["added"] + o["updated"] + o["unchanged"] == 60 for o in outs)
    with Library(data_dir, load_model=False) as lib:
        assert lib.drain(TIMEOUT)
        assert len(lib.list_documents()) == 60
        assert lib.verify(repair=False).drift == 0
        assert [r.source_type for r in lib.search("zqir042b").results] == ["fragment"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX byte file names")
def test_file_names_that_are_not_utf8_are_skipped_and_named(library: Library, tmp_path: Path) -> None:
    folder = _folder(tmp_path, 3)
    bad_file = os.path.join(os.fsencode(folder), b"caf\xe9.md")  # Latin-1 name
    with open(bad_file, "wb") as fh:
        fh.write(b"# x\n\nzqirbad\n")
    bad_dir = os.path.join(os.fsencode(folder), b"\xb9\xfa\xbc\xd2")  # GBK bytes for 国家
    os.mkdir(bad_dir)
    with open(os.path.join(bad_dir, b"inside.md"), "wb") as fh:
        fh.write(b"# y\n\nzqirinside\n")
    summary = library.import_paths([folder])
    assert summary.added == 3 and not summary.failed
    skipped = dict(summary.skipped)
    assert any(p.endswith("caf\\xe9.md") for p in skipped), skipped
    assert any(p.endswith("\\xb9\\xfa\\xbc\\xd2") for p in skipped), skipped  # the folder, once
    assert all("UTF-8" in reason for reason in skipped.values())
    json.dumps(summary.as_json())  # printable and serialisable


def test_one_failing_file_is_recorded_and_the_import_goes_on(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = _folder(tmp_path, 4)
    real = load_mod.split_document

    def exploding(text: str, fmt: str, name: str):  # type: ignore[no-untyped-def]
        if name.endswith("f002.md"):
            raise RuntimeError("parser bug")
        return real(text, fmt, name)

    monkeypatch.setattr(load_mod, "split_document", exploding)
    summary = library.import_paths([folder])
    assert summary.added == 3
    assert [(Path(p).name, "parser bug" in r) for p, r in summary.failed] == [("f002.md", True)]
    assert summary.stopped is None


def test_a_full_disk_stops_the_import_with_the_reason_and_keeps_what_was_saved(
    data_dir: Path, tmp_path: Path,
) -> None:
    folder = tmp_path / "big"
    folder.mkdir()
    for i in range(40):
        (folder / f"b{i:02d}.txt").write_text(("大量的文字 lots of text " * 400) + f"zqfull{i:02d}",
                                              encoding="utf-8")
    with Library(data_dir, load_model=False) as lib:
        pages = lib.store.execute("PRAGMA page_count").fetchone()[0]
        lib.store.execute(f"PRAGMA max_page_count = {pages + 60}")  # room for a few files only
        summary = lib.import_paths([folder])
        assert summary.stopped is not None and "full" in summary.stopped.lower()
        assert 0 < summary.added < 40
        assert len(summary.failed) == 1
        saved = len(lib.list_documents())
        assert saved == summary.added
        assert lib.drain(TIMEOUT)
        assert lib.verify(repair=False).drift == 0


def test_reimport_requeues_a_document_whose_index_rows_went_missing(library: Library, tmp_path: Path) -> None:
    folder = _folder(tmp_path, 2)
    library.import_paths([folder])
    assert library.drain(TIMEOUT)
    # Drift the feed cannot know about (rows lost behind its back).
    conn = sqlite3.connect(library.paths.index)
    conn.execute("DELETE FROM kb_sources WHERE source_type = 'fragment'")
    conn.commit()
    conn.close()
    summary = library.import_paths([folder])
    assert summary.unchanged == 2 and summary.reindexed == 2
    assert library.drain(TIMEOUT)
    assert library.verify(repair=False).missing == []


def _link_target(library: Library, marker: str) -> int:
    hits = library.search(marker).results
    assert len(hits) == 1 and hits[0].source_type == "fragment", marker
    return hits[0].source_id


def test_links_and_dismissals_follow_edited_passages_and_lost_ones_are_listed(
    library: Library, tmp_path: Path,
) -> None:
    path = tmp_path / "book.md"
    path.write_text(
        "# 第一章\n\n安装 Docker 之前，请先更新软件源。 zqlk1\n\n"
        "## 配置\n\n配置文件放在 /etc/docker 目录下。 zqlk2\n\n"
        "## 附录\n\n这一段以后会被删掉。 zqlk3\n", encoding="utf-8")
    library.import_paths([path])
    assert library.drain(TIMEOUT)
    note_id = library.add_note("读书笔记", "关于 Docker 的笔记")
    first, second, third = (_link_target(library, m) for m in ("zqlk1", "zqlk2", "zqlk3"))
    library.link(note_id, "fragment", first, origin="manual")
    library.link(note_id, "fragment", third, origin="manual")
    library.dismiss(note_id, "fragment", second)
    # Edit: a typo fixed in the first passage, a new passage before the second,
    # the third deleted.
    path.write_text(
        "# 第一章\n\n安装 Docker 之前，请先更新一下软件源。 zqlk1\n\n"
        "## 配置\n\n新加的一段说明。 zqlk4\n\n配置文件放在 /etc/docker 目录下。 zqlk2\n", encoding="utf-8")
    summary = library.import_paths([path])
    assert summary.updated == 1
    assert library.drain(TIMEOUT)
    assert _link_target(library, "zqlk1") == first  # same passage, same id
    assert _link_target(library, "zqlk2") == second
    assert {(lk.target_type, lk.target_id) for lk in outgoing_links(library.store_reader, note_id)} == {
        ("fragment", first)}
    assert dismissed_targets(library.store_reader, note_id) == {("fragment", second)}
    assert [(link.note_id, link.fragment_id) for _, link in summary.links_lost] == [(note_id, third)]
    assert "zqlk3" in summary.links_lost[0][1].excerpt
