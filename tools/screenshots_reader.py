"""Screenshots of the document reader and Settings → OCR (imported by tools/screenshots.py).

A small bilingual textbook PDF with bookmarks is written with Qt and pypdf into
the demo folder before it is imported; the reader shot opens it from a search
hit on page 2, with the passage and the hit highlighted and the outline beside.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

CHAPTERS = [
    ("第一章 向量空间 Vector spaces", [
        "向量空间是一个集合，其中定义了加法和数乘两种运算，并且满足八条公理。",
        "A vector space over a field is a set with addition and scalar multiplication that "
        "satisfy eight axioms. Subspaces, spans and linear independence follow from them.",
        "线性无关的向量组如果能张成整个空间，就称为一组基；所有基的向量个数相同，称为维数。",
    ]),
    ("第二章 特征值 Eigenvalues", [
        "若 Av = λv 且 v 不为零，则 λ 是矩阵 A 的特征值，v 是对应的特征向量。",
        "Eigenvalues are the roots of the characteristic polynomial det(A − λI) = 0. "
        "A matrix with n distinct eigenvalues can be diagonalised.",
        "对称矩阵的特征值都是实数，不同特征值对应的特征向量彼此正交。",
    ]),
]


def write_demo_pdf(folder: Path) -> Path:
    from doc_fixtures import add_outline, write_flowed_pdf

    blocks: list[tuple[str, str]] = []
    for title, paras in CHAPTERS:
        blocks.append(("h2", title))
        blocks += [("p", p) for p in paras * 6]
    folder.mkdir(parents=True, exist_ok=True)
    path = write_flowed_pdf(folder / "线性代数讲义.pdf", blocks)
    from pypdf import PdfReader

    pages = len(PdfReader(str(path)).pages)
    return add_outline(path, [(1, CHAPTERS[0][0], 1), (1, CHAPTERS[1][0], max(2, pages // 2 + 1))])


def shoot_reader(window: Any, language: str, save: Callable[[str, Any], None],
                 compose: Callable[..., Any], center: Callable[..., None],
                 wait_until: Callable[..., None], settle: Callable[..., None]) -> None:
    query = "特征值 eigenvalues" if language == "en" else "对称矩阵的特征值"
    window.global_search.open_search_text(query)
    wait_until(lambda: any(r.title.startswith("线性代数") or "Eigenvalues" in r.title
                           for r in window.search.results))
    window.search.hide()
    hit = next(r for r in window.search.results if r.source_type == "fragment" and r.page)
    window.centre.setCurrentWidget(window.reader)  # lay the reader out before it scrolls
    window.reader.splitter.setSizes([190, window.width() - 190])
    settle(0.2)
    window.global_search.open_result(hit)
    wait_until(lambda: window.reader.fragments and window.reader._focus is not None)
    settle(0.5)
    save("reader", compose(window, None))
    window.reader.find_field.setText("特征向量")
    settle(0.3)
    save("reader_find", compose(window, None))
    window.reader.find_field.clear()

    window.settings.open_settings()
    dialog = window.settings.dialog
    wait_until(lambda: dialog.snapshot is not None)
    dialog.tabs.setCurrentWidget(dialog.ocr_page)
    center(dialog, window)
    settle()
    save("settings_ocr", compose(window, dialog))
    dialog.close()
