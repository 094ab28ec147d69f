"""A value written in pieces, read whole: string literals joined by ``+`` or by nothing, a line continued
with ``\\``, a token broken over two lines, cells joined by ``<br>``, a mask in the middle.

People split a key to fit a line (``"sk-proj-…"`` / ``"…"`` in Python, ``'…' +`` in
JavaScript or Java, ``export K="…"\\`` in a shell, a YAML ``>-`` block, two halves
copied on two lines) or hide its middle (``sk-proj-Ab3…****…x9Q``). No piece alone looks
like the secret. So around every place where a token stops and goes on (a *join*),
the text is read again with the joint taken out: the lines around it, so the label
above stays in view. What the detectors find in that joined excerpt is mapped back
to the pieces, which are withheld together (the joint too: it is only quotes and spaces).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from desktop_kb.qa.detectors.base import BANK_CARD, MOBILE, PASSPORT, RESIDENT_ID, Finding
from desktop_kb.text.han import HAN_CHARS

_T = r"A-Za-z0-9+/=_!@#$%^&*.~-"  # token characters
# Joints, each deleted in the joined reading. Each pattern starts with a literal or a small set of
# characters, so the engine skips ahead to candidates; the pieces on both sides are checked after.
_JOINTS: tuple[tuple[re.Pattern[str], int, int], ...] = (
    # "abc" "def", "abc" + "def", 'abc' +\n 'def', "abc"\\\n"def": a literal closed and another opened
    (re.compile(r"[\"'`][ \t]*(?:\+[ \t]*)?(?:\\?\n[ \t]*(?:\+[ \t]*)?)?[\"'`]"), 4, 4),
    # abc\\\ndef: a shell line continued inside a token
    (re.compile(r"\\\n[ \t]*"), 6, 4),
    # abc<br>def: a table cell's line break
    (re.compile(r"<br\s*/?>"), 6, 4),
    # abc****def: a mask in the middle of a token (what is left is still most of it)
    # ("..." and "…" are not masks: "sk-proj-abcd...wxyz" is how a dashboard shows a key it keeps)
    (re.compile(r"[*•●]{3,}"), 4, 4),
    # a token at the end of a line, the rest of it alone on the next (a key copied in halves, a YAML
    # folded block, an element's text)
    # (no dots: "Recovery key ID 1A2B…" above a key is a sentence's end, not half a token)
    # (no "=" but padding: "LENGTH=12" / "TIMEOUT=30" are two settings, not one value)
    (re.compile(r"\n[ \t]*(?=[A-Za-z0-9+/_!@#$%^&*~-]{4,200}={0,2}[ \t]*(?:\n|$))"), 6, 4),
)
_PIECE_RE = re.compile(rf"[{_T}{HAN_CHARS}]+")
# A number with its middle masked (4403**********123X, 138****5678) is what its owner chose to show: what is
# left of it is no longer the number, whatever a word before it says.
_MASK_RE = re.compile(r"[*•●]+")
_NUMBER_KINDS = {RESIDENT_ID, PASSPORT, MOBILE, BANK_CARD}
_MASKED_PIECE_RE = re.compile(r"[A-Za-z0-9]+")
_LINE_PIECE_RE = re.compile(r"[A-Za-z0-9+/_!@#$%^&*~-]+={0,2}")


def _joints(text: str) -> list[tuple[int, int]]:
    """(start, end) of every joint with a piece of a token on both sides."""
    out = []
    for i, (rx, before, after) in enumerate(_JOINTS):
        piece = _MASKED_PIECE_RE if i == 3 else _LINE_PIECE_RE if i == 4 else _PIECE_RE
        found = []
        for m in rx.finditer(text):
            s, e = m.start(), m.end()
            if s >= before and e + after <= len(text) and piece.fullmatch(text, s - before, s) \
                    and piece.fullmatch(text, e, e + after):
                found.append((s, e))
        out += _short_chains(text, found) if i == 4 else found
    out.sort()
    return out


def _short_chains(text: str, joints: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Line joints in runs of at most two (a key in two or three pieces); a longer run of one-word lines
    is a list (keywords in a lexer, fruit), not a value."""
    out: list[tuple[int, int]] = []
    run: list[tuple[int, int]] = []
    for joint in joints:
        if run and "\n" in text[run[-1][1]:joint[0]]:
            out += run if len(run) <= 2 else []
            run = []
        run.append(joint)
    out += run if len(run) <= 2 else []
    return out


_CONTEXT_LINES = 3  # lines kept above a joint: the label is usually there


def _excerpts(text: str, joints: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Line-aligned regions around the joints (a few lines above, one below), merged."""
    regions: list[tuple[int, int]] = []
    for joint_start, joint_end in joints:
        start = joint_start
        for _ in range(_CONTEXT_LINES + 1):
            start = text.rfind("\n", 0, max(0, start - 1)) + 1 if start > 0 else 0
        end = text.find("\n", joint_end)
        end = len(text) if end < 0 else (text.find("\n", end + 1) if text.find("\n", end + 1) >= 0 else len(text))
        if regions and start <= regions[-1][1]:
            regions[-1] = (regions[-1][0], max(regions[-1][1], end))
        else:
            regions.append((start, end))
    return regions


def joined_findings(text: str, detect_all: Callable[[str], Iterable[Finding]]) -> list[Finding]:
    """Findings in ``text`` that only its joined reading shows (offsets into ``text``).

    ``detect_all`` runs the detectors on a piece of normalised text.
    """
    joints = _joints(text)
    if not joints:
        return []
    out: list[Finding] = []
    for start, end in _excerpts(text, joints):
        pieces: list[str] = []
        origin: list[int] = []
        pos = start
        for joint_start, joint_end in joints:
            if joint_start < start or joint_end > end or joint_start < pos:
                continue
            pieces.append(text[pos:joint_start])
            origin.extend(range(pos, joint_start))
            pos = joint_end
        pieces.append(text[pos:end])
        origin.extend(range(pos, end))
        joined = "".join(pieces)
        for f in detect_all(joined):
            if f.end <= f.start:
                continue
            s, e = origin[f.start], origin[f.end - 1] + 1
            crossed = [(a, b) for a, b in joints if s < b and a < e]  # only what crosses a joint is new
            if crossed and not (f.kind in _NUMBER_KINDS and any(_MASK_RE.fullmatch(text, a, b) for a, b in crossed)):
                out.append(Finding(f.kind, s, e))
    return out
