"""JSON: pretty-printed, one fragment per top-level key (or run of array elements).

Minified JSON would otherwise be one unreadable line; invalid JSON is kept as
written and split like text.
"""

from __future__ import annotations

import json

from desktop_kb.importer.model import SplitResult
from desktop_kb.importer.pieces import PACK_CHARS, Piece, finish
from desktop_kb.importer.plain_text import text_fallback

__all__ = ["split_json"]


def _indent_rest(text: str) -> str:
    return text.replace("\n", "\n  ")


def split_json(doc: str, stem: str) -> SplitResult:
    """Pretty-printed JSON, one fragment per top-level key (or run of elements).

    Minified JSON would otherwise be one unreadable line; invalid JSON is kept
    as written and split like text.
    """
    duplicates: dict[str, None] = {}  # ordered set

    def pairs_hook(pairs: list[tuple[str, object]]) -> dict[str, object]:
        obj: dict[str, object] = {}
        for key, value in pairs:
            if key in obj:
                duplicates[key] = None
            obj[key] = value
        return obj

    try:
        data = json.loads(doc, object_pairs_hook=pairs_hook)
        # Build the pretty text item by item so every item's span is known;
        # the result is exactly json.dumps(data, ensure_ascii=False, indent=2).
        items: list[tuple[str, str]] = []  # (heading, item text)
        if isinstance(data, dict):
            for key, value in data.items():
                item = (json.dumps(key, ensure_ascii=False) + ": "
                        + json.dumps(value, ensure_ascii=False, indent=2))
                items.append((key or '""', _indent_rest(item)))
            open_, close = "{", "}"
        elif isinstance(data, list):
            for i, value in enumerate(data):
                items.append((f"[{i}]", _indent_rest(json.dumps(value, ensure_ascii=False, indent=2))))
            open_, close = "[", "]"
        else:
            pretty = json.dumps(data, ensure_ascii=False, indent=2)
            open_ = close = ""
    except json.JSONDecodeError as exc:
        return text_fallback(doc, stem, f"invalid JSON (line {exc.lineno}: {exc.msg}); split into paragraphs")
    except RecursionError:
        return text_fallback(doc, stem, "JSON nested too deeply to read; split into paragraphs")
    except ValueError as exc:  # e.g. an integer with too many digits
        return text_fallback(doc, stem, f"JSON could not be read ({exc}); split into paragraphs")

    notes = []
    if duplicates:
        shown = ", ".join(list(duplicates)[:3]) + (", ..." if len(duplicates) > 3 else "")
        notes.append(f"duplicate JSON keys ({shown}); only the last value of each was kept")
    if not open_:  # a scalar document
        if not _utf8_ok(pretty):
            return text_fallback(doc, stem, "JSON contains invalid Unicode escapes; split into paragraphs")
        return finish(pretty, stem, [(0, len(pretty), "")], notes)
    if not items:
        return SplitResult(doc_text=open_ + close, title=stem, fragments=[], notes=notes)

    chunks = [open_, "\n"]
    spans: list[tuple[int, int, str]] = []
    pos = 2
    for i, (heading, item) in enumerate(items):
        chunks.append("  ")
        pos += 2
        spans.append((pos, pos + len(item), heading))
        chunks.append(item)
        pos += len(item)
        sep = ",\n" if i + 1 < len(items) else "\n"
        chunks.append(sep)
        pos += len(sep)
    chunks.append(close)
    pretty = "".join(chunks)
    if not _utf8_ok(pretty):
        return text_fallback(doc, stem, "JSON contains invalid Unicode escapes; split into paragraphs")

    if isinstance(data, dict):
        pieces = spans
    else:  # arrays: pack runs of small elements, headed "[i-j]"
        pieces = []
        run: list[tuple[int, int, str]] = []
        for span in spans:
            if run and span[1] - run[0][0] > PACK_CHARS:
                pieces.append(_json_run(run))
                run = []
            run.append(span)
        pieces.append(_json_run(run))
    return finish(pretty, stem, pieces, notes)


def _utf8_ok(text: str) -> bool:
    """False if ``\\ud800``-style escapes decoded to lone surrogates, which
    SQLite cannot store as UTF-8; the file is then kept as written."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_run(run: list[tuple[int, int, str]]) -> Piece:
    if len(run) == 1:
        return run[0]
    first, last = run[0][2][1:-1], run[-1][2][1:-1]
    return run[0][0], run[-1][1], f"[{first}-{last}]"
