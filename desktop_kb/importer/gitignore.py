"""``.gitignore`` rules, enough of git's semantics for deciding what to import.

Supported: blank lines and ``#`` comments, ``!`` negation, a trailing ``/``
(directories only), a leading or inner ``/`` (anchored to the .gitignore's
folder), ``*``, ``?``, ``[...]`` and ``**``.  Deeper .gitignore files override
shallower ones, and within one file the last matching rule wins — as in git.
Written here rather than taken from a package: it is small, and the
maintained option (pathspec) is MPL-licensed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["IgnoreRules", "parse_gitignore"]


@dataclass(frozen=True)
class _Rule:
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool


def _translate(pattern: str) -> str:
    """Glob → regex over a '/'-separated relative path."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                before_ok = i == 0 or pattern[i - 1] == "/"
                after = pattern[i + 2:i + 3]
                if before_ok and after == "/":
                    out.append("(?:.*/)?")
                    i += 3
                    continue
                if before_ok and after == "":
                    out.append(".*")
                    i += 2
                    continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 2 if pattern[i + 1:i + 2] in ("!", "]") else i + 1)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1:j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        elif c == "\\" and i + 1 < len(pattern):
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def parse_gitignore(text: str) -> list[_Rule]:
    rules = []
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        if not line.endswith("\\ "):
            line = line.rstrip(" ")
        negate = line.startswith("!")
        if negate or line.startswith("\\!") or line.startswith("\\#"):
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        body = _translate(line)
        regex = ("^" if anchored else "^(?:.*/)?") + body + "$"
        try:
            rules.append(_Rule(re.compile(regex), negate, dir_only))
        except re.error:
            continue  # a pattern git would also ignore
    return rules


class IgnoreRules:
    """The .gitignore files met so far in a walk, by folder (shallow ones first)."""

    def __init__(self) -> None:
        self._by_dir: list[tuple[str, list[_Rule]]] = []

    def load(self, folder: Path) -> None:
        """Read ``folder/.gitignore`` if there is one (unreadable files are ignored)."""
        try:
            text = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return
        rules = parse_gitignore(text[:1_000_000])
        if rules:
            self._by_dir.append((folder.as_posix().rstrip("/") + "/", rules))
            self._by_dir.sort(key=lambda item: item[0].count("/"))

    def ignored(self, path: Path, is_dir: bool) -> bool:
        if not self._by_dir:  # the common case: nothing to match, nothing to spend
            return False
        text = path.as_posix()
        verdict = False
        for prefix, rules in self._by_dir:  # shallow to deep: deeper files override
            if not text.startswith(prefix):
                continue
            rel = text[len(prefix):]
            for rule in rules:
                if rule.dir_only and not is_dir:
                    continue
                if rule.regex.match(rel):
                    verdict = not rule.negate
        return verdict
