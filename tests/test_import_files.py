"""Finding importable files and reading them as text."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from desktop_kb.importer.files import (
    HIDDEN,
    NOT_FOUND,
    Candidate,
    Skipped,
    UnreadableFile,
    _big5,
    iter_candidates,
    read_text,
    sha256_bytes,
)
from desktop_kb.importer.formats import split_document


def write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    write(root / "notes.md", "# Notes\nbody")
    write(root / "b" / "plan.yml", "a: 1")
    write(root / "b" / "deep" / "data.json", '{"k": 1}')
    write(root / "b" / "deep" / "tool.py", "def f():\n    pass\n")
    write(root / "b" / "readme.markdown", "# R")
    write(root / "a" / "z.txt", "text")
    write(root / "a" / "conf.yaml", "k: v")
    write(root / "a" / "image.png", b"\x89PNG\r\n\x1a\n\x00\x00")
    write(root / "a" / ".hidden" / "y.md", "# hidden")
    write(root / ".git" / "x.md", "# git")
    write(root / ".git" / "objects" / "ab" / "cd.txt", "blob")
    write(root / ".z.md", "# dotfile")
    write(root / ".env", "SECRET=1")
    return root


def rel(root: Path, items: list[Candidate | Skipped]) -> list[tuple[str, str]]:
    out = []
    for item in items:
        tag = item.fmt if isinstance(item, Candidate) else item.reason
        out.append((item.path.relative_to(root).as_posix(), tag))
    return out


def test_walk_is_sorted_recursive_and_skips_hidden(tree: Path) -> None:
    items = list(iter_candidates([tree]))
    assert rel(tree, items) == [
        (".env", HIDDEN),
        (".git", HIDDEN),
        (".z.md", HIDDEN),
        ("a/.hidden", HIDDEN),
        ("a/conf.yaml", "yaml"),
        ("a/image.png", "`.png` is not supported yet (image)"),
        ("a/z.txt", "txt"),
        ("b/deep/data.json", "json"),
        ("b/deep/tool.py", "py"),
        ("b/plan.yml", "yaml"),
        ("b/readme.markdown", "md"),
        ("notes.md", "md"),
    ]
    # Hidden entries and other file types inside folders are counted, not listed.
    assert all(i.quiet for i in items if isinstance(i, Skipped))


def test_format_selection_uses_canonical_names(tree: Path) -> None:
    found = [i for i in iter_candidates([tree], formats=["yml", "md"]) if isinstance(i, Candidate)]
    assert sorted(c.path.name for c in found) == ["conf.yaml", "notes.md", "plan.yml", "readme.markdown"]


def test_explicit_paths(tree: Path, tmp_path: Path) -> None:
    items = list(iter_candidates([
        tree / "a" / "image.png", tree / "missing.md", tree / ".z.md", tree / "notes.md",
    ]))
    assert items == [
        Skipped(tree / "a" / "image.png", "`.png` is not supported yet (image)"),
        Skipped(tree / "missing.md", NOT_FOUND),
        Candidate(tree / ".z.md", "md"),  # named explicitly: not treated as hidden
        Candidate(tree / "notes.md", "md"),
    ]
    assert not any(i.quiet for i in items if isinstance(i, Skipped))


def test_root_inside_hidden_folder_is_walked(tree: Path) -> None:
    items = list(iter_candidates([tree / ".git"]))
    assert rel(tree, items) == [(".git/objects/ab/cd.txt", "txt"), (".git/x.md", "md")]


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
def test_symlink_loops_terminate(tmp_path: Path) -> None:
    root = tmp_path / "r"
    write(root / "sub" / "a.md", "# a")
    os.symlink(root, root / "sub" / "loop")
    os.symlink(root / "nowhere", root / "broken.md")
    items = list(iter_candidates([root]))
    candidates = [i for i in items if isinstance(i, Candidate)]
    assert [c.path.relative_to(root).as_posix() for c in candidates] == ["sub/a.md"]
    assert len(items) == 3  # broken link, a.md, the loop


def test_ten_thousand_files_are_listed_in_order_without_the_hidden_ones(tmp_path: Path) -> None:
    """How fast is benchmarks/bench_listing.py's (a 3 s limit here failed on a loaded machine)."""
    root = tmp_path / "big"
    for d in range(20):
        folder = root / f"d{d:02}"
        folder.mkdir(parents=True)
        for f in range(500):
            (folder / f"n{f:03}.{'md' if f % 2 else 'txt'}").write_bytes(b"x")
    for hidden in (root / ".git", root / "d05" / ".obsidian"):
        hidden.mkdir()
        for f in range(100):
            (hidden / f"h{f}.md").write_bytes(b"x")
    (root / "d07" / "skip.bin").write_bytes(b"\x00")

    items = list(iter_candidates([root]))

    candidates = [i for i in items if isinstance(i, Candidate)]
    assert len(candidates) == 10_000
    assert not any(".git" in c.path.parts or ".obsidian" in c.path.parts for c in candidates)
    assert sorted(i.reason for i in items if isinstance(i, Skipped)) == [
        "`.bin` is not supported yet (binary)", HIDDEN, HIDDEN]
    assert [c.path for c in candidates] == sorted(c.path for c in candidates)


