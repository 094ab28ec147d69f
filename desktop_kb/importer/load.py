"""Opening one file for import: its fingerprint first, the parse only if it changed.

Text formats are decoded once (``files.read_text``); PDF, Word and EPUB are
hashed as bytes and read by their own modules.  Every failure is an
``UnreadableFile`` with one line a person can act on.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from desktop_kb.importer.files import human_size, read_text_noting
from desktop_kb.importer.formats import BINARY_FORMATS, document_stem, split_document, title_name
from desktop_kb.importer.generated import generated_by_content
from desktop_kb.importer.model import PageProgress, SplitResult, UnreadableFile
from desktop_kb.importer.ocr import OcrEngine

__all__ = ["GeneratedFile", "Opened", "open_document"]

MAX_BINARY_BYTES = {"pdf": 2 * 1024**3, "docx": 256 * 1024**2, "epub": 512 * 1024**2}
_CHUNK = 1 << 20


class GeneratedFile(UnreadableFile):
    """Skipped as generated or vendored; importable with the override."""


@dataclass(frozen=True)
class Opened:
    sha256: str
    parse: Callable[[], SplitResult]


def _hash_file(path: Path, fmt: str) -> str:
    try:
        size = os.stat(path).st_size
        limit = MAX_BINARY_BYTES[fmt]
        if size > limit:
            raise UnreadableFile(f"file too large ({human_size(size)}; the limit is {human_size(limit)})")
        digest = hashlib.sha256()
        with open(path, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                digest.update(chunk)
    except FileNotFoundError:
        raise UnreadableFile("file not found") from None
    except PermissionError:
        raise UnreadableFile("permission denied (the file cannot be read)") from None
    except IsADirectoryError:
        raise UnreadableFile("this is a folder, not a file") from None
    except OSError as exc:
        raise UnreadableFile(f"the file cannot be read ({exc.strerror or exc})") from None
    return digest.hexdigest()


def open_document(
    path: Path, fmt: str, *, include_generated: bool = False,
    on_page: PageProgress | None = None, ocr: OcrEngine | None = None, ocr_ready: bool = False,
) -> Opened:
    name = title_name(path)
    if fmt in BINARY_FORMATS:
        sha = _hash_file(path, fmt)
        stem = document_stem(name)
        # The readers (and PDFium) load only when a file of their kind comes along.
        if fmt == "pdf":
            from desktop_kb.importer.pdf import read_pdf

            return Opened(sha, lambda: read_pdf(path, stem, on_page=on_page, ocr=ocr,
                                                ocr_ready=ocr_ready))
        if fmt == "docx":
            from desktop_kb.importer.docx_text import read_docx

            return Opened(sha, lambda: read_docx(path, stem))
        from desktop_kb.importer.epub import read_epub

        return Opened(sha, lambda: read_epub(path, stem))
    text, sha, read_notes = read_text_noting(path)
    if not include_generated:
        reason = generated_by_content(text, fmt)
        if reason is not None:
            raise GeneratedFile(reason)

    def parse() -> SplitResult:
        split = split_document(text, fmt, name)
        return dataclasses.replace(split, notes=[*read_notes, *split.notes]) if read_notes else split

    return Opened(sha, parse)
