"""Python: one fragment per top-level def/class, so a citation points at a unit of code."""

from __future__ import annotations

import ast
import re
import warnings

from desktop_kb.importer.model import SplitResult
from desktop_kb.importer.pieces import Piece, finish
from desktop_kb.importer.plain_text import text_fallback

__all__ = ["split_python"]


def split_python(doc: str, stem: str) -> SplitResult:
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
        return text_fallback(doc, stem, f"{why}; split into blocks of lines")
    except (ValueError, RecursionError, MemoryError) as exc:
        return text_fallback(doc, stem, f"Python code could not be parsed ({type(exc).__name__}); split into blocks of lines")

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

    pieces: list[Piece] = []
    first_def = offset(starts[0][0]) if starts else len(doc)
    pieces.append((0, first_def, ""))  # docstring, imports, constants
    for i, (lineno, heading) in enumerate(starts):
        # Module-level code after a def stays with that def's fragment.
        end = offset(starts[i + 1][0]) if i + 1 < len(starts) else len(doc)
        pieces.append((offset(lineno), end, heading))
    return finish(doc, stem, pieces, [])
