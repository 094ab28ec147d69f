"""Keys never land anywhere: text from a provider is scrubbed before it is shown, logged or stored.

A provider's error body may echo the request's ``Authorization`` header, the
key itself or a piece of it ("Incorrect API key provided: sk-proj-…abcd");
a hostile endpoint could even stream it back as the answer. Known secret
values (and any 8-character piece of them), ``Authorization``/``Bearer``
values and anything the content detectors call a key are replaced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from desktop_kb.qa.detectors import detect
from desktop_kb.qa.detectors.base import API_KEY, PASSWORD, PRIVATE_KEY

MASK = "[redacted]"
_PIECE = 8  # shortest fragment of a known secret that is masked on its own
_HEADER_RE = re.compile(
    r"(?i)((?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic|token|bot)\s+)?)[^\s\"',;}]+"
    r"|(\bbearer\s+)[A-Za-z0-9._~+/=-]+"
    r"|((?:x-)?api[-_]?key[\"']?\s*[:=]\s*[\"']?)[^\s\"',;}]+")
_WORD_RE = re.compile(r"[^\s\"'`<>(){}\[\],;]+")


def _leaks(word: str, secret: str) -> bool:
    """Whether ``word`` shows ``secret`` or a telling piece of it ("sk-proj-Zq8L…BlbkFJ")."""
    if secret in word:
        return True
    for piece in re.split(r"[*.…]+", word):
        if len(piece) >= _PIECE and piece in secret:
            return True
        if len(piece) >= 4 and (secret.startswith(piece) or secret.endswith(piece)) and piece != word:
            return True  # a masked hint keeps the key's first and last characters
    return False


def scrub_secrets(text: str, known: Iterable[str | None] = ()) -> str:
    """``text`` with known secrets, header credentials and detected keys replaced by a mask."""
    if not text:
        return text
    secrets = [k for k in known if k and len(k) >= 4]
    for secret in secrets:
        text = text.replace(secret, MASK)
    if secrets:
        text = _WORD_RE.sub(lambda m: MASK if any(_leaks(m.group(0), s) for s in secrets) else m.group(0), text)
    text = _HEADER_RE.sub(lambda m: (m.group(1) or m.group(2) or m.group(3)) + MASK, text)
    findings = [f for f in detect(text) if f.kind in (API_KEY, PRIVATE_KEY, PASSWORD)]
    for f in sorted(findings, key=lambda f: f.start, reverse=True):
        if text[f.start:f.end] != MASK:
            text = text[:f.start] + MASK + text[f.end:]
    return text


# Characters a key or token is made of; a run of them is never shown before it has ended.
_TOKEN_TAIL_RE = re.compile(r"[A-Za-z0-9_\-+/=.:~%*…]+\Z")
_MAX_HELD = 512  # a longer run is shown (scrubbed) anyway, so a stream cannot stall the display


class StreamScrubber:
    """Scrubs a streamed answer piece by piece for live display.

    Scrubbing each delta alone lets a key streamed in small pieces ("sk-p",
    "roj-Zq8L", …) reach the screen and the terminal's scrollback. The run of
    key characters at the end of what arrived is held back until something
    that cannot belong to a key follows it (or the stream ends), so every key
    is scrubbed whole.
    """

    def __init__(self, known: Iterable[str | None] = ()) -> None:
        self._known = [k for k in known if k]
        self._held = ""

    def feed(self, text: str) -> str:
        """What may be shown now of ``text`` (and of what was held back before it)."""
        self._held += text
        tail = _TOKEN_TAIL_RE.search(self._held)
        cut = tail.start() if tail is not None and len(tail.group(0)) <= _MAX_HELD else len(self._held)
        ready, self._held = self._held[:cut], self._held[cut:]
        return scrub_secrets(ready, self._known) if ready else ""

    def flush(self) -> str:
        """The rest, when the stream has ended (finished, stopped or failed)."""
        ready, self._held = self._held, ""
        return scrub_secrets(ready, self._known) if ready else ""
