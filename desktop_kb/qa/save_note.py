"""Saving a QA answer as a note whose citations become links to their sources (DESIGN §1).

The note holds the question, the answer (or, for a local answer, the cited hit
list) and a numbered source list; every cited note or fragment is linked from
it through the store's one link function, so the answer stays one click from
its evidence.

Local-only is contagious (I11): the note is made from every packed snippet's
source as well as the cited ones, so an answer built from local-only material
is saved local-only, with those sources named as the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from desktop_kb.markup.plain import plain_title, repeated_headings, strip_markdown
from desktop_kb.store.links import InvalidLinkTarget

TITLE_CHARS = 80


def question_title(question: str) -> str:
    """A question as a title (a saved answer's, a chat's): whole up to :data:`TITLE_CHARS`,
    else cut with "…" so it never looks whole when it is not."""
    question = " ".join(question.split())
    return question if len(question) <= TITLE_CHARS else question[: TITLE_CHARS - 1] + "…"


@dataclass(frozen=True)
class NoteWords:
    """The note's own headings, in the language of whoever saves it (the app passes its UI's)."""

    sources: str = "Sources"
    from_library: str = "From the library"
    untitled: str = "Answer"


def answer_note(entry: dict[str, Any], words: NoteWords | None = None) -> tuple[str, str, list[tuple[str, int]]]:
    """(title, Markdown body, link targets) for an answer entry as the pane and CLI hold it.

    Each source is one line: its title and its snippet without the source's own Markdown
    (a "### 所有权规则" or "- " in the middle of a line read as noise in the saved note).
    """
    words = words or NoteWords()
    question = (entry.get("question") or "").strip()
    generated = entry.get("mode") == "generated"
    records = entry.get("citations" if generated else "hits") or []
    title = question_title(question)
    lines = [f"# {question}", ""]
    if generated:
        lines += [(entry.get("answer") or "").strip(), ""]
    lines += [f"## {words.sources if generated else words.from_library}", ""]
    for c in records:
        raw = str(c.get("snippet", ""))
        raw = raw[repeated_headings(raw, str(c["title"])):]  # the title names those headings already
        snippet = " ".join(strip_markdown(raw)[0].split())
        lines.append(f"[{c['n']}] **{plain_title(str(c['title']))}** — {snippet}")
    targets = list(dict.fromkeys((c["source_type"], int(c["source_id"])) for c in records))
    return title or words.untitled, "\n".join(lines).rstrip() + "\n", targets


def derived_sources(entry: dict[str, Any]) -> tuple[list[tuple[str, int]], bool]:
    """(sources the answer was made from, whether a local-only one has gone from the store since).

    Packed snippets count even when they were withheld: the answer (and a local
    answer's hit list) was assembled from them.
    """
    records = [*(entry.get("verdicts") or []), *(entry.get("citations") or []), *(entry.get("hits") or [])]
    sources = list(dict.fromkeys((str(r["source_type"]), int(r["source_id"])) for r in records
                                 if "source_type" in r and "source_id" in r))
    was_local = {(str(v["source_type"]), int(v["source_id"])) for v in entry.get("verdicts") or []
                 if "local_only" in (v.get("reasons") or [])}
    return sources, bool(was_local)


def save_answer_as_note(library: Any, entry: dict[str, Any], words: NoteWords | None = None) -> int:
    """Create the note (local-only if its material was), then link each cited source."""
    from desktop_kb.store.local_only import flags_now

    title, body, targets = answer_note(entry, words)
    sources, had_local = derived_sources(entry)
    gone_local = had_local and any(flag is None for flag in flags_now(
        library.store_reader, [s for s in sources if s[0] in ("note", "fragment")]).values())
    # A local-only source deleted since leaves no record to name, but its text may be in the answer.
    note_id = library.add_note(title, body, derived_from=sources, local_only=gone_local)
    for target_type, target_id in targets:
        try:
            library.link(note_id, target_type, target_id, origin="manual")
        except InvalidLinkTarget:
            continue  # the cited note or fragment is gone; the text still names it
    return note_id
