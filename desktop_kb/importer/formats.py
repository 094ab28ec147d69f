"""Per-format splitting of imported text into fragments with exact char offsets.

Fragments are what the library shows, what links point at and what citations
highlight, so every fragment is an exact slice of the stored document text
(``text == doc_text[start:end]``).  Splitting is pure and deterministic: a
re-import of unchanged text yields identical fragments, which lets the store
keep fragment ids (and the links to them) stable.  Nothing here may raise on
odd input: a file that is malformed for its format is still text.
"""

from __future__ import annotations

import ast
import json
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath

DEFAULT_FORMATS = ("md", "markdown", "txt", "yaml", "yml", "json", "py")

# Extension (or accepted alias) -> canonical format name.
_CANONICAL = {
    "md": "md", "markdown": "md",
    "txt": "txt", "text": "txt",
    "yaml": "yaml", "yml": "yaml",
    "json": "json",
    "py": "py",
}

MAX_FRAGMENT_CHARS = 4000  # hard cap for any fragment, every format
PACK_CHARS = 1500  # short neighbours are packed together up to this size


def canonical_format(fmt: str) -> str:
    """Map a format or extension name ("yml", ".Markdown") to md/txt/yaml/json/py.

    Raises ValueError for unknown names: that is a programming error, not bad input.
    """
    key = fmt.lower().lstrip(".")
    try:
        return _CANONICAL[key]
    except KeyError:
        raise ValueError(f"unknown format: {fmt!r}") from None


def format_of(path: Path) -> str | None:
    """Canonical format for a file by its extension, or None if not importable."""
    return _CANONICAL.get(path.suffix.lower().lstrip("."))


@dataclass(frozen=True)
class FragmentSpec:
    ord: int
    heading_path: str
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class SplitResult:
    doc_text: str
    title: str
    fragments: list[FragmentSpec]
    notes: list[str]


# A raw piece before trimming/capping: (start, end, heading_path).
_Piece = tuple[int, int, str]


def normalise_text(text: str) -> str:
    """Strip leading BOMs and turn CRLF/CR into LF, so offsets mean one thing."""
    text = text.lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def split_document(text: str, fmt: str, name: str) -> SplitResult:
    """Split ``text`` (of format ``fmt``; ``name`` is the file name or stem).

    The title falls back to the file stem.  Never raises on any text.
    """
    splitter = _SPLITTERS[canonical_format(fmt)]
    doc = normalise_text(text)
    stem = _stem(name)
    if not doc.strip():
        return SplitResult(doc_text=doc, title=stem, fragments=[], notes=[])
    return splitter(doc, stem)


def _stem(name: str) -> str:
    pure = PurePath(name)
    stem = pure.stem if pure.suffix.lower().lstrip(".") in _CANONICAL else pure.name
    return stem or name or "untitled"


# ---------------------------------------------------------------------------
# Shared machinery: trimming, capping, line packing, paragraphs.


def _line_spans(doc: str, start: int, end: int) -> list[tuple[int, int]]:
    """(line_start, line_end_excluding_newline) for lines in [start, end).

    Only ``\\n`` counts as a line break (matching Python's and YAML's view after
    normalisation; ``str.splitlines`` would also split on \\x0c, \\u2028, ...).
    """
    spans = []
    pos = start
    while pos < end:
        nl = doc.find("\n", pos, end)
        if nl < 0:
            spans.append((pos, end))
            break
        spans.append((pos, nl))
        pos = nl + 1
    return spans


def _trim(doc: str, start: int, end: int) -> tuple[int, int] | None:
    """Drop leading blank lines and trailing whitespace; None if nothing is left.

    Indentation of the first real line is kept (code, and Chinese paragraphs
    indented with full-width spaces).
    """
    while end > start and doc[end - 1].isspace():
        end -= 1
    while start < end:
        nl = doc.find("\n", start, end)
        if nl < 0:
            break
        if doc[start:nl].strip():
            break
        start = nl + 1
    if start >= end or not doc[start:end].strip():
        return None
    return start, end


_SENTENCE_END = re.compile(r"(?:[。！？!?…；]+|[.;](?=\s))[”’」』）)\]\"']*")
_WHITESPACE_RUN = re.compile(r"\s+")


def _last_match_end(pattern: re.Pattern[str], doc: str, start: int, end: int) -> int:
    last = -1
    for m in pattern.finditer(doc, start, end):
        last = m.end()
    return last


