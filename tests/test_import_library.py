"""Importing real documents into a real library: pages stored, text searchable, skips reported."""

from __future__ import annotations

from pathlib import Path

from doc_fixtures import Para, write_docx, write_epub, write_image_pdf, write_pdf

from desktop_kb.store import documents as docs


def test_folder_of_documents_imports_with_pages_and_reasons(qapp: object, library, tmp_path: Path) -> None:
    root = tmp_path / "study"
    root.mkdir()
    write_pdf(root / "线性代数.pdf", [
        [Para("第一章 向量", size=18), Para("一个向量空间是一个集合。向量可以相加。")],
        [Para("The rank of a matrix is the dimension of its column space.")],
    ], title="线性代数")
    write_image_pdf(root / "scan.pdf", ["扫描"])
    write_docx(root / "net.docx", [("h1", "网络"), ("p", "TCP 三次握手建立连接。")])
    write_epub(root / "os.epub", [("第一章", "<p>进程调度决定谁先运行。</p>")], title="操作系统")
    (root / "page.html").write_text("<main><h1>Docker</h1><p>容器镜像分层存储。</p></main>", encoding="utf-8")
    (root / "Dockerfile").write_text("FROM alpine\nRUN apk add curl\n", encoding="utf-8")
    (root / "package-lock.json").write_text("{}", encoding="utf-8")
    (root / "slides.pptx").write_bytes(b"PK")

    summary = library.import_paths([root])
    library.drain()
    assert dict(summary.per_format) == {"dockerfile": 1, "docx": 1, "epub": 1, "html": 1, "pdf": 1}
    skipped = dict((Path(p).name, r) for p, r in summary.skipped)
    assert skipped["scan.pdf"].startswith("no text layer")
    assert skipped["package-lock.json"].startswith("lockfile")
    assert skipped["slides.pptx"] == "`.pptx` is not supported yet (PowerPoint)"

    pdf = next(d for d in library.list_documents() if d.format == "pdf")
    assert pdf.title == "线性代数"
    frags = library.list_fragments(pdf.id)
    assert [f.page for f in frags] == [1, 2]
    assert frags[0].heading_path == "第一章 向量"

    # Text Qt wrote with Kangxi radicals is found by ordinary queries, with its page.
    hit = library.search("一个向量空间", mode="lexical").results[0]
    assert hit.source_type == "fragment" and hit.document_id == pdf.id
    assert "一个向量空间" in hit.snippet
    # The locator travels with the hit: title, JSON.
    assert hit.title == "线性代数 > 第一章 向量 · p. 1"
    assert hit.as_json()["page"] == 1
    rank = library.search("rank column space", mode="lexical").results[0]
    assert rank.title == "线性代数 > 第一章 向量 · p. 2" and rank.page == 2
    assert library.search("三次握手", mode="lexical").results[0].title.startswith("网络")
    assert library.search("进程调度", mode="lexical").results[0].title == "操作系统 > 第一章"

    again = library.import_paths([root])
    assert again.unchanged == 5 and again.added == again.updated == 0


def test_scan_waits_for_ocr_when_it_is_installed(qapp: object, library, tmp_path: Path, monkeypatch) -> None:
    path = write_image_pdf(tmp_path / "scan.pdf", ["扫描"], pages=2)
    monkeypatch.setattr(type(library.ocr), "installed", property(lambda self: True))
    summary = library.import_paths([path])
    assert summary.added == 1 and summary.skipped == []
    (doc,) = library.list_documents()
    assert doc.ocr_pending == 2 and summary.ocr_documents == [doc.id]
    assert [d.id for d in library.documents_waiting_for_ocr()] == [doc.id]


def test_pages_survive_reopen(qapp: object, data_dir: Path, tmp_path: Path) -> None:
    from desktop_kb.library import Library

    path = write_pdf(tmp_path / "p.pdf", [["page one text here."], ["page two text here."]])
    with Library(data_dir) as lib:
        lib.import_paths([path])
        lib.drain()
    with Library(data_dir) as lib:
        (doc,) = lib.list_documents()
        assert [(f.page, f.page_end) for f in docs.list_fragments(lib.store_reader, doc.id)] == [(1, 1), (2, 2)]
