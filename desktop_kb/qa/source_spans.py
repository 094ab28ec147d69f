"""Detected spans per source version: the gate reads whole sources, never just a window (I11).

The detectors run over the whole text of a note or a fragment — for a
fragment together with its neighbours in the document, so a key block that
the importer split between two fragments is still recognised by its
``BEGIN`` line — and the spans are kept per version. A packed snippet is then
judged by the spans it overlaps, wherever its window starts or ends.

Where the spans live: they are derived data, like the index, but unlike the
index they must never lag the text that is about to be sent. So they are
keyed by a hash of the exact text (and its neighbours) and the detector
version, computed from the store's current text at the moment of packing,
and cached in memory. No process ever reads spans made for another version,
nothing is written to ``library.sqlite`` or ``index.sqlite`` (I1, I2), and
every process — the app, any CLI — computes the same spans for the same text.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass

from desktop_kb.qa.detectors import Finding, detect

DETECTOR_VERSION = "61"  # bump when detectors change: cached spans of the old version are not reused
CACHE_ENTRIES = 2048
NEIGHBOUR_CHARS = 4000  # a fragment's neighbours are read this far (the importer caps fragments at 4,000)
WHOLE_SOURCE_CHARS = 64_000  # longer sources are read around the window (see spans_for_text)
CONTEXT_CHARS = 16_000


@dataclass(frozen=True)
class SourceSpans:
    digest: str
    findings: tuple[Finding, ...]  # offsets into the source text

    def overlapping(self, start: int, end: int) -> list[Finding]:
        """Findings overlapping ``[start, end)``, clipped to it and shifted to window offsets."""
        return [Finding(f.kind, max(f.start, start) - start, min(f.end, end) - start)
                for f in self.findings if f.start < end and start < f.end]


_cache: OrderedDict[str, SourceSpans] = OrderedDict()
_lock = threading.Lock()


def _digest(text: str, before: str, after: str) -> str:
    h = hashlib.sha256(DETECTOR_VERSION.encode())
    for part in (before, text, after):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


_EDGE_LINES = 3
_B64_EDGE_RE = re.compile(r"^[ \t>\"'|]*[A-Za-z0-9+/]{40,}={0,2}[\"',\\n]*[ \t]*$")


def needs_neighbours(text: str) -> bool:
    """Whether something at the edges of ``text`` may continue into a neighbouring fragment.

    Only blocks that span lines can: a key body or armour at the start or end,
    a ``BEGIN`` without its ``END`` (or the reverse), a table whose header is
    in the fragment before. Single-line secrets never cross a fragment
    boundary (the importer splits between lines), so most fragments are read
    alone and the cost of reading neighbours is paid only where it matters.
    """
    lines = [line for line in text.split("\n") if line.strip()]
    edges = lines[:_EDGE_LINES] + lines[-_EDGE_LINES:]
    if any(_B64_EDGE_RE.match(line) or line.lstrip().startswith("|") for line in edges):
        return True
    return text.count("-----BEGIN") != text.count("-----END")


def spans_for_text(text: str, *, before: str = "", after: str = "",
                   window: tuple[int, int] | None = None) -> SourceSpans:
    """Spans in ``text``, read together with the text around it (``before``/``after``) where needed.

    A source longer than ``WHOLE_SOURCE_CHARS`` (a pasted book in one note) is
    read ``CONTEXT_CHARS`` either side of ``window`` — further than any
    multi-line secret reaches — so its first question does not wait for the
    detectors to read megabytes; the spans' offsets are still the source's.
    """
    if window is not None and len(text) > WHOLE_SOURCE_CHARS:
        return _spans_around(text, window)
    if (before or after) and not needs_neighbours(text):
        before = after = ""
    digest = _digest(text, before, after)
    with _lock:
        cached = _cache.get(digest)
        if cached is not None:
            _cache.move_to_end(digest)
            return cached
    sep_before = "\n" if before else ""
    combined = before + sep_before + text + ("\n" + after if after else "")
    offset = len(before) + len(sep_before)
    findings = tuple(
        Finding(f.kind, max(f.start, offset) - offset, min(f.end, offset + len(text)) - offset)
        for f in detect(combined) if f.start < offset + len(text) and offset < f.end)
    spans = SourceSpans(digest, findings)
    with _lock:
        _cache[digest] = spans
        while len(_cache) > CACHE_ENTRIES:
            _cache.popitem(last=False)
    return spans


def _spans_around(text: str, window: tuple[int, int]) -> SourceSpans:
    start = max(0, window[0] - CONTEXT_CHARS)
    end = min(len(text), window[1] + CONTEXT_CHARS)
    start = text.rfind("\n", 0, start) + 1 if start else 0  # whole lines, so no token is cut at the edge
    line_end = text.find("\n", end)
    end = len(text) if line_end < 0 else line_end
    region = spans_for_text(text[start:end])
    return SourceSpans(region.digest, tuple(Finding(f.kind, f.start + start, f.end + start)
                                            for f in region.findings))


def neighbours(store: sqlite3.Connection, fragment_id: int) -> tuple[str, str]:
    """The text of the fragments before and after one fragment in its document."""
    row = store.execute("SELECT document_id, ord FROM fragments WHERE id = ?", (fragment_id,)).fetchone()
    if row is None:
        return "", ""
    document_id, order = row[0], row[1]
    before = store.execute("SELECT text FROM fragments WHERE document_id = ? AND ord < ? "
                           "ORDER BY ord DESC LIMIT 1", (document_id, order)).fetchone()
    after = store.execute("SELECT text FROM fragments WHERE document_id = ? AND ord > ? "
                          "ORDER BY ord LIMIT 1", (document_id, order)).fetchone()
    return ((before[0][-NEIGHBOUR_CHARS:] if before else ""), (after[0][:NEIGHBOUR_CHARS] if after else ""))


def spans_for_source(store: sqlite3.Connection, source_type: str, source_id: int, text: str,
                     window: tuple[int, int] | None = None) -> SourceSpans:
    """Spans for the current version of a note or fragment whose text the caller just read."""
    if source_type == "fragment":
        before, after = neighbours(store, source_id)
        return spans_for_text(text, before=before, after=after, window=window)
    return spans_for_text(text, window=window)


def clear_cache() -> None:
    with _lock:
        _cache.clear()