def _pack_lines(doc: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """Cut [start, end) into pieces of at most ``limit`` chars.

    Cuts after the last line break that fits; a line longer than the limit is
    cut at a sentence end, then at whitespace, and only then mid-text.
    """
    cuts = []
    pos = start
    while end - pos > limit:
        window_end = pos + limit
        nl = doc.rfind("\n", pos, window_end)
        if nl >= pos:
            cut = nl + 1
        else:
            cut = _last_match_end(_SENTENCE_END, doc, pos, window_end)
            if cut <= pos:
                cut = _last_match_end(_WHITESPACE_RUN, doc, pos, window_end)
            if cut <= pos:
                cut = window_end
        cuts.append((pos, cut))
        pos = cut
    cuts.append((pos, end))
    return cuts


def _paragraphs(doc: str, start: int, end: int) -> list[tuple[int, int]]:
    """Blank-line separated paragraphs in [start, end), untrimmed but non-blank."""
    paras = []
    para_start: int | None = None
    para_end = start
    for ls, le in _line_spans(doc, start, end):
        if doc[ls:le].strip():
            if para_start is None:
                para_start = ls
            para_end = le
        elif para_start is not None:
            paras.append((para_start, para_end))
            para_start = None
    if para_start is not None:
        paras.append((para_start, para_end))
    return paras


def _paragraph_pieces(doc: str, start: int, end: int, path: str) -> list[_Piece]:
    """Paragraphs, with consecutive short ones packed up to ``PACK_CHARS``.

    Packing avoids a fragment per one-line paragraph; oversized paragraphs are
    left for the final cap to split at line/sentence boundaries.
    """
    pieces: list[_Piece] = []
    group: tuple[int, int] | None = None
    for ps, pe in _paragraphs(doc, start, end):
        if group is not None and pe - group[0] <= PACK_CHARS:
            group = (group[0], pe)
            continue
        if group is not None:
            pieces.append((group[0], group[1], path))
        group = (ps, pe)
    if group is not None:
        pieces.append((group[0], group[1], path))
    return pieces


def _finish(
    doc: str, title: str, pieces: list[_Piece], notes: list[str],
) -> SplitResult:
    """Trim, drop blank pieces, cap oversized ones, and number the fragments."""
    frags: list[FragmentSpec] = []
    capped = 0
    for start, end, path in pieces:
        trimmed = _trim(doc, start, end)
        if trimmed is None:
            continue
        s, e = trimmed
        if e - s <= MAX_FRAGMENT_CHARS:
            parts = [(s, e)]
        else:
            parts = [t for ps, pe in _pack_lines(doc, s, e, MAX_FRAGMENT_CHARS)
                     if (t := _trim(doc, ps, pe)) is not None]
        if len(parts) > 1:
            capped += 1
        for k, (ps, pe) in enumerate(parts, 1):
            part_path = f"{path} (part {k})".strip() if len(parts) > 1 else path
            frags.append(FragmentSpec(len(frags), part_path, doc[ps:pe], ps, pe))
    if capped:
        notes = [*notes, f"{capped} passage(s) longer than {MAX_FRAGMENT_CHARS} "
                         "characters were split into parts"]
    return SplitResult(doc_text=doc, title=title, fragments=frags, notes=notes)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value.strip()


_TITLE_LINE = re.compile(r"^title[ \t]*:(.*)$", re.MULTILINE)


def _yaml_title(block: str) -> str | None:
    """Inline ``title:`` value of a YAML block (text-level; no YAML parser)."""
    m = _TITLE_LINE.search(block)
    if m is None:
        return None
    value = m.group(1).strip()
    if value[:1] not in ("\"", "'"):
        value = re.split(r"[ \t]#", value, maxsplit=1)[0]
    value = _unquote(value)
    return value if value and value not in {"|", ">", "|-", ">-", "|+", ">+"} else None


# ---------------------------------------------------------------------------
# Plain text.


def _split_text(doc: str, stem: str) -> SplitResult:
    return _finish(doc, stem, _paragraph_pieces(doc, 0, len(doc), ""), [])


# ---------------------------------------------------------------------------
# Markdown.

_ATX = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)(.*)")
_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_FENCE_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*")
_FRONT_OPEN = re.compile(r"---[ \t]*")
_FRONT_CLOSE = re.compile(r"(?:---|\.\.\.)[ \t]*")


