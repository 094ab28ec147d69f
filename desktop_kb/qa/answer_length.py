"""Answer length: ``qa.max_answer_tokens`` is sent as ``max_tokens`` and enforced on the stream.

A provider that honours ``max_tokens`` stops by itself. One that does not (a
small local model repeating the prompt for minutes) is stopped here: the
stream is cut once it has certainly passed the limit and the answer is
marked. "Certainly" because the count is a lower bound on any tokenizer's —
content chunks (a provider sends at least one token per chunk) or the text
at 5 Latin characters or 2 Han characters per token, whichever is more — so
an answer that kept to the limit is never cut.
"""

from __future__ import annotations

from desktop_kb.text.han import HAN_CHAR_RE

DEFAULT_MAX_ANSWER_TOKENS = 1024


class AnswerLimit:
    """Counts an answer as it streams in; ``exceeded`` once it has passed ``max_tokens``."""

    def __init__(self, max_tokens: int) -> None:
        self.max_tokens = max_tokens
        self._parts: list[str] = []
        self._chars = 0
        self._han = 0

    def add(self, delta: str) -> bool:
        """Record one content chunk; True when the answer is now over the limit."""
        self._parts.append(delta)
        self._chars += len(delta)
        self._han += len(HAN_CHAR_RE.findall(delta))
        return self.exceeded

    @property
    def exceeded(self) -> bool:
        counted = max(len(self._parts), self._han // 2 + (self._chars - self._han) // 5)
        return counted > self.max_tokens
