"""Numbers written in other characters, read as digits: Chinese numerals and OCR's letters for digits.

A number said aloud or filled in on a form is written in Chinese numerals (密码：二〇八五七九五一,
幺三八 六五六四 七八八六, the financial capitals 陆贰贰捌 on a bank form, 愚园路一二八七弄二十号);
a scanned card comes out of OCR with O for 0 and l for 1 (44O1O6 2OO1O7O8 84l2). The number
detectors read ASCII digits, so each such run is written as digits, one character for one (offsets
stay), and the lines around it are read again: what the detectors find there over the run is the
run's finding. Checksums, groupings and labels still decide, as for any number, so a year (一九四九年),
an idiom (一五一十) or a word with an O in it stays text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from desktop_kb.qa.detectors.base import Finding

_DIGIT_OF = {
    **dict.fromkeys("〇零洞", "0"), **dict.fromkeys("一幺壹", "1"), **dict.fromkeys("二两兩贰貳", "2"),
    **dict.fromkeys("三叁參", "3"), **dict.fromkeys("四肆", "4"), **dict.fromkeys("五伍", "5"),
    **dict.fromkeys("六陆陸", "6"), **dict.fromkeys("七柒", "7"), **dict.fromkeys("八捌", "8"),
    **dict.fromkeys("九玖", "9")}
_TENS = "十拾"
_HAN_DIGITS = "".join(_DIGIT_OF)
# A run of numerals, spaced or dashed as people group digits (ASCII digits may be mixed in).
_HAN_RUN_RE = re.compile(rf"[{_HAN_DIGITS}{_TENS}](?:[ \t-]?[{_HAN_DIGITS}{_TENS}0-9])*")
# An address's numbers: 一二八七弄, 二十号, 四〇二室.
_UNIT_AFTER_RE = re.compile(r"[ \t]?(?:弄|巷|号|號|室|栋|棟|幢|单元|單元|楼|樓|层|層|排|院|组|組)")
_MIN_HAN_DIGITS = 6  # fewer is a year, a date or a count (二〇二四, 三三两两)
# OCR's misreads inside a digit run: O/o for 0, l/I for 1; at least half the run real digits.
_OCR_RUN_RE = re.compile(r"(?<![A-Za-z0-9])[0-9OolI](?:[ \-]?[0-9OolI]){7,}(?![A-Za-z0-9])")
_OCR_DIGIT = {"O": "0", "o": "0", "l": "1", "I": "1"}
_ANY_HAN_DIGIT_RE = re.compile(f"[{_HAN_DIGITS}]")
_DIGIT_NEXT_TO_OCR_RE = re.compile(r"\d[ \-]?[OolI]|[OolI][ \-]?\d")


def _han_runs(text: str) -> list[tuple[int, int, str]]:
    """(start, end, digits) of numeral runs that may be a number: long ones, and an address's parts."""
    long_runs, unit_runs = [], []
    for m in _HAN_RUN_RE.finditer(text):
        run = m.group(0)
        digits = "".join(_DIGIT_OF.get(c, "0" if i and run[i - 1] in _DIGIT_OF else "1") if c in _TENS
                         else _DIGIT_OF.get(c, c) for i, c in enumerate(run))
        count = sum(c in _DIGIT_OF for c in run)
        if count >= _MIN_HAN_DIGITS and not any(c in _TENS for c in run):
            long_runs.append((m.start(), m.end(), digits))
        elif _UNIT_AFTER_RE.match(text, m.end()):
            unit_runs.append((m.start(), m.end(), digits))
    lines: dict[int, list[tuple[int, int, str]]] = {}
    for run in unit_runs:
        lines.setdefault(text.rfind("\n", 0, run[0]), []).append(run)
    # Two numbered parts, one of them a house or room number (一二八七弄, 四〇二室): "三号楼二单元" alone is
    # as often a textbook's unit or a word problem's building.
    return long_runs + [r for runs in lines.values()
                        if len(runs) >= 2 and max(r[1] - r[0] for r in runs) >= 3 for r in runs]


def _ocr_runs(text: str) -> list[tuple[int, int, str]]:
    out = []
    for m in _OCR_RUN_RE.finditer(text):
        run = m.group(0)
        digits = sum(c.isdigit() for c in run)
        letters = sum(c in _OCR_DIGIT for c in run)
        if letters and digits >= letters and digits >= 8:
            out.append((m.start(), m.end(), "".join(_OCR_DIGIT.get(c, c) for c in run)))
    return out


def spelled_digit_findings(text: str, detect_excerpt: Callable[[str], Iterable[Finding]]) -> list[Finding]:
    """Findings over numbers written in numerals or misread by OCR (``detect_excerpt`` reads ASCII)."""
    runs = []
    if _ANY_HAN_DIGIT_RE.search(text):  # (a regex scan: a generator over the characters cost more than the rest)
        runs += _han_runs(text)
    if _DIGIT_NEXT_TO_OCR_RE.search(text):
        runs += _ocr_runs(text)
    if not runs:
        return []
    chars = list(text)
    for start, _end, digits in runs:
        chars[start:start + len(digits)] = digits
    read = "".join(chars)
    out: list[Finding] = []
    done: set[tuple[int, int]] = set()
    for start, end, _digits in sorted(runs):
        # The run's line and the one above it (a label over a value, a JSON key's parent).
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        above = text.rfind("\n", 0, start)
        first = text.rfind("\n", 0, above) + 1 if above > 0 else 0
        if (first, line_end) in done:
            continue
        done.add((first, line_end))
        ours = [r for r in runs if first <= r[0] < line_end]
        for f in detect_excerpt(read[first:line_end]):
            s, e = f.start + first, f.end + first
            if any(s < r_end and r_start < e for r_start, r_end, _d in ours):
                out.append(Finding(f.kind, s, e))
    return out