# --- reading ----------------------------------------------------------------


def test_read_utf8_with_and_without_bom(tmp_path: Path) -> None:
    raw = "用 Docker 安装 GitLab\n".encode()
    text, digest = read_text(write(tmp_path / "a.md", raw))
    assert text == "用 Docker 安装 GitLab\n"
    assert digest == sha256_bytes(raw)
    text, _ = read_text(write(tmp_path / "b.md", b"\xef\xbb\xbf" + raw))
    assert text == "用 Docker 安装 GitLab\n"


def test_read_utf16_with_bom(tmp_path: Path) -> None:
    path = write(tmp_path / "u16.txt", "\ufeff中文 text".encode("utf-16-le"))
    assert read_text(path)[0] == "中文 text"


def test_read_gbk_chinese_is_accepted(tmp_path: Path) -> None:
    content = "第一章 概述\n本书介绍如何使用命令行管理文件，包括复制、移动和删除。\n"
    path = write(tmp_path / "gbk.txt", content.encode("gbk"))
    text, digest = read_text(path)
    assert text == content
    assert digest == sha256_bytes(content.encode("gbk"))


def test_read_big5_traditional_chinese_is_accepted(tmp_path: Path) -> None:
    # Notes from Taiwan and Hong Kong are often Big5; GB18030 must not claim them first.
    content = "第一章 線性代數\n矩陣的秩等於其列梯形中非零列的個數，這是「基本」的性質。\n"
    path = write(tmp_path / "big5.txt", content.encode("cp950"))
    assert read_text(path)[0] == content


def test_korean_and_japanese_bytes_are_not_read_as_big5(tmp_path: Path) -> None:
    japanese = "日本語のテキストはこのように見えます。行列の階数について。"
    with pytest.raises(UnreadableFile, match="not UTF-8 text"):
        read_text(write(tmp_path / "sjis.txt", japanese.encode("shift_jis")))
    # EUC-KR lies inside GB2312's byte ranges, so only the Big5 reading is checked here.
    korean = "한국어 텍스트는 이렇게 보입니다. 행렬의 계수는 영이 아닌 행의 개수와 같다."
    assert _big5(korean.encode("euc-kr")) is None


def test_latin1_is_not_mistaken_for_chinese(tmp_path: Path) -> None:
    path = write(tmp_path / "latin1.txt", "Le résumé était très réussi.".encode("latin-1"))
    with pytest.raises(UnreadableFile) as err:
        read_text(path)
    assert err.value.reason == "not UTF-8 text (invalid byte 0xE9 at offset 4)"


def test_invalid_utf8_is_rejected_with_position(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.md", b"# ok\nabc \xff\xfe\xfd tail")
    with pytest.raises(UnreadableFile) as err:
        read_text(path)
    assert err.value.reason == "not UTF-8 text (invalid byte 0xFF at offset 9)"
    assert str(err.value) == err.value.reason


def test_nul_bytes_mean_binary(tmp_path: Path) -> None:
    path = write(tmp_path / "nul.txt", b"looks like text\x00\x00 but is not")
    with pytest.raises(UnreadableFile) as err:
        read_text(path)
    assert err.value.reason == "binary file (contains NUL bytes)"


def test_control_characters_mean_binary(tmp_path: Path) -> None:
    path = write(tmp_path / "ctl.txt", bytes(range(1, 32)) * 50)
    with pytest.raises(UnreadableFile) as err:
        read_text(path)
    assert err.value.reason.startswith("binary file")


def test_random_bytes_are_rejected(tmp_path: Path) -> None:
    rng = random.Random(1234)
    for i in range(20):
        data = bytes(rng.randrange(256) for _ in range(4096))
        path = write(tmp_path / f"rand{i}.txt", data)
        with pytest.raises(UnreadableFile):
            read_text(path)
        # Without NUL bytes the decoders themselves must refuse it.
        path = write(tmp_path / f"rand{i}b.txt", data.replace(b"\x00", b"\x01"))
        with pytest.raises(UnreadableFile):
            read_text(path)


def test_empty_file_is_text_with_no_fragments(tmp_path: Path) -> None:
    text, digest = read_text(write(tmp_path / "empty.md", b""))
    assert text == ""
    assert digest == sha256_bytes(b"")
    assert split_document(text, "md", "empty.md").fragments == []


def test_too_large_names_the_size(tmp_path: Path) -> None:
    path = write(tmp_path / "big.txt", b"a" * 3000)
    with pytest.raises(UnreadableFile) as err:
        read_text(path, max_bytes=1024)
    assert err.value.reason == "file too large (2.9 KB; the limit is 1.0 KB)"


def test_missing_and_folder(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile, match="file not found"):
        read_text(tmp_path / "nope.md")
    with pytest.raises(UnreadableFile):
        read_text(tmp_path)


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0,
                    reason="permission bits are not enforced")
def test_permission_denied(tmp_path: Path) -> None:
    path = write(tmp_path / "secret.md", "x")
    path.chmod(0)
    try:
        with pytest.raises(UnreadableFile, match="permission denied"):
            read_text(path)
    finally:
        path.chmod(0o644)
