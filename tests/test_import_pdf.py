"""PDF import on PDFs the tests write with Qt: reading order, pages, headers, outline, hostile files."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_fixtures import Para, add_outline, encrypt_pdf, write_image_pdf, write_pdf

from desktop_kb.importer.model import UnreadableFile
from desktop_kb.importer.pdf import read_pdf
from desktop_kb.importer.pdf_layout import PageLine, PageText, join_lines, running_lines
from desktop_kb.progress import Cancelled

ZH = "向量空间是一个集合，其中定义了加法和数乘两种运算，并且满足八条公理。"
EN = ("The determinant of a square matrix is a scalar that tells whether the matrix is "
      "invertible and how it scales volumes.")


def book(tmp_path: Path, pages: int = 4) -> Path:
    content = []
    for n in range(1, pages + 1):
        content.append([
            Para(f"第{n}章 线性空间 Chapter {n}", size=18),
            Para(f"{ZH}第{n}页的内容。" * 4),
            Para(f"{EN} Page {n} says so. " * 3),
        ])
    return write_pdf(tmp_path / "linear.pdf", content, header="线性代数讲义 · Lecture notes")


def check_fragments(result) -> None:
    for i, frag in enumerate(result.fragments):
        assert frag.ord == i
        assert result.doc_text[frag.start:frag.end] == frag.text
        assert frag.page is not None and frag.page_end is not None and frag.page <= frag.page_end


def test_pages_text_and_reading_order(qapp: object, tmp_path: Path) -> None:
    result = read_pdf(book(tmp_path), "linear")
    check_fragments(result)
    text = result.doc_text
    # Reading order across pages, every page present.
    positions = [text.index(f"第{n}页的内容") for n in range(1, 5)]
    assert positions == sorted(positions)
    # Each fragment knows its page, and the text on it is from that page.
    for frag in result.fragments:
        for n in range(1, 5):
            if f"第{n}页的内容" in frag.text or f"Page {n} says" in frag.text:
                assert frag.page == n
    # Qt writes Kangxi radicals (⼀, ⻚) for 一, 页: folded so ordinary queries match.
    assert "一个集合" in text and "第1页" in text
    assert "⼀" not in text and "⻚" not in text
    # CJK lines joined without spaces, Latin lines with one.
    assert ZH in text
    assert EN in text


def test_running_header_and_page_numbers_are_dropped(qapp: object, tmp_path: Path) -> None:
    result = read_pdf(book(tmp_path), "linear")
    assert "线性代数讲义" not in result.doc_text
    assert "Lecture notes" not in result.doc_text
    lines = result.doc_text.split("\n")
    assert not any(line.strip().isdigit() for line in lines), "a bare page number survived"


def test_headings_from_type_size_without_outline(qapp: object, tmp_path: Path) -> None:
    result = read_pdf(book(tmp_path), "linear")
    paths = {f.heading_path for f in result.fragments}
    assert "第2章 线性空间 Chapter 2" in paths
    assert result.title == "linear"  # no metadata title: the file's name, not "Chapter 1"


def test_a_pdf_named_notes_is_titled_by_its_first_heading_or_line(qapp: object, tmp_path: Path) -> None:
    # No title in the PDF and a name that says nothing ("notes.pdf"): it was listed as
    # "课程/notes" beside the Word file titled by its first heading. A name the person chose
    # ("Lecture 7.pdf") still names it.
    folder = tmp_path / "课程"
    folder.mkdir()
    headed = write_pdf(folder / "notes.pdf", [[Para("Rust 所有权讲义", 20), ZH], [Para(EN)]])
    assert read_pdf(headed, "课程/notes").title == "Rust 所有权讲义"
    plain = write_pdf(folder / "index.pdf", [["Matrices on one page. " + EN, ZH]])
    assert read_pdf(plain, "课程/index").title == "Matrices on one page."
    long_line = write_pdf(folder / "main.pdf", [["word " * 60]])
    title = read_pdf(long_line, "课程/main").title
    assert title.endswith("…") and len(title) <= 81 and not title[:-1].endswith(" ")
    chosen = write_pdf(folder / "Lecture 7.pdf", [[Para("Chapter 1", 20), EN]])
    assert read_pdf(chosen, "Lecture 7").title == "Lecture 7"


def test_outline_gives_heading_paths(qapp: object, tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "o.pdf", [
        [Para("Part one"), Para(EN)], [Para(ZH)], [Para("Appendix"), Para(EN + " Appendix.")],
    ], title="Outline Book")
    add_outline(path, [(1, "Part one", 1), (2, "第二节 向量", 2), (1, "Appendix", 3)])
    result = read_pdf(path, "o")
    check_fragments(result)
    assert result.title == "Outline Book"
    by_page = {f.page: f.heading_path for f in result.fragments}
    assert by_page[1] == "Part one"
    assert by_page[2] == "Part one > 第二节 向量"
    assert by_page[3] == "Appendix"
    # A bookmark whose title is on the page marks that line; it is not duplicated.
    assert result.doc_text.count("Appendix\n") == 1


def test_latin_hyphenation_undone_and_cjk_joined() -> None:
    assert join_lines("a func-", "tion of x") == "a function of x"
    assert join_lines("well-", "Known") == "well- Known"  # capital: a real hyphen, keep it
    assert join_lines("这是一个", "句子。") == "这是一个句子。"
    assert join_lines("使用", "Docker 安装") == "使用 Docker 安装"
    assert join_lines("end.", "Next") == "end. Next"


def test_repeated_margin_lines_need_several_pages() -> None:
    def page(n: int, top: str) -> PageText:
        body = [PageLine(f"body text line {k} " * 3, 60, 500, 740 - 14 * k, 730 - 14 * k)
                for k in range(30)]
        return PageText(n, 800.0, [PageLine(top, 60, 300, 790, 780), *body,
                                   PageLine(str(n), 290, 300, 20, 10)])

    two = [page(1, "Running title"), page(2, "Running title")]
    assert (1, 0) not in running_lines(two)  # twice is not yet a pattern
    assert (1, 31) in running_lines(two)  # a bare page number always goes
    many = [page(n, "Running title") for n in range(1, 6)]
    dropped = running_lines(many)
    assert all((n, 0) in dropped for n in range(1, 6))
    assert not any((n, k) in dropped for n in range(1, 6) for k in range(1, 31))
    # Body text that repeats at the top of pages is not a running head: no white space under it.
    tight = [PageText(n, 800.0, [PageLine("Same first line", 60, 300, 745, 735), *page(n, "x").lines[1:]])
             for n in range(1, 6)]
    assert not any((n, 0) in running_lines(tight) for n in range(1, 6))


def test_running_header_dropped_on_short_pages(qapp: object, tmp_path: Path) -> None:
    # Pages with two or three lines (a chapter's last page) have no line spacing of their
    # own: the header's white space is judged against the document's body spacing.
    pages = [[Para("第一章 向量空间", 18), ZH * 2], [Para("第二章 矩阵", 18), EN],
             ["特征值与特征向量描述了线性变换的伸缩方向。"]]
    result = read_pdf(write_pdf(tmp_path / "short.pdf", pages, header="线性代数讲义"), "short")
    assert "线性代数讲义" not in result.doc_text
    assert "特征值与特征向量" in result.doc_text
    assert all(frag.text.strip() for frag in result.fragments)


def test_encrypted_pdf_is_refused_with_one_line(qapp: object, tmp_path: Path) -> None:
    path = encrypt_pdf(write_pdf(tmp_path / "secret.pdf", [[EN]]), "pw")
    with pytest.raises(UnreadableFile, match="password-protected"):
        read_pdf(path, "secret")


@pytest.mark.parametrize("data", [b"", b"%PDF-1.7\n", b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF",
                                  b"not a pdf at all" * 100])
def test_malformed_pdf_is_refused(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "bad.pdf"
    path.write_bytes(data)
    with pytest.raises(UnreadableFile, match="PDF"):
        read_pdf(path, "bad")


def test_truncated_pdf_keeps_what_is_readable_or_refuses(qapp: object, tmp_path: Path) -> None:
    whole = book(tmp_path).read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(whole[: len(whole) * 2 // 3])
    try:
        result = read_pdf(path, "cut")
    except UnreadableFile as exc:
        assert "PDF" in exc.reason
    else:
        check_fragments(result)


def test_image_only_pdf_without_ocr_is_a_reason_not_an_empty_document(qapp: object, tmp_path: Path) -> None:
    path = write_image_pdf(tmp_path / "scan.pdf", ["扫描的页面 Scanned page"], pages=2)
    with pytest.raises(UnreadableFile, match="no text layer"):
        read_pdf(path, "scan")
    waiting = read_pdf(path, "scan", ocr_ready=True)  # OCR installed: pages wait for it
    assert waiting.fragments == [] and waiting.ocr_pages == (1, 2)


def test_mixed_pdf_lists_scanned_pages_for_ocr(qapp: object, tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    text = write_pdf(tmp_path / "t.pdf", [[EN], [ZH]])
    scan = write_image_pdf(tmp_path / "s.pdf", ["scanned"])
    writer = PdfWriter()
    for part in (text, scan):
        for page in PdfReader(str(part)).pages:
            writer.add_page(page)
    mixed = tmp_path / "mixed.pdf"
    with open(mixed, "wb") as fh:
        writer.write(fh)
    result = read_pdf(mixed, "mixed")
    assert result.ocr_pages == (3,)
    assert any("wait for OCR" in n for n in result.notes)
    assert {f.page for f in result.fragments} == {1, 2}


def test_progress_and_cancel_between_pages(qapp: object, tmp_path: Path) -> None:
    path = book(tmp_path, pages=6)
    seen: list[tuple[int, int]] = []
    read_pdf(path, "b", on_page=lambda done, total: seen.append((done, total)))
    assert seen == [(n, 6) for n in range(1, 7)]

    def stop(done: int, _total: int) -> None:
        if done == 2:
            raise Cancelled()

    with pytest.raises(Cancelled):
        read_pdf(path, "b", on_page=stop)


def flowed_book(tmp_path: Path, chapters: int, paras: int) -> Path:
    from doc_fixtures import write_flowed_pdf

    blocks = []
    for c in range(1, chapters + 1):
        blocks.append(("h2", f"第 {c} 章 Chapter {c}"))
        for p in range(paras):
            blocks.append(("p", f"第{c}章第{p}段。{ZH * 2} {EN} Paragraph {c}.{p} ends here."))
    return write_flowed_pdf(tmp_path / "flowed.pdf", blocks)


def test_word_processor_layout_paragraphs_pages_and_headings(qapp: object, tmp_path: Path) -> None:
    """Qt's own pagination: paragraphs run across page breaks, page numbers in the footer,
    and PDFium sometimes reports two visual lines as one."""
    result = read_pdf(flowed_book(tmp_path, chapters=4, paras=12), "flowed")
    check_fragments(result)
    assert {f.heading_path for f in result.fragments} == {f"第 {c} 章 Chapter {c}" for c in range(1, 5)}
    for c in range(1, 5):
        for p in range(12):
            marker = f"第{c}章第{p}段。"
            (frag,) = [f for f in result.fragments if marker in f.text]
            assert frag.heading_path == f"第 {c} 章 Chapter {c}"
            # The paragraph is whole: it ends where it ends, even across a page break.
            tail = frag.text[frag.text.index(marker):]
            assert f"Paragraph {c}.{p} ends here." in tail
    assert max(len(f.text) for f in result.fragments) <= 1500 + len(ZH) * 2 + len(EN) + 40
    assert all(f.page_end - f.page <= 1 for f in result.fragments)
    assert not any(line.strip().isdigit() for line in result.doc_text.split("\n"))


@pytest.mark.slow
def test_thousand_page_pdf_progress_cancel_and_bounded_memory(qapp: object, tmp_path: Path) -> None:
    import resource
    import threading

    from pypdf import PdfReader, PdfWriter

    ten = PdfReader(str(flowed_book(tmp_path, chapters=2, paras=40)))  # about ten pages
    writer = PdfWriter()
    while len(writer.pages) < 1000:  # the same pages again and again: a 1,000-page book
        for page in ten.pages:
            writer.add_page(page)
    path = tmp_path / "thousand.pdf"
    with open(path, "wb") as fh:
        writer.write(fh)
    seen: list[int] = []
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = read_pdf(path, "big", on_page=lambda done, total: seen.append(total))
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    pages = seen[-1]
    assert pages >= 1000 and len(seen) == pages
    assert {f.page for f in result.fragments} == set(range(1, pages + 1))
    assert grown_mb < 400, f"reading {pages} pages grew the process by {grown_mb:.0f} MB"
    stop = threading.Event()

    def on_page(done: int, _total: int) -> None:
        if done == 50:
            stop.set()
        if stop.is_set():
            raise Cancelled()

    with pytest.raises(Cancelled):
        read_pdf(path, "big", on_page=on_page)
