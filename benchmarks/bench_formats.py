"""Study-material formats (issue 14): extraction quality and speed.

    .venv/bin/python benchmarks/bench_formats.py [--drcd ../shared/eval/drcd_dev.json]
        [--model use-multilingual|none] [--pages 300] [--ocr-pages 3] [--skip-quality]

1. Extraction quality: the DRCD dev paragraphs written as one plain-text file
   (the baseline) and as a multi-page PDF (Qt, paginated, with page numbers),
   a Word file, an EPUB and a saved web page are each imported and evaluated
   with ``desktop-kb eval --corpus`` on the DRCD questions: R@1 per mode, and
   the difference from the plain-text import (target: within 0.01).
2. Text-layer speed: pages/s reading a generated 300-page textbook PDF with
   the importer, against raw PDFium text extraction of the same pages in the
   same run (the ratio is what matters on a loaded machine).
3. OCR speed (if OCR is installed in the data dir given by --ocr-data, or
   installable from --ocr-wheels): pages/s for scanned pages through the
   importer, against the raw RapidOCR call on the same rendered pages.
4. GUI responsiveness: the 300-page textbook imported from the main window;
   the longest event-loop stall while it is read, split and indexed, beside the
   same heartbeat with nothing running (the machine's own noise).
5. Fragments worth finding (issue 12 item 8), on a real book (``--book``, the
   Chinese Rust book by default): chunks that are nothing but a heading, and
   how many fragments share a title with another document's fragment.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

STALL_BUDGET_MS = 50.0


def _app() -> object:
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(sys.argv[:1])


def paragraphs_of(squad: Path) -> list[str]:
    data = json.loads(squad.read_text(encoding="utf-8"))
    return [p["context"] for a in data["data"] for p in a["paragraphs"]]


# ----- writers ------------------------------------------------------------------------------


def write_txt(paras: list[str], path: Path) -> Path:
    path.write_text("\n\n".join(paras) + "\n", encoding="utf-8")
    return path


def write_pdf_flow(paras: list[str], path: Path, headings_every: int = 0) -> Path:
    """Paragraphs flowed over A4 pages by Qt's own pagination (page numbers in the footer)."""
    from doc_fixtures import write_flowed_pdf

    blocks: list[tuple[str, str]] = []
    for i, para in enumerate(paras):
        if headings_every and i % headings_every == 0:
            n = i // headings_every + 1
            blocks.append(("h2", f"第 {n} 章 Chapter {n}"))
        blocks.append(("p", para))
    return write_flowed_pdf(path, blocks)


def write_docx(paras: list[str], path: Path) -> Path:
    import docx

    document = docx.Document()
    for i, para in enumerate(paras):
        if i % 50 == 0:
            document.add_heading(f"第 {i // 50 + 1} 部分", level=1)
        document.add_paragraph(para)
    document.save(str(path))
    return path


def write_epub(paras: list[str], path: Path) -> Path:
    import html

    from doc_fixtures import write_epub as epub

    chapters = []
    for start in range(0, len(paras), 50):
        body = "".join(f"<p>{html.escape(p)}</p>" for p in paras[start:start + 50])
        chapters.append((f"第 {start // 50 + 1} 章", body))
    return epub(path, chapters, title="DRCD")


def write_html(paras: list[str], path: Path) -> Path:
    import html

    nav = "<nav>" + " ".join(f"<a href='#{i}'>link {i}</a>" for i in range(50)) + "</nav>"
    body = "".join(f"<h2>段落 {i}</h2><p>{html.escape(p)}</p>" if i % 25 == 0 else f"<p>{html.escape(p)}</p>"
                   for i, p in enumerate(paras))
    path.write_text(f"<html><head><title>DRCD</title><script>var x=1;</script></head><body>{nav}"
                    f"<article>{body}</article><footer>footer text</footer></body></html>", encoding="utf-8")
    return path


# ----- 1. quality ---------------------------------------------------------------------------


def quality(drcd: Path, model: str | None, models_dir: Path | None, tmp: Path) -> dict[str, object]:
    from desktop_kb.evaluation import run_eval

    paras = paragraphs_of(drcd)
    corpora = {
        "txt": write_txt(paras, tmp / "drcd.txt"),
        "pdf": write_pdf_flow(paras, tmp / "drcd.pdf"),
        "docx": write_docx(paras, tmp / "drcd.docx"),
        "epub": write_epub(paras, tmp / "drcd.epub"),
        "html": write_html(paras, tmp / "drcd.html"),
    }
    out: dict[str, object] = {}
    for name, corpus in corpora.items():
        started = time.perf_counter()
        result = run_eval(drcd, corpus=corpus, model=model or "none", models_dir=models_dir,
                          budget_chars=600)
        result["seconds"] = round(time.perf_counter() - started, 1)
        out[name] = result
        print(f"  {name}: lexical R@1 {result['lexical']['r1']}, hybrid R@1 {result['hybrid']['r1']}, "
              f"chunks {result['corpus']['chunks']} (unlabelled fragments {result['corpus']['unlabelled_fragments']})",
              flush=True)
    return out


