"""Note work for the window, run on the ordered note queue (never on the GUI thread).

Also the note list's row: a note reduced to what the list draws, built off-thread so
a long list never costs the GUI thread a pass over every body.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from desktop_kb.library import Library
from desktop_kb.markup.plain import plain_title
from desktop_kb.store.notes import Note


@dataclass(frozen=True)
class NoteRow:
    id: int
    title: str
    updated_at: float
    local_only: bool
    preview: str

    @classmethod
    def from_note(cls, note: Note) -> NoteRow:
        return cls(note.id, note.title, note.updated_at, note.local_only,
                   preview_of(note.body, note.title))


def preview_of(body: str, title: str = "") -> str:
    """The first line with text, without Markdown markers, cut to fit one list line.

    A first heading that only repeats the title is passed over: the list draws the title
    above, and "Welcome to Desktop KB / Welcome to Desktop KB" told nothing of the note."""
    first = True
    for raw in body.splitlines():
        line = raw.strip().lstrip("#>*-+ ").strip()
        if not line:
            continue
        if first and raw.lstrip().startswith("#") and _same_title(line, title):
            first = False
            continue
        return line[:120]
    return ""


def _same_title(heading: str, title: str) -> bool:
    return bool(title) and plain_title(heading.rstrip("# ")).strip().casefold() == plain_title(title).strip().casefold()


def load_rows(library: Library, trashed: bool, tags: list[str] | None = None) -> list[NoteRow]:
    return [NoteRow.from_note(n) for n in library.list_notes(trashed=trashed, tags=tags or ())]


def create_note(library: Library, title: str, body: str,
                derived_from: Sequence[tuple[str, int]] = ()) -> Note:
    """``derived_from``: what the note is made from; local-only material makes it local only (I11)."""
    return library.get_note(library.add_note(title, body, derived_from=derived_from))


def restore_note(library: Library, note_id: int) -> Note:
    library.restore_note(note_id)
    return library.get_note(note_id)


def create_note_from_passage(library: Library, title: str, body: str, fragment_id: int) -> Note:
    """A note quoting an imported passage ("New note from selection" in the reader).

    The note links to the passage, and is made *from* it, so the store's contagion rule
    (I11) makes it local-only when the passage's document is.
    """
    note_id = library.add_note(title, body, derived_from=(("fragment", fragment_id),))
    library.link(note_id, "fragment", fragment_id, origin="manual")
    return library.get_note(note_id)
