"""Hostile and oversized input through ``Library`` and the CLI: nothing raises, nothing is lost.

Covers a 10 MB note, undecodable and binary files next to good ones, malformed
JSON/YAML, a 10,000-file folder with hidden entries, CLI error reporting, and
queries full of FTS5 syntax.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_kb import cli
from desktop_kb.library import Library
from desktop_kb.progress import Progress

TIMEOUT = 120


def _open(data_dir: Path) -> Library:
    lib = Library(data_dir)
    if lib.startup_rebuild is not None:
        lib.startup_rebuild.result()
    return lib


def _run_cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
        capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)


def _drain_while_working(lib: Library, *, stall_s: float = 60, cpu_budget_s: float = 400) -> None:
    """Wait for the index to apply everything, failing on a stall or a runaway, not on a busy
    machine: a 10 MB note is ~25 s of this process's CPU (segmenting in the index worker's
    thread), which a loaded machine spreads over minutes (a 120 s drain failed at load 14).
    So the limits count CPU: no CPU used for ``stall_s`` (a deadlock) or more than
    ``cpu_budget_s`` (a loop) fails; slow progress does not."""
    start = last = time.process_time()
    last_progress = time.monotonic()
    while not lib.drain(timeout=1.0):
        used = time.process_time()
        if used - last > 0.1:
            last, last_progress = used, time.monotonic()
        assert time.monotonic() - last_progress < stall_s, "the index worker stopped working"
        assert used - start < cpu_budget_s, f"indexing used {used - start:.0f} s of CPU"


def _hit_ids(lib: Library, query: str) -> list[tuple[str, int]]:
    return [(r.source_type, r.source_id) for r in lib.search(query).results]


def _doc_of_hits(lib: Library, query: str) -> set[int | None]:
    return {r.document_id for r in lib.search(query).results}


def _write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


# ----- a 10 MB note -------------------------------------------------------------------


@pytest.mark.slow
def test_ten_megabyte_note_is_saved_intact_searchable_and_shown_by_cli(data_dir: Path) -> None:
    zh = "用 Docker 安装 GitLab 并配置持续集成，知识库检索。"
    en = "The quick brown fox reads docker-compose.yml and jumps over v1.2.3 of the lazy dog. "
    block = en * 3 + zh + "\n\n"
    half = 5_000_000 // len(block)
    body = block * half + " zq10001mk 中间的标记 " + block * half + "最后 zq10002mk"
    assert len(body) > 9_900_000
    with _open(data_dir) as lib:
        note_id = lib.add_note("十兆笔记 ten megabyte note", body)
        _drain_while_working(lib)
        note = lib.get_note(note_id)
        assert note.body == body and note.title == "十兆笔记 ten megabyte note"
        for marker in ("zq10001mk", "zq10002mk"):
            response = lib.search(marker)
            assert [(r.source_type, r.source_id) for r in response.results] == [("note", note_id)]
            hit = response.results[0]
            # The highlight points at the marker inside the 10 MB body.
            assert [body[s:e] for s, e in hit.highlights] == [marker]
            assert body[hit.start:hit.end] == hit.snippet
        assert lib.verify(repair=False).drift == 0
        assert lib.index_status().failures == []

    shown = _run_cli(data_dir, "note", "show", str(note_id), "--json")
    assert shown.returncode == 0, shown.stderr
    payload = json.loads(shown.stdout)
    assert payload["id"] == note_id and payload["body"] == body


# ----- undecodable and binary files -------------------------------------------------


def test_invalid_utf8_and_nul_files_are_skipped_with_reasons_and_nothing_else_is_lost(
    data_dir: Path, tmp_path: Path,
) -> None:
    src = tmp_path / "src"
    _write(src / "good.md", "# 好文件 Good\n\n用 Docker 安装 zq20001mk。\n")
    _write(src / "keep.txt", "第一版 first version zq20002mk\n")
    _write(src / "latin1.txt", "caf\u00e9 zq20003mk ".encode("latin-1") + b"\xff\xfe\xfd end")
    _write(src / "nul.md", b"# Binary zq20004mk\n\x00\x00\x00\x01 not text")
    with _open(data_dir) as lib:
        note_id = lib.add_note("已有笔记 existing", "zq20005mk 不能丢")
        first = lib.import_paths([src])
        assert first.added == 2 and sorted(first.per_format.items()) == [("md", 1), ("txt", 1)]
        reasons = {Path(p).name: r for p, r in first.skipped}
        assert set(reasons) == {"latin1.txt", "nul.md"}
        assert "not UTF-8" in reasons["latin1.txt"] and "0xE9" in reasons["latin1.txt"]
        assert "NUL" in reasons["nul.md"]

        # A file that was fine becomes unreadable: the re-import (even with prune)
        # refuses it with a reason and keeps what the library already had.
        _write(src / "keep.txt", b"\x00\x00broken now zq20006mk")
        second = lib.import_paths([src], prune=True)
        assert {Path(p).name for p, _ in second.skipped} == {"latin1.txt", "nul.md", "keep.txt"}
        assert second.removed == 0 and second.unchanged == 1
        assert lib.drain(timeout=TIMEOUT)

        docs = {Path(d.path).name: d.id for d in lib.list_documents()}
        assert sorted(docs) == ["good.md", "keep.txt"]
        assert _doc_of_hits(lib, "zq20001mk") == {docs["good.md"]}
        assert _doc_of_hits(lib, "zq20002mk") == {docs["keep.txt"]}
        assert _hit_ids(lib, "zq20005mk") == [("note", note_id)]
        assert lib.get_note(note_id).body == "zq20005mk 不能丢"
        for never in ("zq20003mk", "zq20004mk", "zq20006mk"):
            assert lib.search(never).results == []
        assert lib.verify(repair=False).drift == 0

    # The CLI reports the same reasons and still imports the rest (a partial success).
    other = tmp_path / "cli-lib"
    out = _run_cli(other, "import", str(src), "--json")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    summary = json.loads(out.stdout)
    assert summary["added"] == 1
    assert {Path(s["path"]).name: s["reason"] for s in summary["skipped"]}.keys() == {
        "latin1.txt", "nul.md", "keep.txt"}


# ----- malformed JSON and YAML ------------------------------------------------------


def test_malformed_json_and_yaml_import_as_text_with_remarks(library: Library, tmp_path: Path) -> None:
    src = tmp_path / "src"
    broken_json = '{"name": "配置 zq30001mk",\n "items": [1, 2,\n\n "tail": zq30002mk\n'
    keyless_yaml = "  - [unclosed zq30003mk\n  key: : value\n\t- tab 缩进 zq30004mk\n"
    keyed_yaml = "title: [broken zq30005mk\nkey: {a: b\n  nested: 中文 zq30006mk\n"
    _write(src / "broken.json", broken_json)
    _write(src / "keyless.yaml", keyless_yaml)
    _write(src / "keyed.yml", keyed_yaml)
    summary = library.import_paths([src])
    assert summary.added == 3 and summary.skipped == []
    assert sorted(summary.per_format.items()) == [("json", 1), ("yaml", 2)]
    remarks = {Path(p).name: r for p, r in summary.remarks}
    assert "invalid JSON" in remarks["broken.json"]
    assert "no top-level YAML keys" in remarks["keyless.yaml"]
    assert library.drain(timeout=TIMEOUT)

    docs = {Path(d.path).name: d for d in library.list_documents()}
    for name, text in (("broken.json", broken_json), ("keyless.yaml", keyless_yaml),
                       ("keyed.yml", keyed_yaml)):
        # Kept as written: every non-blank line is in some fragment.
        frags = "\n".join(f.text for f in library.list_fragments(docs[name].id))
        assert all(line.strip() in frags for line in text.splitlines() if line.strip()), name
    for marker, name in (("zq30001mk", "broken.json"), ("zq30002mk", "broken.json"),
                         ("zq30003mk", "keyless.yaml"), ("zq30004mk", "keyless.yaml"),
                         ("zq30005mk", "keyed.yml"), ("zq30006mk", "keyed.yml")):
        assert docs[name].id in _doc_of_hits(library, marker), marker


# ----- a big folder with hidden entries ---------------------------------------------


@pytest.mark.slow
def test_ten_thousand_files_with_hidden_folders(library: Library, tmp_path: Path) -> None:
    root = tmp_path / "vault"
    n_md, n_txt = 6000, 4000
    for i in range(n_md + n_txt):
        ext = "md" if i < n_md else "txt"
        folder = root / f"topic{i % 40}" / ("deep" if i % 3 == 0 else "")
        _write(folder / f"n{i}.{ext}", f"# 笔记 {i}\n\n用 Docker 安装 GitLab，第 {i} 条 zq{i:05d}mk\n")
    hidden = {
        ".git/HEAD.md": "zq90001mk", ".git/objects/ab/cd.txt": "zq90002mk",
        "topic1/.obsidian/workspace.md": "zq90003mk", ".hidden.md": "zq90004mk",
        "topic2/deep/.draft.txt": "zq90005mk",
    }
    for rel, marker in hidden.items():
        _write(root / rel, f"# hidden {marker}\n")
    _write(root / "topic3" / "image.png", b"\x89PNG\r\n\x1a\n\x00\x00")

    ticks: list[tuple[int, int]] = []
    summary = library.import_paths([root], progress=Progress(lambda _l, d, m: ticks.append((d, m))))
    assert summary.added == n_md + n_txt and summary.skipped == []
    assert dict(summary.per_format) == {"md": n_md, "txt": n_txt}
    # Hidden entries are counted once each, never descended into.
    assert summary.quiet_skipped["hidden"] == 4
    assert summary.quiet_skipped["`.png` is not supported yet (image)"] == 1
    assert ticks[-1] == (n_md + n_txt, n_md + n_txt)

    docs = library.list_documents()
    assert len(docs) == n_md + n_txt
    resolved = root.resolve()
    assert not [d.path for d in docs
                if any(part.startswith(".") for part in Path(d.path).relative_to(resolved).parts)]

    assert library.drain(timeout=TIMEOUT)
    by_name = {Path(d.path).name: d.id for d in docs}
    for i in (0, 1, 4999, 6000, n_md + n_txt - 1):
        name = f"n{i}.{'md' if i < n_md else 'txt'}"
        assert _doc_of_hits(library, f"zq{i:05d}mk") == {by_name[name]}
    for marker in hidden.values():
        assert library.search(marker).results == []
    assert library.verify(repair=False).drift == 0

    again = library.import_paths([root])
    assert (again.added, again.updated, again.unchanged) == (0, 0, n_md + n_txt)


# ----- CLI errors -------------------------------------------------------------------


def _one_line_error(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("desktop-kb:"), proc.stderr


def test_cli_errors_are_one_line_without_traceback(data_dir: Path) -> None:
    shown = _run_cli(data_dir, "note", "show", "999")
    _one_line_error(shown)
    assert "999" in shown.stderr and shown.stdout == ""

    empty = _run_cli(data_dir, "search", "")
    assert empty.returncode == 0 and "Traceback" not in empty.stderr
    assert empty.stdout.strip() == "no results"
    empty_json = _run_cli(data_dir, "search", "", "--json")
    assert empty_json.returncode == 0 and json.loads(empty_json.stdout)["results"] == []


def test_cli_import_of_a_missing_path_is_an_error(data_dir: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent"
    proc = _run_cli(data_dir, "import", str(missing))
    _one_line_error(proc)
    assert "nonexistent" in proc.stderr


# ----- queries full of FTS5 syntax ----------------------------------------------------

NASTY_QUERIES = [
    '"', '""', '"""', '"unbalanced', "NEAR(", "NEAR(a b", "NEAR(docker gitlab, 2)", "*", "a*",
    "*docker", ":", "title:docker", "body:", "-", "-docker", "--", "(", ")", "((docker)", "()",
    "AND", "OR", "NOT", "AND OR NOT", "docker AND", "OR gitlab", "NOT NOT", "^docker", "{body}:x",
    "😀", "🚀🚀 docker", "安装 NEAR( \"Docker", "「引号", "“中文引号", "'", "\\", "%", "_",
    "\x00", "\t\n", "   ", "docker-compose.yml\"", "c++ AND (", "a:b:c", "+", "#", "@",
    "docker-compose.yml NEAR( * : - ( ) 😀 AND OR NOT",
]


@pytest.fixture(scope="module")
def searchable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Library, Path, int]]:
    data_dir = tmp_path_factory.mktemp("fts") / "library"
    lib = _open(data_dir)
    note_id = lib.add_note("Docker 安装笔记", "用 Docker 安装 GitLab：docker-compose.yml (v1.2.3) — \"quoted\" "
                                            "NEAR AND OR NOT * ^ 😀 c++ a:b:c")
    lib.add_note("其他", "无关的内容 unrelated text")
    assert lib.drain(timeout=TIMEOUT)
    try:
        yield lib, data_dir, note_id
    finally:
        lib.close()