# ----- 2. text layer ------------------------------------------------------------------------


def textbook(path: Path, pages: int) -> Path:
    """A generated textbook: chapters, sections, Chinese and English paragraphs."""
    rng = random.Random(3)
    zh = ["矩阵", "向量", "线性变换", "特征值", "行列式", "基", "维数", "内积", "正交", "秩"]
    en = ["matrix", "vector", "linear map", "eigenvalue", "determinant", "basis", "dimension"]
    paras = []
    for _ in range(pages * 8):  # about eight of these paragraphs fill an A4 page
        words = "".join(rng.choice(zh) + rng.choice("，的是和在。") for _k in range(30))
        latin = " ".join(rng.choice(en) for _k in range(25))
        paras.append(f"{words} {latin}.")
    return write_pdf_flow(paras, path, headings_every=24)


def text_layer(pdf: Path) -> dict[str, float]:
    import pypdfium2 as pdfium

    from desktop_kb.importer.pdf import read_pdf

    started = time.perf_counter()
    doc = pdfium.PdfDocument(str(pdf))
    n = len(doc)
    for i in range(n):
        page = doc[i]
        tp = page.get_textpage()
        tp.get_text_range()
        tp.close()
        page.close()
    doc.close()
    raw_s = time.perf_counter() - started
    started = time.perf_counter()
    result = read_pdf(pdf, "textbook")
    ours_s = time.perf_counter() - started
    return {"pages": n, "raw_pdfium_pages_per_s": round(n / raw_s, 1),
            "importer_pages_per_s": round(n / ours_s, 1), "ratio_to_raw": round(raw_s / ours_s, 3),
            "fragments": len(result.fragments)}


# ----- 3. OCR -------------------------------------------------------------------------------


def ocr_speed(data: Path, pages: int, tmp: Path) -> dict[str, float] | None:
    from doc_fixtures import write_image_pdf

    from desktop_kb.importer.ocr import RENDER_DPI
    from desktop_kb.importer.ocr_install import OcrManager
    from desktop_kb.importer.pdf import read_pdf

    manager = OcrManager(data)
    if not manager.installed:
        return None
    engine = manager.load_engine()
    lines = ["第三章 线性变换与矩阵", "一个线性变换由它在一组基上的取值决定。",
             "The matrix of a linear map depends on the chosen bases.", "特征值是特征多项式的根。"] * 4
    pdf = write_image_pdf(tmp / "scan.pdf", lines, pages=pages)
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    images = [doc[i].render(scale=RENDER_DPI / 72).to_numpy()[:, :, :3] for i in range(len(doc))]
    raw = engine._ocr  # type: ignore[attr-defined]
    started = time.perf_counter()
    for image in images:
        raw(image)
    raw_s = time.perf_counter() - started
    started = time.perf_counter()
    result = read_pdf(pdf, "scan", ocr=engine)  # type: ignore[arg-type]
    ours_s = time.perf_counter() - started
    return {"pages": pages, "raw_rapidocr_pages_per_s": round(pages / raw_s, 3),
            "importer_pages_per_s": round(pages / ours_s, 3), "ratio_to_raw": round(raw_s / ours_s, 3),
            "chars": len(result.doc_text)}


# ----- 4. GUI -------------------------------------------------------------------------------


