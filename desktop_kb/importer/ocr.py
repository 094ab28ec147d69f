"""Optical character recognition of scanned pages, Chinese and English.

The engine is RapidOCR (``rapidocr-onnxruntime``, Apache-2.0): PaddleOCR's
PP-OCRv4 detection and recognition models exported to ONNX and shipped inside
the wheel, run by the onnxruntime the app already has — nothing is fetched
from a model hub at run time.  It is installed on demand (``ocr_install``);
this module turns its boxes into the positioned lines the PDF layout code
already understands, so a scanned page gets the same paragraphing, header
and page-number removal as a text page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from desktop_kb.importer.pdf_layout import PageLine, join_lines

__all__ = ["OcrEngine", "RapidOcrEngine", "boxes_to_lines"]

RENDER_DPI = 200  # enough for body text; more costs time quadratically
_MIN_SCORE = 0.5


class OcrEngine(Protocol):
    def page_lines(self, image: Any, page_height: float, scale: float) -> list[PageLine]:
        """Lines of text on a rendered page (``image``: H×W×3 uint8, BGR), in PDF units."""
        ...


Box = tuple[Sequence[Sequence[float]], str, float]  # (4 corner points, text, score)


def boxes_to_lines(boxes: Sequence[Box], page_height: float, scale: float) -> list[PageLine]:
    """Recognised boxes → lines top to bottom, boxes on one line joined left to right.

    ``scale`` is pixels per PDF unit; y is flipped so lines read like a text
    layer's (y grows upwards).
    """
    items = []
    for points, text, score in boxes:
        text = " ".join(str(text).split())
        if not text or float(score) < _MIN_SCORE:
            continue
        xs = [float(p[0]) for p in points]
        ys = [float(p[1]) for p in points]
        items.append((min(ys), max(ys), min(xs), max(xs), text))
    items.sort(key=lambda it: ((it[0] + it[1]) / 2, it[2]))
    rows: list[list[tuple[float, float, float, float, str]]] = []
    for item in items:
        if rows:
            last = rows[-1]
            top = min(i[0] for i in last)
            bottom = max(i[1] for i in last)
            overlap = min(bottom, item[1]) - max(top, item[0])
            if overlap > 0.5 * min(bottom - top, item[1] - item[0]):
                last.append(item)
                continue
        rows.append([item])
    lines = []
    for row in rows:
        row.sort(key=lambda it: it[2])
        text = ""
        for it in row:
            text = join_lines(text, it[4])
        y_top = min(i[0] for i in row)
        y_bottom = max(i[1] for i in row)
        lines.append(PageLine(
            text, min(i[2] for i in row) / scale, max(i[3] for i in row) / scale,
            page_height - y_top / scale, page_height - y_bottom / scale, 0.0))
    return lines


class RapidOcrEngine:
    """RapidOCR, loaded once per engine (loading the three models takes seconds)."""

    def __init__(self, threads: int = 2) -> None:
        from rapidocr_onnxruntime import RapidOCR  # installed on demand

        self._ocr = RapidOCR(intra_op_num_threads=threads, inter_op_num_threads=1)

    def page_lines(self, image: Any, page_height: float, scale: float) -> list[PageLine]:
        result, _elapsed = self._ocr(image)
        return boxes_to_lines(result or [], page_height, scale)
