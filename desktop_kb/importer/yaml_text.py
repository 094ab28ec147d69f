"""YAML, split textually: documents, then top-level keys at column 0.

No YAML parser, so broken YAML still splits and nothing here can raise.
"""

from __future__ import annotations

import re

from desktop_kb.importer.model import SplitResult
from desktop_kb.importer.pieces import Piece, finish, line_spans, paragraph_pieces

__all__ = ["split_yaml", "yaml_title"]


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value.strip()


_TITLE_LINE = re.compile(r"^title[ \t]*:(.*)$", re.MULTILINE)


def yaml_title(block: str) -> str | None:
    """Inline ``title:`` value of a YAML block (text-level; no YAML parser)."""
    m = _TITLE_LINE.search(block)
    if m is None:
        return None
    value = m.group(1).strip()
    if value[:1] not in ("\"", "'"):
        value = re.split(r"[ \t]#", value, maxsplit=1)[0]
    value = _unquote(value)
    return value if value and value not in {"|", ">", "|-", ">-", "|+", ">+"} else None


_YAML_DOC_SEP = re.compile(r"(---|\.\.\.)(?:[ \t]+(.*))?")
_YAML_QUOTED_KEY = re.compile(r"""(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\n]|'')*)')[ \t]*:(?:[ \t]|$)""")
_YAML_KEY_COLON = re.compile(r":(?:[ \t]|$)")
_YAML_NOT_KEY_START = set(" \t#-?:,[]{}&*!|>%@`")


def _yaml_key(line: str) -> str | None:
    """The top-level key a column-0 line introduces, if any.

    Comments, list items, directives and flow collections are not keys, so
    they stay with the block before them.
    """
    if not line or line[0] in _YAML_NOT_KEY_START:
        return None
    if line[0] in "\"'":
        m = _YAML_QUOTED_KEY.match(line)
        return None if m is None else next(g for g in m.groups() if g is not None)
    m = _YAML_KEY_COLON.search(line)
    if m is None:
        return None
    key = line[: m.start()].rstrip()
    return None if (" #" in key or "\t#" in key) else key


def split_yaml(doc: str, stem: str) -> SplitResult:
    """Documents, then top-level keys, found textually so broken YAML still splits."""
    # Documents: ranges between separator lines.  A bare "---" line belongs to
    # no fragment; "--- value" starts its document with that line.
    docs: list[tuple[int, int]] = []
    doc_start = 0
    for ls, le in line_spans(doc, 0, len(doc)):
        m = _YAML_DOC_SEP.fullmatch(doc[ls:le])
        if m is None:
            continue
        docs.append((doc_start, ls))
        rest = (m.group(2) or "").strip()
        doc_start = ls if (m.group(1) == "---" and rest and not rest.startswith("#")) else le
    docs.append((doc_start, len(doc)))
    docs = [(s, e) for s, e in docs if doc[s:e].strip()]

    multi = len(docs) > 1
    pieces: list[Piece] = []
    notes: list[str] = []
    title: str | None = None
    for n, (ds, de) in enumerate(docs, 1):
        prefix = f"doc {n}" if multi else ""
        keys: list[tuple[int, str]] = []
        for ls, le in line_spans(doc, ds, de):
            key = _yaml_key(doc[ls:le])
            if key is not None:
                keys.append((ls, key.strip() or '""'))
        if not keys:
            if not notes:
                notes.append("no top-level YAML keys found; split into paragraphs")
            pieces.extend(paragraph_pieces(doc, ds, de, prefix))
            continue
        if n == 1:
            title = yaml_title(doc[ds:de])
        pieces.append((ds, keys[0][0], prefix))
        for i, (ls, key) in enumerate(keys):
            end = keys[i + 1][0] if i + 1 < len(keys) else de
            pieces.append((ls, end, f"{prefix} > {key}" if prefix else key))
    return finish(doc, title or stem, pieces, notes)