def gui_import(pdf: Path, tmp: Path) -> dict[str, float]:
    from PySide6.QtCore import QEventLoop, QTimer

    from desktop_kb.ui.main_window import MainWindow

    _app()
    window = MainWindow(tmp / "gui-lib")
    window.resize(1280, 800)
    window.show()
    loop = QEventLoop()
    window.libraryOpened.connect(lambda _lib: loop.quit())
    loop.exec()
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    heartbeat = QTimer(interval=10)
    heartbeat.timeout.connect(tick)
    # The same heartbeat with nothing to do: the noise floor of this (loaded) machine.
    heartbeat.start()
    last[0] = time.perf_counter()
    idle = QEventLoop()
    QTimer.singleShot(5000, idle.quit)
    idle.exec()
    heartbeat.stop()
    idle_ms = sorted(g * 1000 for g in gaps)
    gaps.clear()
    done: list[object] = []
    window.import_export.importFinished.connect(lambda s: (done.append(s), loop.quit()))
    started = time.perf_counter()
    heartbeat.start()
    last[0] = time.perf_counter()
    window.import_export.import_paths([pdf])
    loop.exec()
    imported_s = time.perf_counter() - started
    assert window.library is not None
    window.library.drain()
    indexed_s = time.perf_counter() - started
    heartbeat.stop()
    if window.import_export.import_summary is not None:
        window.import_export.import_summary.close()
    window.close()
    window.shutdown()
    gaps_ms = sorted(g * 1000 for g in gaps)
    return {"idle_stall_max_ms": round(idle_ms[-1], 1),
            "idle_stall_p99_ms": round(idle_ms[int(len(idle_ms) * 0.99) - 1], 1),
            "import_s": round(imported_s, 2), "import_and_index_s": round(indexed_s, 2),
            "ticks": len(gaps_ms), "stall_max_ms": round(gaps_ms[-1], 1),
            "stall_p99_ms": round(gaps_ms[int(len(gaps_ms) * 0.99) - 1], 1),
            "tick_median_ms": round(statistics.median(gaps_ms), 1)}


def book_report(book: Path, tmp: Path) -> dict[str, object]:
    from collections import Counter

    from desktop_kb.index.sources import fragment_title
    from desktop_kb.library import Library

    with Library(tmp / "book-lib", load_model=False) as lib:
        lib.import_paths([book])
        lib.drain()
        texts = {f.id: f for d in lib.list_documents() for f in lib.list_fragments(d.id)}
        titles = Counter(fragment_title(d.title, f.heading_path)
                         for d in lib.list_documents() for f in lib.list_fragments(d.id))
        chunks = heading_only = 0
        for sid, start, end in lib.index_reader.execute(
                "SELECT source_id, start, end FROM kb_chunks WHERE source_type = 'fragment'"):
            chunks += 1
            body = [ln for ln in texts[sid].text[start:end].splitlines()
                    if ln.strip() and not ln.lstrip().startswith("#")]
            heading_only += not body
        last = Counter(t.rsplit(" > ", 1)[-1] for t in titles.elements())
    return {"fragments": len(texts),
            "chunks": chunks, "heading_only_chunks": heading_only,
            "fragments_sharing_a_title": sum(n for n in titles.values() if n > 1),
            "most_common_last_heading": last.most_common(1)[0] if last else None}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--drcd", type=Path, default=ROOT.parent.parent / "shared" / "eval" / "drcd_dev.json")
    parser.add_argument("--model", default="none", help="embedding model for hybrid (default: none)")
    parser.add_argument("--models-dir", type=Path)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--ocr-pages", type=int, default=3)
    parser.add_argument("--ocr-data", type=Path, help="a data dir with OCR installed")
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--book", type=Path,
                        default=ROOT.parent.parent / "shared" / "corpora" / "rust-book-cn")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    report: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="bench-formats-") as tmp_name:
        tmp = Path(tmp_name)
        if args.book.is_dir():
            report["book"] = book_report(args.book, tmp)
            print("book:", report["book"], flush=True)
        book = textbook(tmp / "textbook.pdf", args.pages)
        report["text_layer"] = text_layer(book)
        print("text layer:", report["text_layer"], flush=True)
        if args.ocr_data:
            report["ocr"] = ocr_speed(args.ocr_data, args.ocr_pages, tmp)
            print("ocr:", report["ocr"], flush=True)
        report["gui_import"] = gui_import(book, tmp)
        print("gui import:", report["gui_import"], flush=True)
        if not args.skip_quality:
            model = None if args.model == "none" else args.model
            report["quality"] = quality(args.drcd, model, args.models_dir, tmp)
    print(json.dumps(report, ensure_ascii=False, indent=2))
    if "quality" in report:
        q = report["quality"]
        base = q["txt"]  # type: ignore[index]
        for name, result in q.items():  # type: ignore[union-attr]
            for mode in ("lexical", "hybrid"):
                diff = result[mode]["r1"] - base[mode]["r1"]
                print(f"{name:5} {mode:8} R@1 {result[mode]['r1']:.4f}  vs txt {diff:+.4f} "
                      f"{'OK' if abs(diff) <= 0.01 else 'OVER'}")
    stall = report["gui_import"]["stall_max_ms"]  # type: ignore[index]
    print(f"event-loop stall importing a {args.pages}-page PDF: max {stall} ms "
          f"(budget ≤ {STALL_BUDGET_MS} ms) {'OK' if stall <= STALL_BUDGET_MS else 'OVER'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
