"""Which formats the importer takes, how each file is recognised, and the dispatch
from a format to its module.

Each format lives in its own module (``markdown``, ``pdf``, ``docx_text``,
``epub``, ``html_text``, ``source_code``…); this module only names them.
Files are recognised by extension, by a few well-known file names
(``Dockerfile``, ``Makefile``), and known-but-unsupported formats get a
reason that names them ("`.pptx` is not supported yet").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path, PurePath

from desktop_kb.importer.html_text import split_html
from desktop_kb.importer.json_text import split_json
from desktop_kb.importer.markdown import split_markdown
from desktop_kb.importer.model import FragmentSpec, SplitResult
from desktop_kb.importer.pieces import MAX_FRAGMENT_CHARS, normalise_text
from desktop_kb.importer.plain_text import split_text
from desktop_kb.importer.python_code import split_python
from desktop_kb.importer.source_code import split_code
from desktop_kb.importer.yaml_text import split_yaml

# Formats whose bytes are not text: read by their own module from the file.
BINARY_FORMATS = frozenset({"pdf", "docx", "epub"})

# Extension (or accepted alias) -> canonical format name.
_CANONICAL: dict[str, str] = {
    "md": "md", "markdown": "md", "mdown": "md", "mkd": "md",
    "txt": "txt", "text": "txt", "rst": "txt", "adoc": "txt", "org": "txt", "log": "txt",
    "yaml": "yaml", "yml": "yaml",
    "json": "json",
    "py": "py", "pyi": "py",
    "pdf": "pdf",
    "docx": "docx",
    "epub": "epub",
    "html": "html", "htm": "html", "xhtml": "html",
    # Source code: canonical name = language.
    "go": "go", "rs": "rust", "rust": "rust",
    "js": "javascript", "mjs": "javascript", "cjs": "javascript", "jsx": "javascript",
    "javascript": "javascript",
    "ts": "typescript", "tsx": "typescript", "mts": "typescript", "cts": "typescript",
    "typescript": "typescript",
    "c": "c", "h": "c",
    "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "hh": "cpp", "hxx": "cpp", "ino": "cpp",
    "java": "java", "kt": "kotlin", "kts": "kotlin", "kotlin": "kotlin", "scala": "scala",
    "cs": "csharp", "csharp": "csharp", "swift": "swift", "rb": "ruby", "ruby": "ruby",
    "php": "php", "lua": "lua", "r": "r", "pl": "perl", "pm": "perl", "perl": "perl",
    "sh": "shell", "bash": "shell", "zsh": "shell", "fish": "shell", "ksh": "shell",
    "shell": "shell",
    "ps1": "powershell", "psm1": "powershell", "powershell": "powershell",
    "bat": "batch", "cmd": "batch", "batch": "batch",
    "sql": "sql", "dockerfile": "dockerfile", "containerfile": "dockerfile",
    "mk": "makefile", "makefile": "makefile", "cmake": "cmake",
    "gradle": "gradle", "groovy": "gradle",
    "toml": "toml", "ini": "ini", "cfg": "ini", "conf": "ini", "properties": "ini",
    "env.example": "ini",
    "xml": "xml", "plist": "xml", "proto": "proto", "graphql": "graphql", "gql": "graphql",
    "css": "css", "scss": "css", "sass": "css", "less": "css",
    "vue": "vue", "svelte": "svelte", "tf": "terraform", "hcl": "terraform",
    "vim": "vim", "hs": "haskell", "ex": "elixir", "exs": "elixir", "erl": "erlang",
    "clj": "clojure", "dart": "dart", "zig": "zig", "nim": "nim", "jl": "julia",
    "ml": "ocaml", "fs": "fsharp",
}

for _name in set(_CANONICAL.values()):  # every canonical name names itself
    _CANONICAL.setdefault(_name, _name)

# Files recognised by their whole (lower-cased) name.
_BY_NAME = {
    "dockerfile": "dockerfile", "containerfile": "dockerfile", "makefile": "makefile",
    "gnumakefile": "makefile", "cmakelists.txt": "cmake", "jenkinsfile": "gradle",
    "vagrantfile": "ruby", "rakefile": "ruby", "gemfile": "ruby", "procfile": "ini",
    "readme": "txt", "license": "txt", "copying": "txt", "authors": "txt",
    # Lockfiles are skipped as generated, but they are text when someone asks for them.
    "yarn.lock": "yaml", "cargo.lock": "toml", "poetry.lock": "toml", "uv.lock": "toml",
    "pdm.lock": "toml", "gemfile.lock": "txt", "podfile.lock": "yaml", "pubspec.lock": "yaml",
    "composer.lock": "json", "pipfile.lock": "json", "flake.lock": "json", "deno.lock": "json",
    "mix.lock": "txt", "go.sum": "txt", "conan.lock": "json", "paket.lock": "txt",
    "gradle.lockfile": "txt", "bun.lock": "json",
}

# Known formats we cannot read yet: extension -> what it is.
_UNSUPPORTED = {
    "doc": "Word 97–2003", "ppt": "PowerPoint", "pptx": "PowerPoint", "xls": "Excel",
    "xlsx": "Excel", "odt": "OpenDocument text", "odp": "OpenDocument slides",
    "ods": "OpenDocument spreadsheet", "rtf": "RTF", "mobi": "Mobipocket", "azw": "Kindle",
    "azw3": "Kindle", "djvu": "DjVu", "chm": "CHM help", "pages": "Pages", "key": "Keynote",
    "numbers": "Numbers", "ipynb": "Jupyter notebook", "tex": "LaTeX",
    "png": "image", "jpg": "image", "jpeg": "image", "gif": "image", "webp": "image",
    "bmp": "image", "tif": "image", "tiff": "image", "svg": "image", "heic": "image",
    "mp3": "audio", "wav": "audio", "m4a": "audio", "flac": "audio", "mp4": "video",
    "mkv": "video", "mov": "video", "avi": "video", "zip": "archive", "rar": "archive",
    "7z": "archive", "tar": "archive", "gz": "archive", "tgz": "archive", "bz2": "archive",
    "xz": "archive", "exe": "program", "dll": "program", "so": "program", "dylib": "program",
    "bin": "binary", "iso": "disk image", "dmg": "disk image", "sqlite": "database",
    "db": "database", "woff": "font", "woff2": "font", "ttf": "font", "otf": "font",
    "pyc": "compiled Python", "class": "compiled Java", "o": "object file", "jar": "archive",
    "whl": "archive", "lockb": "binary lockfile",
}

_TEXT_SPLITTERS: dict[str, Callable[[str, str], SplitResult]] = {
    "md": split_markdown,
    "txt": split_text,
    "yaml": split_yaml,
    "json": split_json,
    "py": split_python,
    "html": split_html,
}

ALL_FORMATS = tuple(sorted(set(_CANONICAL.values())))
CODE_FORMATS = tuple(sorted(set(ALL_FORMATS) - set(_TEXT_SPLITTERS) - BINARY_FORMATS))
# Everything is imported unless the person narrows it (`--formats`, the import dialog).
DEFAULT_FORMATS = ALL_FORMATS

# What the person reads: canonical name -> label.
FORMAT_LABELS = {
    "md": "Markdown", "txt": "Text", "yaml": "YAML", "json": "JSON", "py": "Python",
    "pdf": "PDF", "docx": "Word", "epub": "EPUB", "html": "HTML",
}


def canonical_format(fmt: str) -> str:
    """Map a format or extension name ("yml", ".Markdown", "code") to its canonical name.

    Raises ValueError for unknown names: that is a programming error, not bad input.
    """
    key = fmt.lower().lstrip(".")
    try:
        return _CANONICAL[key]
    except KeyError:
        raise ValueError(f"unknown format: {fmt!r}") from None


def expand_formats(names: list[str] | tuple[str, ...]) -> set[str]:
    """Canonical names for a selection; "code" stands for every source-code language."""
    out: set[str] = set()
    for name in names:
        if name.lower().lstrip(".") == "code":
            out.update(CODE_FORMATS)
        else:
            out.add(canonical_format(name))
    return out


def format_of(path: Path) -> str | None:
    """Canonical format of a file by its name or extension, or None if not importable."""
    name = path.name.lower()
    if name in _BY_NAME:
        return _BY_NAME[name]
    if name.startswith(("dockerfile.", "containerfile.")) or name.endswith(".dockerfile"):
        return "dockerfile"
    if name.endswith(".env.example"):
        return "ini"
    return _CANONICAL.get(path.suffix.lower().lstrip(".")) if path.suffix else None


def unsupported_reason(path: Path) -> str | None:
    """"`.pptx` is not supported yet (PowerPoint)" for a known format we cannot read."""
    ext = path.suffix.lower().lstrip(".")
    what = _UNSUPPORTED.get(ext)
    return None if what is None else f"`.{ext}` is not supported yet ({what})"


def is_binary(fmt: str) -> bool:
    return fmt in BINARY_FORMATS


def split_document(text: str, fmt: str, name: str) -> SplitResult:
    """Split ``text`` of a text format (``name`` is the file name or stem).

    The title falls back to the file stem.  Never raises on any text.
    """
    fmt = canonical_format(fmt)
    if fmt in BINARY_FORMATS:
        raise ValueError(f"{fmt} is read from its file, not from text")
    splitter = _TEXT_SPLITTERS.get(fmt) or partial(_split_as_code, language=fmt)
    doc = normalise_text(text)
    stem = document_stem(name)
    if not doc.strip():
        return SplitResult(doc_text=doc, title=stem, fragments=[], notes=[])
    return splitter(doc, stem)


def _split_as_code(doc: str, stem: str, *, language: str) -> SplitResult:
    return split_code(doc, stem, language)


def document_stem(name: str) -> str:
    """The title a document falls back to: the file name without a known extension."""
    pure = PurePath(name)
    known = pure.suffix.lower().lstrip(".") in _CANONICAL
    stem = pure.stem if known else pure.name
    if str(pure.parent) not in (".", "") and stem:
        stem = f"{pure.parent}/{stem}"
    return stem or name or "untitled"


# File names that say nothing about the document: twenty READMEs must not all be
# called "README" in a result list, so these are named with their folder.
_GENERIC_STEMS = frozenset({
    "readme", "index", "summary", "intro", "introduction", "overview", "notes", "note",
    "main", "chapter", "untitled", "todo", "changelog", "contents", "toc", "license",
    "dockerfile", "makefile", "docker-compose", "compose", "config", "settings", "setup",
    "install", "test", "tests", "app", "lib", "mod", "utils", "run", "build", "start",
    "目录", "简介", "笔记", "总结", "概述", "说明", "前言", "索引",
})


def generic_name(path: Path) -> bool:
    """Whether the file's name says nothing about its content ("README.md", "notes.pdf")."""
    stem = path.name.rsplit(".", 1)[0] if "." in path.name[1:] else path.name
    return stem.casefold() in _GENERIC_STEMS


def title_name(path: Path) -> str:
    """The name a document falls back to when its content has no title.

    Usually the file name; "folder/README.md" for a generic one, so results from
    different folders can be told apart.
    """
    if generic_name(path) and path.parent.name:
        return f"{path.parent.name}/{path.name}"
    return path.name


__all__ = [
    "ALL_FORMATS", "BINARY_FORMATS", "CODE_FORMATS", "DEFAULT_FORMATS", "FORMAT_LABELS",
    "MAX_FRAGMENT_CHARS", "FragmentSpec", "SplitResult", "canonical_format", "document_stem", "expand_formats",
    "format_of", "generic_name", "is_binary", "normalise_text", "split_document", "title_name",
    "unsupported_reason",
]
