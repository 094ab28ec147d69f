"""A label on one line, the value on the next: "初始密码（区分大小写）：" / blank / "    Mq7-Rt2-Zs9".

Notes put a credential under its label as often as after it — indented, after
a blank line or inside a code fence. When a short line ends with the word for a
password or a key and a colon (or holds only that word), the next line that holds anything is read as
its value if it is a single token (a sentence, a list item or a YAML key is
not): a password-like token for a password, a random one for a key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import API_KEY, PASSWORD, Finding, looks_random
from desktop_kb.qa.detectors.secret_names import PASSWORD_NAME
from desktop_kb.qa.detectors.secret_values import is_placeholder, plausible

_LABEL_RE = re.compile(
    r"(?i)[^\n]{0,40}?(?:(?P<pw>密码|密碼|口令|(?<![A-Za-z])(?:password|passwd|passcode|pwd|pw|pin)(?![A-Za-z]))|"
    r"(?P<key>密钥|密鑰|秘钥|祕鑰|私钥|私鑰|令牌|授权码|授權碼|(?<![A-Za-z])(?:token|secret|api[ _-]?key|access[ _-]?key|"
    r"secret[ _-]?key)(?![A-Za-z])))[^\n:：]{0,20}[:：][ \t*_]*$")
# A line that is only the label (a heading, a line of a two-column list): "密码（已改）", "**Token**".
_BARE_LABEL_RE = re.compile(
    r"(?im)^[ \t#>*_]*(?:(?P<pw>密码|密碼|口令|password|passwd|passcode|pwd)|"
    r"(?P<key>密钥|密鑰|秘钥|祕鑰|私钥|私鑰|令牌|授权码|授權碼|token|secret|api[ _-]?key))"
    r"[ \t]*(?:[（(][^）)\n]{0,20}[）)])?[ \t*_]*$")
_FENCE_RE = re.compile(r"[ \t]*(?:```|~~~)[^\n]*")
_VALUE_RE = re.compile(r"[ \t>]*`?(?P<v>[^\s`]{4,200}?)`?[ \t]*")
# A key may be shown in groups on its line ("mh54 hrgk tfdp 3xuf", "93b8-1c47-…").
_GROUPED_RE = re.compile(r"[ \t]*(?P<v>[A-Za-z0-9]{4,8}(?:[ -][A-Za-z0-9]{4,8}){2,15})[ \t]*")


def _next_line(text: str, pos: int) -> tuple[int, int] | None:
    """The next line after ``pos`` that holds something, skipping at most two blank or fence lines."""
    skipped = 0
    while pos < len(text) and skipped <= 2:
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        line = text[pos:end]
        if line.strip() and not _FENCE_RE.fullmatch(line):
            return pos, end
        skipped += 1
        pos = end + 1
    return None


_COLON_END_RE = re.compile(r"[:：][ \t*_]*$", re.M)


def _labels(text: str) -> Iterator[re.Match[str]]:
    if ":" in text or "：" in text:
        for colon in _COLON_END_RE.finditer(text):  # few lines end in a colon: read only those
            label = _LABEL_RE.match(text, text.rfind("\n", 0, colon.start()) + 1, colon.end())
            if label is not None:
                yield label
    if "\n" in text:
        yield from _BARE_LABEL_RE.finditer(text)


def label_lines(text: str) -> Iterator[Finding]:
    for label in _labels(text):
        line = _next_line(text, label.end() + 1)
        if line is None:
            continue
        start, end = line
        if label.group("key"):
            grouped = _GROUPED_RE.fullmatch(text, start, end)
            if grouped is not None and looks_random(re.sub(r"[ -]", "", grouped.group("v"))):
                yield Finding(API_KEY, grouped.start("v"), grouped.end("v"))
                continue
        m = _VALUE_RE.fullmatch(text, start, end)
        if m is None:
            continue
        value = m.group("v")
        if value.endswith((":", "：")) or value[0] in "-#*|<[{" or is_placeholder(value):
            continue  # a YAML key, a list item, a heading, a table, markup
        if label.group("pw"):
            if re.search(r"[\d\W_]", value) and plausible(value, PASSWORD_NAME, quoted=False, prose=True):
                yield Finding(PASSWORD, m.start("v"), m.end("v"))
        elif looks_random(value):
            yield Finding(API_KEY, m.start("v"), m.end("v"))
