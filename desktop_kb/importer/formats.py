"""Which formats the importer takes, and the dispatch from a format to its splitter.

Each format lives in its own module (``markdown``, ``yaml_text``, ``json_text``,
``python_code``, ``plain_text``…); this module only names them.  Splitting is
pure and deterministic, and never raises on odd input: a file that is
malformed for its format is still text.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path, PurePath

from desktop_kb.importer.json_text import split_json
from desktop_kb.importer.markdown import split_markdown
from desktop_kb.importer.model import FragmentSpec, SplitResult
from desktop_kb.importer.pieces import MAX_FRAGMENT_CHARS, normalise_text
from desktop_kb.importer.plain_text import split_text
from desktop_kb.importer.python_code import split_python
from desktop_kb.importer.yaml_text import split_yaml

DEFAULT_FORMATS = ("md", "markdown", "txt", "yaml", "yml", "json", "py")

# Extension (or accepted alias) -> canonical format name.
_CANONICAL = {
    "md": "md", "markdown": "md",
    "txt": "txt", "text": "txt",
    "yaml": "yaml", "yml": "yaml",
    "json": "json",
    "py": "py",
}

_SPLITTERS: dict[str, Callable[[str, str], SplitResult]] = {
    "md": split_markdown,
    "txt": split_text,
    "yaml": split_yaml,
    "json": split_json,
    "py": split_python,
}


def canonical_format(fmt: str) -> str:
    """Map a format or extension name ("yml", ".Markdown") to its canonical name.

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
    if str(pure.parent) not in (".", "") and stem:
        stem = f"{pure.parent}/{stem}"
    return stem or name or "untitled"


# File names that say nothing about the document: twenty READMEs must not all be
# called "README" in a result list, so these are named with their folder.
_GENERIC_STEMS = frozenset({
    "readme", "index", "summary", "intro", "introduction", "overview", "notes", "note",
    "main", "chapter", "untitled", "todo", "changelog", "contents", "toc", "license",
    "目录", "简介", "笔记", "总结", "概述", "说明", "前言", "索引",
})


def title_name(path: Path) -> str:
    """The name a document falls back to when its content has no title.

    Usually the file name; "folder/README.md" for a generic one, so results from
    different folders can be told apart.
    """
    stem = path.name.rsplit(".", 1)[0] if "." in path.name[1:] else path.name
    if stem.casefold() in _GENERIC_STEMS and path.parent.name:
        return f"{path.parent.name}/{path.name}"
    return path.name


__all__ = [
    "DEFAULT_FORMATS", "MAX_FRAGMENT_CHARS", "FragmentSpec", "SplitResult",
    "canonical_format", "format_of", "normalise_text", "split_document", "title_name",
]