def _front_matter_end(doc: str) -> int:
    """Offset just past a leading YAML front-matter block, or 0 if there is none."""
    lines = _line_spans(doc, 0, len(doc))
    if not lines or not _FRONT_OPEN.fullmatch(doc[lines[0][0]:lines[0][1]]):
        return 0
    for ls, le in lines[1:]:
        if _FRONT_CLOSE.fullmatch(doc[ls:le]):
            return le
    return 0  # unclosed: it is a thematic break, not front matter


def _heading_text(raw: str) -> str:
    """ATX heading text without its optional closing ``#`` run (string ops, no
    regex backtracking on pathological lines)."""
    text = raw.strip(" \t")
    if text.endswith("#"):
        bare = text.rstrip("#")
        if not bare or bare[-1] in " \t":
            text = bare.rstrip(" \t")
    return text.strip()


def _split_markdown(doc: str, stem: str) -> SplitResult:
    """Sections by ATX heading; the heading path gives each fragment its context."""
    front_end = _front_matter_end(doc)
    front_title = _yaml_title(doc[:front_end]) if front_end else None

    # (line_start, level, heading text) for every ATX heading outside fences.
    headings: list[tuple[int, int, str]] = []
    fence: tuple[str, int] | None = None  # (fence char, run length)
    for ls, le in _line_spans(doc, front_end, len(doc)):
        line = doc[ls:le]
        if fence is not None:
            m = _FENCE_CLOSE.fullmatch(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= fence[1]:
                fence = None
            continue
        m = _FENCE_OPEN.match(line)
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = (m.group(1)[0], len(m.group(1)))
            continue
        m = _ATX.match(line)
        if m:
            text = _heading_text(m.group(2))
            headings.append((ls, len(m.group(1)), text))

    pieces: list[_Piece] = []
    first = headings[0][0] if headings else len(doc)
    pieces.append((0, first, ""))  # preamble, front matter included
    stack: list[tuple[int, str]] = []
    for i, (ls, level, text) in enumerate(headings):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, text))
        end = headings[i + 1][0] if i + 1 < len(headings) else len(doc)
        pieces.append((ls, end, " > ".join(t for _, t in stack if t)))

    h1 = next((text for _, level, text in headings if level == 1 and text), None)
    return _finish(doc, front_title or h1 or stem, pieces, [])


# ---------------------------------------------------------------------------
# YAML (textual: top-level keys at column 0; no parser, so never fails).

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


def _split_yaml(doc: str, stem: str) -> SplitResult:
    """Documents, then top-level keys, found textually so broken YAML still splits."""
    # Documents: ranges between separator lines.  A bare "---" line belongs to
    # no fragment; "--- value" starts its document with that line.
    docs: list[tuple[int, int]] = []
    doc_start = 0
    for ls, le in _line_spans(doc, 0, len(doc)):
        m = _YAML_DOC_SEP.fullmatch(doc[ls:le])
        if m is None:
            continue
        docs.append((doc_start, ls))
        rest = (m.group(2) or "").strip()
        doc_start = ls if (m.group(1) == "---" and rest and not rest.startswith("#")) else le
    docs.append((doc_start, len(doc)))
    docs = [(s, e) for s, e in docs if doc[s:e].strip()]

    multi = len(docs) > 1
    pieces: list[_Piece] = []
    notes: list[str] = []
    title: str | None = None
    for n, (ds, de) in enumerate(docs, 1):
        prefix = f"doc {n}" if multi else ""
        keys: list[tuple[int, str]] = []
        for ls, le in _line_spans(doc, ds, de):
            key = _yaml_key(doc[ls:le])
            if key is not None:
                keys.append((ls, key.strip() or '""'))
        if not keys:
            if not notes:
                notes.append("no top-level YAML keys found; split into paragraphs")
            pieces.extend(_paragraph_pieces(doc, ds, de, prefix))
            continue
        if n == 1:
            title = _yaml_title(doc[ds:de])
        pieces.append((ds, keys[0][0], prefix))
        for i, (ls, key) in enumerate(keys):
            end = keys[i + 1][0] if i + 1 < len(keys) else de
            pieces.append((ls, end, f"{prefix} > {key}" if prefix else key))
    return _finish(doc, title or stem, pieces, notes)


# ---------------------------------------------------------------------------
# JSON.


