"""Saving a QA answer as a note whose citations become links to their sources (DESIGN §1).

The note holds the question, the answer (or, for a local answer, the cited hit
list) and a numbered source list; every cited note or fragment is linked from
it through the store's one link function, so the answer stays one click from
its evidence.
"""

from __future__ import annotations

from typing import Any

from desktop_kb.store.links import InvalidLinkTarget

TITLE_CHARS = 80


def answer_note(entry: dict[str, Any]) -> tuple[str, str, list[tuple[str, int]]]:
    """(title, Markdown body, link targets) for an answer entry as the pane and CLI hold it."""
    question = (entry.get("question") or "").strip()
    generated = entry.get("mode") == "generated"
    records = entry.get("citations" if generated else "hits") or []
    title = question if len(question) <= TITLE_CHARS else question[: TITLE_CHARS - 1] + "…"
    lines = [f"# {question}", ""]
    if generated:
        lines += [(entry.get("answer") or "").strip(), ""]
    lines += ["## Sources" if generated else "## From the library", ""]
    for c in records:
        snippet = " ".join(str(c.get("snippet", "")).split())
        lines.append(f"[{c['n']}] **{c['title']}** — {snippet}")
    targets = list(dict.fromkeys((c["source_type"], int(c["source_id"])) for c in records))
    return title or "Answer", "\n".join(lines).rstrip() + "\n", targets


def save_answer_as_note(library: Any, entry: dict[str, Any]) -> int:
    """Create the note, then link each cited source (sources deleted since are skipped)."""
    title, body, targets = answer_note(entry)
    note_id = library.add_note(title, body)
    for target_type, target_id in targets:
        try:
            library.link(note_id, target_type, target_id, origin="manual")
        except InvalidLinkTarget:
            continue  # the cited note or fragment is gone; the text still names it
    return note_id
