"""Gate 2, the content gate: decides per snippet — and for the question — what may leave (I8, I11).

A snippet from a note or document marked *local only* never leaves. Otherwise
the findings that matter are the spans detected in the snippet's whole source
(see :mod:`desktop_kb.qa.source_spans`) that the snippet's window overlaps,
plus anything detected in the window itself. With ``qa.sensitive = "block"``
(the default) a snippet with a finding is not sent at all; with ``"redact"``
each finding is replaced by a placeholder naming its kind. The question is
judged the same way and is capped in length, so nothing typed into it
leaves unchecked either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from desktop_kb.qa.detectors import Finding, detect, luhn_ok, merge, valid_resident_id
from desktop_kb.qa.source_spans import SourceSpans

SENSITIVE_MODES = ("block", "redact")
SENT, REDACTED, BLOCKED = "sent", "redacted", "blocked"
LOCAL_ONLY = "local_only"
DEFAULT_MAX_QUESTION_CHARS = 2000


@dataclass(frozen=True)
class Verdict:
    """What the gate decided for one snippet; ``text`` is what would be sent (None if blocked)."""

    action: str  # sent | redacted | blocked
    text: str | None
    reasons: list[str] = field(default_factory=list)  # "local_only" or finding kinds

    @property
    def allowed(self) -> bool:
        return self.action != BLOCKED


def redact(text: str, findings: Sequence[Finding]) -> str:
    out = []
    pos = 0
    for f in merge(list(findings)):
        out.append(text[pos:f.start])
        out.append(f"[{f.kind} removed]")
        pos = f.end
    out.append(text[pos:])
    return "".join(out)


def judge(text: str, findings: Sequence[Finding], *, mode: str) -> Verdict:
    """Block or redact ``text`` for ``findings`` (offsets into ``text``); unknown modes fail closed."""
    if mode not in SENSITIVE_MODES:
        mode = "block"
    found = merge(list(findings))
    if not found:
        return Verdict(SENT, text, [])
    kinds = list(dict.fromkeys(f.kind for f in found))
    if mode == "redact":
        return Verdict(REDACTED, redact(text, found), kinds)
    return Verdict(BLOCKED, None, kinds)


def check_snippet(text: str, *, local_only: bool, mode: str = "block",
                  source: SourceSpans | None = None, window: tuple[int, int] | None = None) -> Verdict:
    """The verdict for a packed window ``text`` = source[window[0]:window[1]].

    ``source`` holds the spans detected in the whole source; any of them the
    window overlaps counts even when the window shows only part of it (a key
    body without its ``BEGIN`` line, half a token).
    """
    if local_only:
        return Verdict(BLOCKED, None, [LOCAL_ONLY])
    findings = detect(text)
    if source is not None and window is not None:
        findings += source.overlapping(*window)
    return judge(text, findings, mode=mode)


def check_question(question: str, *, mode: str = "block") -> Verdict:
    """The question passes the same detectors as every snippet."""
    return judge(question, detect(question), mode=mode)


def count_verdicts(verdicts: Sequence[Verdict]) -> dict[str, int]:
    counts = {SENT: 0, REDACTED: 0, BLOCKED: 0}
    for v in verdicts:
        counts[v.action] += 1
    return counts


__all__ = ["BLOCKED", "DEFAULT_MAX_QUESTION_CHARS", "Finding", "LOCAL_ONLY", "REDACTED", "SENSITIVE_MODES",
           "SENT", "Verdict", "check_question", "check_snippet", "count_verdicts", "detect", "judge", "luhn_ok",
           "redact", "valid_resident_id"]