def _indent_rest(text: str) -> str:
    return text.replace("\n", "\n  ")


def _split_json(doc: str, stem: str) -> SplitResult:
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
        return _json_fallback(doc, stem, f"invalid JSON (line {exc.lineno}: {exc.msg})")
    except RecursionError:
        return _json_fallback(doc, stem, "JSON nested too deeply to read")
    except ValueError as exc:  # e.g. an integer with too many digits
        return _json_fallback(doc, stem, f"JSON could not be read ({exc})")

    notes = []
    if duplicates:
        shown = ", ".join(list(duplicates)[:3]) + (", ..." if len(duplicates) > 3 else "")
        notes.append(f"duplicate JSON keys ({shown}); only the last value of each was kept")
    if not open_:  # a scalar document
        if not _utf8_ok(pretty):
            return _json_fallback(doc, stem, "JSON contains invalid Unicode escapes")
        return _finish(pretty, stem, [(0, len(pretty), "")], notes)
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
        return _json_fallback(doc, stem, "JSON contains invalid Unicode escapes")

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
    return _finish(pretty, stem, pieces, notes)


def _utf8_ok(text: str) -> bool:
    """False if ``\\ud800``-style escapes decoded to lone surrogates, which
    SQLite cannot store as UTF-8; the file is then kept as written."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_run(run: list[tuple[int, int, str]]) -> _Piece:
    if len(run) == 1:
        return run[0]
    first, last = run[0][2][1:-1], run[-1][2][1:-1]
    return run[0][0], run[-1][1], f"[{first}-{last}]"


def _json_fallback(doc: str, stem: str, why: str) -> SplitResult:
    result = _split_text(doc, stem)
    return SplitResult(result.doc_text, stem, result.fragments,
                       [f"{why}; split into paragraphs", *result.notes])


# ---------------------------------------------------------------------------
# Python.


def _split_python(doc: str, stem: str) -> SplitResult:
    """One fragment per top-level def/class, so a citation points at a unit of code."""
    try:
        with warnings.catch_warnings():
            # Invalid escapes etc. emit SyntaxWarning; they are the file's
            # business, not the importer's.
            warnings.simplefilter("ignore")
            tree = ast.parse(doc)
    except SyntaxError as exc:
        line = f"line {exc.lineno}: " if exc.lineno else ""
        why = f"Python syntax error ({line}{exc.msg})"
        return _python_fallback(doc, stem, why)
    except (ValueError, RecursionError, MemoryError) as exc:
        return _python_fallback(doc, stem, f"Python code could not be parsed ({type(exc).__name__})")

    line_starts = [0, *(m.end() for m in re.finditer("\n", doc))]

    def offset(lineno: int) -> int:
        return line_starts[min(lineno, len(line_starts)) - 1]

    # (start line, heading) for each top-level def/class, decorators and the
    # comment lines directly above it included.
    starts: list[tuple[int, str]] = []
    prev_end = 0
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            while first - 1 > prev_end:
                above = doc[offset(first - 1):offset(first)].strip()
                if not above.startswith("#"):
                    break
                first -= 1
            kind = "class" if isinstance(node, ast.ClassDef) else "def"
            starts.append((first, f"{kind} {node.name}"))
        prev_end = node.end_lineno or node.lineno

    pieces: list[_Piece] = []
    first_def = offset(starts[0][0]) if starts else len(doc)
    pieces.append((0, first_def, ""))  # docstring, imports, constants
    for i, (lineno, heading) in enumerate(starts):
        # Module-level code after a def stays with that def's fragment.
        end = offset(starts[i + 1][0]) if i + 1 < len(starts) else len(doc)
        pieces.append((offset(lineno), end, heading))
    return _finish(doc, stem, pieces, [])


def _python_fallback(doc: str, stem: str, why: str) -> SplitResult:
    result = _split_text(doc, stem)
    return SplitResult(result.doc_text, stem, result.fragments,
                       [f"{why}; split into blocks of lines", *result.notes])


_SPLITTERS: dict[str, Callable[[str, str], SplitResult]] = {
    "md": _split_markdown,
    "txt": _split_text,
    "yaml": _split_yaml,
    "json": _split_json,
    "py": _split_python,
}

__all__ = [
    "DEFAULT_FORMATS", "MAX_FRAGMENT_CHARS", "FragmentSpec", "SplitResult",
    "canonical_format", "format_of", "normalise_text", "split_document",
]
