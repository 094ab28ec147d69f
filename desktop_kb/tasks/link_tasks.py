"""Work behind typed links and near-duplicate hints, run on the note queue (never the GUI thread)."""

from __future__ import annotations

from desktop_kb.discovery.panel import NearDuplicate
from desktop_kb.index.sources import load_source
from desktop_kb.library import Library
from desktop_kb.markup.headings import find_heading
from desktop_kb.markup.wiki_links import parse_wiki_links

Located = tuple[int, int | None, int | None]  # note id, heading start, heading end


def locate_link(library: Library, target: str) -> Located | None:
    """Where a ``[[target]]`` leads: the note, and the span of its heading for ``title#heading``.

    None when no live note has that title (the GUI then offers to create it).
    """
    found = parse_wiki_links(f"[[{target}]]")
    if not found:
        return None
    link = found[0]
    note_id = library.resolve_title(target)
    if note_id is None:
        return None
    body = library.get_note(note_id).body if link.heading else ""
    heading = find_heading(body, link.heading) if link.heading else None
    if heading is None:
        return note_id, None, None
    end = body.find("\n", heading.start)
    return note_id, heading.start, len(body) if end < 0 else end


def load_comparison(library: Library, note_id: int, duplicate: NearDuplicate
                    ) -> tuple[tuple[str, str], tuple[str, str]]:
    """(title, text) of the open note and of its near-duplicate, for the side-by-side view."""
    mine = library.get_note(note_id)
    other = load_source(library.store_reader, duplicate.key)
    return (mine.title, mine.body), (duplicate.title, other.text if other is not None else "")
