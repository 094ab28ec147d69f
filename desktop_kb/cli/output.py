"""The only place the CLI writes to the terminal: results, streamed answers, errors, progress.

Titles, bodies, file names, snippets and model answers come from the library, from
imported files or from a provider, so any of them may carry terminal control
sequences: colour and cursor codes, OSC 8 hyperlinks that point somewhere else than
they say, window-title or clipboard writes, a bell, a carriage return that lets a
later string overwrite an earlier one, bidi overrides that reorder what is shown.
Text output is cleaned of all of them here; JSON output keeps every string exactly
(a script gets the real value) but escapes the characters a terminal would act on,
so it stays valid JSON and is just as safe on screen.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from typing import Any

from desktop_kb.progress import Progress

# Escape sequences, removed whole (not only the ESC byte) so no "[31m" debris remains.
# An unterminated string sequence (OSC …) runs to the end of the text, as a terminal
# would swallow it.
_CSI = r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
_STRING_SEQ = r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
_OTHER_ESC = r"\x1b[ -/]*[0-~]?"
_SEQUENCE = re.compile(f"{_CSI}|{_STRING_SEQ}|{_OTHER_ESC}")
# A sequence that has begun but not ended at the end of a streamed piece: held back
# until the next piece shows how it ends.
_INCOMPLETE_TAIL = re.compile(
    r"(?:(?:\x1b\[|\x9b)[0-?]*[ -/]*"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*\x1b?"
    r"|\x1b[ -/]*)\Z")
# C0 controls but tab and newline, DEL, C1 controls, bidi embeddings/overrides/isolates.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# What JSON output escapes beyond json.dumps's own (which covers C0): a terminal acts on
# these, and a \uXXXX escape keeps the value exact for the program reading it.
_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_MAX_HELD = 4096  # a stream never holds back more than this waiting for a sequence to end


def clean(text: str) -> str:
    """``text`` as the terminal should show it: no escape sequences, no controls but \\t \\n.

    A carriage return becomes a line break, so text "hidden" behind it stays visible.
    """
    text = _SEQUENCE.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text)


# A tab or line break inside one value, written out as its escape; \v \f and the C1 NEL are
# controls that clean() drops anyway.
_IN_FIELD = str.maketrans({"\t": "\\t", "\n": "\\n", "\r": "\\r",
                           "\u2028": "\\u2028", "\u2029": "\\u2029"})


def field(value: object) -> str:
    """One value (a title, a file name, a reason) inside a line of text output: its tabs and
    line breaks written as ``\\t`` ``\\n`` ``\\r``, so the columns and lines a script reads stay
    whole. A title typed with a tab, or a file named with a newline, split 'note list' and
    'document list' rows in two. JSON output keeps the value exact."""
    return str(value).translate(_IN_FIELD)


def snippet_line(snippet: str, title: str = "") -> str:
    """A snippet as one readable line under its title: no Markdown, no line breaks, and no
    leading heading that ``title`` (its heading path) already names.

    Printed as stored, a hit's second line started at the margin ("## `Rc<T>` …",
    "<span class=…>") and the list stopped reading as a list; under "智能指针 > Rc<T>" it read
    "Rc<T> Rc<T> 启用多所有权", as the window no longer does. JSON keeps the stored text.
    """
    from desktop_kb.markup.plain import repeated_headings, strip_markdown

    return " ".join(strip_markdown(snippet[repeated_headings(snippet, title):])[0].split())


def to_json(payload: Any) -> str:
    """One line of valid JSON whose strings are exact and safe to show on a terminal."""
    text = json.dumps(payload, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _before_open_cr(done: str) -> int:
    """Where ``done`` may be cut so that a CR whose LF can still come is held back: a CR
    followed only by whole sequences (clean() drops them before it reads CRs). Read over
    the sequences' own spans, so a CR inside a string sequence (OSC …) is not taken for one.
    """
    pos = len(done)
    for match in reversed(list(_SEQUENCE.finditer(done))):
        if match.end() != pos:
            break
        pos = match.start()
    return pos - 1 if pos > 0 and done[pos - 1] == "\r" else len(done)


class StreamCleaner:
    """Cleans text that arrives in pieces (a streamed answer) as if it came whole.

    A sequence or a CR/LF pair split across pieces is held back until it is complete.
    """

    def __init__(self) -> None:
        self._held = ""

    def feed(self, piece: str) -> str:
        text = self._held + piece
        cut = len(text)
        tail = _INCOMPLETE_TAIL.search(text)
        if tail is not None:
            cut = tail.start()
        cut = _before_open_cr(text[:cut])
        if len(text) - cut > _MAX_HELD:
            cut = len(text)
        self._held = text[cut:]
        return clean(text[:cut])

    def flush(self) -> str:
        text, self._held = self._held, ""
        return clean(text)


class AnswerStream:
    """Writes a streamed answer to stdout as it arrives, cleaned."""

    def __init__(self) -> None:
        self._cleaner = StreamCleaner()

    def write(self, piece: str) -> None:
        sys.stdout.write(self._cleaner.feed(piece))
        sys.stdout.flush()

    def close(self, trailer: str = "") -> None:
        sys.stdout.write(self._cleaner.flush() + trailer)
        sys.stdout.flush()


def emit(args: argparse.Namespace, payload: Any, text: str | Callable[[], str]) -> None:
    """A command's result: ``payload`` as JSON with ``--json``, else ``text`` cleaned."""
    if args.json:
        print(to_json(payload))
    else:
        print(clean(text() if callable(text) else text))


def error(message: str) -> None:
    """One line on stderr, prefixed with the program name."""
    print(f"desktop-kb: {clean(message)}", file=sys.stderr)


def notice(message: str) -> None:
    """A word about what is happening (not a result), on stderr."""
    print(clean(message), file=sys.stderr)


def stderr_progress(enabled: bool) -> Progress:
    """A one-line progress bar on stderr when ``enabled`` (stderr is a terminal),
    with the time left at the recent pace once it is known."""
    from desktop_kb.index.eta import RemainingTime

    last = [0.0]
    last_width = [0]
    pace: dict[str, RemainingTime] = {}

    def show(label: str, done: int, maximum: int) -> None:
        now = time.monotonic()
        meter = pace.setdefault(label, RemainingTime())
        meter.update(done)
        if not enabled or (now - last[0] < 0.1 and done < maximum):
            return
        last[0] = now
        width = 30
        filled = int(width * done / maximum) if maximum else width
        left = meter.seconds_left(done, maximum) if maximum and done < maximum else None
        eta = f", {format_duration(left)} left" if left is not None and left >= 1 else ""
        line = f"{clean(label):<8} [{'#' * filled}{'.' * (width - filled)}] {done}/{maximum}{eta}"
        sys.stderr.write("\r" + line.ljust(last_width[0]))  # blanks cover a longer last line
        last_width[0] = len(line)
        if maximum and done >= maximum:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return Progress(show)


def format_duration(seconds: float) -> str:
    """``about 3 h 20 min`` / ``about 12 min`` / ``under a minute``."""
    minutes = round(seconds / 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 60:
        return f"about {minutes} min"
    return f"about {minutes // 60} h {minutes % 60} min"


def stage_reporter(progress: Progress) -> Callable[[str, int, int], None]:
    """A ``(stage, done, total)`` callback that drives ``progress``, restarting per stage."""

    def report(stage: str, done: int, total: int) -> None:
        if progress.label != stage:
            progress.start(stage, total)
        progress.done = done
        progress.tick(0)

    return report