# ----- a value spelled out word by word: the radio alphabet, digit words ---------------------------------
# "Wi-Fi 密码：Zulu Uniform Hotel Golf 9 5 8 5" (read out over the phone), "card: five four eight six, one
# nine five six, …": each word is one character of the value. A run of such words (four or more, two of
# them letters, or eight digit words) is read as the characters, on its line with the line above, and a
# finding there withholds the words that spell it.
_SPOKEN = {
    **{w: w[0].lower() for w in ("alfa", "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
                                 "india", "juliett", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa",
                                 "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "whisky",
                                 "x-ray", "xray", "yankee", "zulu")},
    **{w: str(i) for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                                        "nine"))},
    **{str(i): str(i) for i in range(10)}, "oh": "0", "niner": "9",
}
_SPOKEN_WORD = r"(?:[A-Za-z]+(?:-[A-Za-z]+)?|\d)"
_AROUND = 160  # characters read on each side of a run (a label before it, the rest of its line)
_SPOKEN_RUN_RE = re.compile(rf"(?<![\w-]){_SPOKEN_WORD}(?:[ \t]*[ ,\-][ \t]*{_SPOKEN_WORD}){{3,40}}(?![\w-])")
_SPOKEN_WORD_RE = re.compile(_SPOKEN_WORD)
# (matched in the lower-cased text: twice as fast as with IGNORECASE)
_RADIO_RE = re.compile(r"\b(?:alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett?|kilo|lima|mike|"
                       r"november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiske?y|x-?ray|yankee|zulu|"
                       r"zero|one|two|three|four|five|six|seven|eight|nine|niner)\b")


def _spoken_runs(text: str) -> list[list[tuple[int, int, str]]]:
    runs = []
    for m in _SPOKEN_RUN_RE.finditer(text):
        run: list[tuple[int, int, str]] = []
        for w in _SPOKEN_WORD_RE.finditer(text, m.start(), m.end()):
            char = _SPOKEN.get(w.group(0).lower())
            if char is None:
                if len(run) >= 4:
                    runs.append(run)
                run = []
                continue
            run.append((w.start(), w.end(), char))
        if len(run) >= 4:
            runs.append(run)
    out = []
    for run in runs:
        letters = sum(c.isalpha() for _s, _e, c in run)
        words = sum(not text[s].isdigit() for s, _e, _c in run)
        if letters >= 2 and words >= 4 or letters == 0 and words >= 8:
            out.append(run)
    return out


def spoken_findings(text: str, detect_excerpt: Callable[[str], Iterable[Finding]]) -> list[Finding]:
    if len(_RADIO_RE.findall(text[:20000].lower())) < 4:
        return []
    out: list[Finding] = []
    for run in _spoken_runs(text):
        start, end = run[0][0], run[-1][1]
        # the run's line and the one above it, at most _AROUND characters either side (a long line of
        # such words, read whole for each run, was quadratic: 8.6 s per 24,000 characters)
        line_end = text.find("\n", end)
        line_end = min(len(text) if line_end < 0 else line_end, end + _AROUND)
        above = text.rfind("\n", 0, start)
        first = max(text.rfind("\n", 0, above) + 1 if above > 0 else 0, start - _AROUND)
        chars: list[str] = []
        origin: list[tuple[int, int]] = []
        pos = first
        for s, e, c in run:
            if start < s and ("," in text[pos:s] or "-" in text[pos:s]):
                chars.append(" ")  # "four nine one six, three …": the groups as written
                origin.append((pos, s))
            for i in range(pos, s):
                if start <= i < end:
                    continue  # (the spaces between the words)
                chars.append(text[i])
                origin.append((i, i + 1))
            chars.append(c)
            origin.append((s, e))
            pos = e
        for i in range(pos, line_end):
            chars.append(text[i])
            origin.append((i, i + 1))
        for f in detect_excerpt("".join(chars)):
            if f.end <= f.start:
                continue
            s, e = origin[f.start][0], origin[f.end - 1][1]
            if s < end and start < e:
                out.append(Finding(f.kind, s, e))
                # the value as written out elsewhere in the source ("也就是 zuhg9585")
                spelled = "".join(c for (a, _b), c in zip(origin[f.start:f.end], chars[f.start:f.end], strict=True)
                                  if start <= a < end)
                out += _written(text, spelled, f.kind)
    return out


def _written(text: str, value: str, kind: str) -> list[Finding]:
    if len(value) < 6:
        return []
    low, out = text.lower(), []
    if len(low) != len(text):  # (İ lower-cases to two characters: offsets would drift)
        return []
    pos = low.find(value.lower())
    while pos >= 0 and len(out) < 20:
        end = pos + len(value)
        if not (pos and low[pos - 1].isalnum() or end < len(low) and low[end].isalnum()):
            out.append(Finding(kind, pos, end))
        pos = low.find(value.lower(), end)
    return out
