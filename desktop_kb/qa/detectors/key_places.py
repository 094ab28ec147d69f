"""Keys where no name stands right before them: a URL's path or query, a CLI's first argument, split cells.

* A webhook or push URL carries its key as a path segment (``https://hooks.lab.cn/services/push/<key>/notify``):
  a segment of twenty characters or more that mixes capitals, small letters and digits, in a URL whose
  host or path says it delivers (hook, push, notify, bot, send), is the key.
* A query parameter whose name ends in a word for a key (``?key=36da…``, ``wstoken=``, ``showapi_sign=``)
  holds a key when its value is long and random or hex: a cache key or a page number is short or a word.
* A command named as a CLI (``weather-cli``, ``fooctl``) given a long random or hex value as its first
  argument (``weather-cli 9a03… --city Beijing``): the tool's key, given positionally.
* A key too long for a spreadsheet cell, split over cells whose headers number its parts
  (``key_part1,key_part2``): the cells joined are one key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import API_KEY, Finding, looks_random

_URL_RE = re.compile(r"https?://[^\s\"'<>`]{8,600}")
_DELIVERS_RE = re.compile(r"(?i)hook|push|notify|notif|(?<![a-z])bot(?![a-z])|(?<![a-z])send(?![a-z])|alert")
_SEGMENT_RE = re.compile(r"(?<=/)[A-Za-z0-9_-]{20,80}(?=/|$|\?)")
_QUERY_KEY_RE = re.compile(r"[?&](?P<name>[A-Za-z_]{0,20}(?:key|token|sign|secret|apikey))=(?P<v>[A-Za-z0-9_.-]{16,128})"
                           r"(?=[&#\s\"'\\]|$)", re.I)
_CLI_RE = re.compile(r"(?m)(?:^|[;&|]\s*|\$\s+)(?:[\w./-]*/)?(?P<tool>[a-z][a-z0-9]*(?:-cli|cli|ctl))[ \t]+"
                     r"(?P<v>[A-Za-z0-9_-]{24,80})(?=[ \t]+-|[ \t]*$)")
_HEX_RE = re.compile(r"[0-9a-fA-F]{16,128}")
_PART_HINT_RE = re.compile(r"(?i)(?:key|token|secret|password|passwd|pwd)[_ -]?(?:part|piece|seg|chunk)?[_ -]?[1-9]")
_PART_HEADER_RE = re.compile(r"(?i)(?P<base>[a-z_ -]*?(?:key|token|secret|password|passwd|pwd)[a-z_ -]*?)[_ -]?"
                             r"(?:part|piece|seg|chunk)?[_ -]?(?P<n>[1-9])")


def _random_or_hex(value: str) -> bool:
    mixed = re.search(r"[A-Z]", value) and re.search(r"[a-z]", value) and re.search(r"\d", value)
    return bool(_HEX_RE.fullmatch(value) and re.search(r"[a-fA-F]", value) and re.search(r"\d", value)) \
        or bool(mixed and looks_random(value))


def _queries(text: str) -> Iterator[Finding]:
    """(in any request line too: strace's ``write(3, "GET /ip?appid=1&sign=7dbd…``, an access log)"""
    for q in _QUERY_KEY_RE.finditer(text):
        if _random_or_hex(q.group("v")):
            yield Finding(API_KEY, q.start("v"), q.end("v"))


def _urls(text: str) -> Iterator[Finding]:
    for url in _URL_RE.finditer(text):
        u = url.group(0)
        path_start = u.find("/", 8)
        if path_start < 0 or not _DELIVERS_RE.search(u):
            continue
        path = u[path_start:u.find("?") if "?" in u else len(u)]
        for s in _SEGMENT_RE.finditer(path):
            v = s.group(0)
            if re.search(r"[A-Z]", v) and re.search(r"[a-z]", v) and re.search(r"\d", v) and looks_random(v):
                yield Finding(API_KEY, url.start() + path_start + s.start(), url.start() + path_start + s.end())


def _split_cells(text: str) -> Iterator[Finding]:
    lines = text.split("\n")
    offset = 0
    starts = []
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    i = -1
    while i + 1 < len(lines) - 1:
        i += 1
        header = lines[i]
        sep = "\t" if "\t" in header else "," if "," in header else None
        if sep is None or not _PART_HINT_RE.search(header):
            continue
        cells = [c.strip().strip("\"'") for c in header.split(sep)]
        parts: dict[str, list[int]] = {}
        for col, cell in enumerate(cells):
            m = _PART_HEADER_RE.fullmatch(cell) if len(cell) <= 40 else None  # (a header is short)
            if m:
                parts.setdefault(m.group("base").lower().strip("_ -"), []).append(col)
        groups = [cols for cols in parts.values() if len(cols) >= 2]
        if not groups:
            continue
        for j in range(i + 1, min(len(lines), i + 51)):
            row = lines[j].split(sep)
            if len(row) != len(cells):
                break
            i = j  # (a row is read under one header only)
            for cols in groups:
                values = [row[c].strip().strip("\"'") for c in cols]
                joined = "".join(values)
                if all(values) and len(joined) >= 20 and (looks_random(joined) or _HEX_RE.fullmatch(joined.split("-")[-1])):
                    for c in cols:
                        cell_start = starts[j] + sum(len(x) + 1 for x in row[:c])
                        v = values[cols.index(c)]
                        at = text.find(v, cell_start)
                        if at >= 0:
                            yield Finding(API_KEY, at, at + len(v))


def key_places(text: str) -> Iterator[Finding]:
    if "=" in text and ("?" in text or "&" in text):
        yield from _queries(text)
    if "://" in text:
        yield from _urls(text)
    if "cli " in text or "ctl " in text:
        for m in _CLI_RE.finditer(text):
            if _random_or_hex(m.group("v")):
                yield Finding(API_KEY, m.start("v"), m.end("v"))
    if "\n" in text and ("," in text or "\t" in text):
        yield from _split_cells(text)
