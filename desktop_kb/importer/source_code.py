"""Source code as study material: Dockerfiles, shell, Go, JS/TS, C/C++, Java, Rust…

A citation should point at a unit of code, so files are split where a
top-level definition starts — found with one cheap line pattern per language
family, not a parser — with the comment lines directly above a definition
kept with it.  A file with no such lines is split at blank lines.  Python has
its own splitter (``python_code``: the ast module is exact and free).
"""

from __future__ import annotations

import re

from desktop_kb.importer.model import SplitResult
from desktop_kb.importer.pieces import Piece, finish, line_spans, paragraph_pieces

__all__ = ["CODE_LANGUAGES", "split_code"]

# Canonical language -> pattern of a line that starts a top-level unit.
_C_LIKE_FUNC = r"(?:[A-Za-z_][\w:<>,\s\*&~\[\]]*?[\s\*&])?[A-Za-z_~][\w:~]*\s*\([^;{}]*\)\s*(?:const\s*)?(?:noexcept\s*)?\{?\s*$"
_PATTERNS: dict[str, str] = {
    "go": r"(?:func|type)\s",
    "rust": r"(?:pub(?:\([\w:\s]+\))?\s+)?(?:async\s+|const\s+|unsafe\s+|extern\s+\"\w+\"\s+)*"
            r"(?:fn|struct|enum|trait|impl|mod|union|macro_rules!)[\s<{]",
    "javascript": r"(?:export\s+(?:default\s+)?)?(?:async\s+)?(?:function\*?|class)\s"
                  r"|(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*=\s*(?:async\s*)?(?:function|\([^)]*\)\s*=>|[\w$]+\s*=>)",
    "typescript": r"(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?"
                  r"(?:function\*?|class|interface|enum|namespace|module)\s"
                  r"|(?:export\s+)?type\s+\w+"
                  r"|(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*(?::[^=]+)?=\s*(?:async\s*)?(?:function|\([^)]*\)\s*(?::[^=]+)?=>)",
    "c": r"(?:struct|union|enum|typedef)\s|#define\s+\w+\(|" + _C_LIKE_FUNC,
    "cpp": r"(?:template\s*<|class\s|struct\s|union\s|enum\s|namespace\s|typedef\s)|#define\s+\w+\(|" + _C_LIKE_FUNC,
    "java": r"(?:(?:public|protected|private|static|final|abstract|sealed|synchronized|native|default)\s+)*"
            r"(?:class|interface|enum|record|@interface)\s"
            r"|    (?:(?:public|protected|private|static|final|abstract|synchronized|native|default)\s+)+[\w<>\[\],\s]+\s\w+\s*\(",
    "kotlin": r"(?:(?:public|private|internal|protected|open|abstract|sealed|data|inline|suspend|override)\s+)*"
              r"(?:fun|class|object|interface|enum class)\s",
    "csharp": r"(?:    )?(?:(?:public|protected|private|internal|static|sealed|abstract|partial|async|override|virtual)\s+)+"
              r"(?:class|interface|struct|enum|record|[\w<>\[\],]+\s+\w+\s*\()",
    "swift": r"(?:(?:public|private|internal|open|fileprivate|final)\s+)*(?:func|class|struct|enum|protocol|extension)\s",
    "ruby": r"(?:def|class|module)\s",
    "php": r"(?:(?:public|protected|private|static|abstract|final)\s+)*(?:function|class|interface|trait)\s",
    "shell": r"(?:function\s+[\w.:-]+|[\w.:-]+\s*\(\s*\))\s*(?:\{|\(|$)",
    "lua": r"(?:local\s+)?function\s",
    "scala": r"(?:(?:private|protected|final|sealed|abstract|implicit|case|override)\s+)*(?:def|class|object|trait)\s",
    "dockerfile": r"FROM\s",
    "makefile": r"[\w./%$(){}-]+\s*:(?!=)",
    "sql": r"(?i:create|alter|insert|select|with|drop|update|delete)\s",
    "r": r"[\w.]+\s*<-\s*function\s*\(",
    "perl": r"sub\s",
}

CODE_LANGUAGES = tuple(sorted({*_PATTERNS, "css", "toml", "ini", "xml", "proto", "graphql",
                               "gradle", "cmake", "powershell", "batch", "vim", "haskell",
                               "elixir", "erlang", "clojure", "dart", "zig", "nim", "julia",
                               "ocaml", "fsharp", "vue", "svelte", "terraform"}))
_COMPILED = {lang: re.compile(pattern) for lang, pattern in _PATTERNS.items()}
_COMMENT = re.compile(r"\s*(?://|#|--|/\*|\*|;)")
_NOT_DEFINITION = re.compile(r"\s*(?:if|for|while|switch|return|else|do|catch|case)\b")
_MAX_HEADING = 80


def _heading(line: str) -> str:
    text = " ".join(line.split()).rstrip("{(").rstrip()
    return text if len(text) <= _MAX_HEADING else text[:_MAX_HEADING - 1] + "…"


def split_code(doc: str, stem: str, language: str) -> SplitResult:
    pattern = _COMPILED.get(language)
    if pattern is None:
        return finish(doc, stem, paragraph_pieces(doc, 0, len(doc), ""), [])
    lines = line_spans(doc, 0, len(doc))
    starts: list[tuple[int, str]] = []  # (line index, heading)
    for i, (ls, le) in enumerate(lines):
        line = doc[ls:le]
        if not line or (line[0] in " \t" and not line.startswith("    ")):
            continue
        if pattern.match(line) and not _NOT_DEFINITION.match(line):
            first = i
            while first > 0 and (not starts or first - 1 > starts[-1][0]):
                above = doc[lines[first - 1][0]:lines[first - 1][1]]
                if not above.strip() or not _COMMENT.match(above):
                    break
                first -= 1
            starts.append((first, _heading(line)))
    if not starts:
        return finish(doc, stem, paragraph_pieces(doc, 0, len(doc), ""), [])
    pieces: list[Piece] = []
    first_start = lines[starts[0][0]][0]
    pieces.extend(paragraph_pieces(doc, 0, first_start, ""))  # imports, package line, header
    for k, (index, heading) in enumerate(starts):
        start = lines[index][0]
        end = lines[starts[k + 1][0]][0] if k + 1 < len(starts) else len(doc)
        pieces.append((start, end, heading))
    return finish(doc, stem, pieces, [])