@pytest.mark.parametrize("query", NASTY_QUERIES)
def test_fts_syntax_in_queries_never_raises(searchable: tuple[Library, Path, int], query: str) -> None:
    lib, _, _ = searchable
    response = lib.search(query, limit=5)
    assert response.dropped == 0
    for r in response.results:
        assert lib.get_note(r.source_id).body[r.start:r.end] == r.snippet


def test_fts_syntax_around_real_terms_still_finds_them(searchable: tuple[Library, Path, int]) -> None:
    lib, _, note_id = searchable
    for query in ('docker NEAR(', '"docker-compose.yml', "(gitlab) AND -", "安装 *", "c++ :"):
        assert ("note", note_id) in _hit_ids(lib, query), query


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from(['"', "NEAR(", "*", ":", "-", "(", ")", "^", "AND", "OR", "NOT", "😀", " ",
                     "docker", "安装", "c++", "{", "}", ",", "'", "\\", "\x00"]),
    st.text(max_size=4)), max_size=12).map("".join))
def test_random_fts_syntax_queries_never_raise(searchable: tuple[Library, Path, int], query: str) -> None:
    lib, _, _ = searchable
    assert lib.search(query, limit=3).dropped == 0


def test_cli_search_with_fts_syntax_exits_cleanly(
    searchable: tuple[Library, Path, int], capsys: pytest.CaptureFixture[str],
) -> None:
    lib, data_dir, _ = searchable
    lib.drain()
    for query in NASTY_QUERIES:
        # "--" so a query starting with "-" is not read as an option (argparse rules).
        rc = cli.main(["--data-dir", str(data_dir), "search", "--json", "--", query])
        out, err = capsys.readouterr()
        assert rc == 0, (query, err)
        assert isinstance(json.loads(out)["results"], list)
    # One real process too: exit code and a clean stderr.
    proc = _run_cli(data_dir, "search", NASTY_QUERIES[-1])
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "Docker 安装笔记" in proc.stdout
