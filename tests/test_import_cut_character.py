"""A UTF-8 file whose last (or first) character was cut in two — ``head -c``, a download or copy
stopped part way, a tool that cuts at a byte count — is imported with U+FFFD in that one place
and a remark saying so; it was skipped whole as "not UTF-8". The file itself is never changed,
and files with other encodings stay refused (a bad byte in the middle, a Latin-1 "é" at the
end of plain ASCII)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from desktop_kb.library import Library

TIMEOUT = 120
BOOK = "# 所有权\n\n所有权是 Rust 最独特的功能 zqcut1，它让 Rust 无需垃圾回收即可保证内存安全。\n\n" * 3


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_character_cut_at_either_end_is_replaced_and_said_and_the_file_kept(
    library: Library, tmp_path: Path,
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    whole = (BOOK + "最后一句话。").encode("utf-8")
    (src / "cut_end.md").write_bytes(whole[:-2])  # the 。 cut after its first byte
    (src / "cut_start.txt").write_bytes("始".encode()[1:] + "开头被截断 zqcut2 的文本".encode())
    (src / "latin1_middle.txt").write_bytes(b"caf\xe9 zqcut3 au lait, ascii after")
    (src / "latin1_end.txt").write_bytes(b"plain ascii zqcut4 then caf\xe9")
    before = {p.name: digest(p) for p in src.iterdir()}

    summary = library.import_paths([src])
    assert summary.added == 2, summary
    assert sorted(name for name, _ in ((Path(p).name, r) for p, r in summary.skipped)) == [
        "latin1_end.txt", "latin1_middle.txt"]
    remarks = {Path(p).name: r for p, r in summary.remarks}
    assert remarks["cut_end.md"].startswith("the file ends inside a character (bytes E3)")
    assert remarks["cut_start.txt"].startswith("the file starts inside a character (bytes A7 8B)")
    assert {p.name: digest(p) for p in src.iterdir()} == before  # read, never rewritten

    docs = {Path(d.path).name: d for d in library.list_documents()}
    assert library.drain(TIMEOUT)
    text = "".join(f.text for f in library.list_fragments(docs["cut_end.md"].id))
    assert "最后一句话\ufffd" in text and text.count("\ufffd") == 1
    assert [r.source_id for r in library.search("zqcut2").results] != []

    # Imported again unchanged: the same bytes are the same document, with the same remark.
    again = library.import_paths([src])
    assert again.unchanged == 2 and again.added == again.updated == 0


def test_the_remark_reads_in_chinese_in_the_import_summary(qtbot) -> None:  # noqa: ANN001
    from desktop_kb.importer.files import CUT_CHARACTER_REMARK
    from desktop_kb.ui import i18n
    from desktop_kb.ui.import_dialog import remark_text

    remark = CUT_CHARACTER_REMARK.format("ends", "E3 80")
    try:
        i18n.install_language("zh_CN")
        assert remark_text(remark) == "文件最后一个字符不完整（字节 E3 80）：导入时以 \ufffd 代替，文件本身未改动"
        assert "第一个字符" in remark_text(CUT_CHARACTER_REMARK.format("starts", "A7"))
        i18n.install_language("en")
        assert remark_text(remark).startswith("its last character was cut off (bytes E3 80)")
    finally:
        i18n.install_language("en")
