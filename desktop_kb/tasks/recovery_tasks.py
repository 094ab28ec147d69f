"""Putting recovered text back into the library (run on the ordered note queue)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desktop_kb import recovery
from desktop_kb.library import Library
from desktop_kb.recovery import RecoveredText
from desktop_kb.store.notes import NoteNotFound


@dataclass(frozen=True)
class Restored:
    into_note: list[int]  # notes whose text was replaced by the recovered text
    as_new_note: list[int]  # new notes (the note was gone, or changed since the text was kept)


def restore_all(library: Library, items: list[RecoveredText],
                copy_title: Callable[[str], str]) -> Restored:
    """Each recovered text goes back into its note if the note has not changed since the
    text was kept; otherwise (or if the note is gone) it becomes a new note — so neither
    the recovered text nor a later edit is overwritten."""
    into: list[int] = []
    as_new: list[int] = []
    for item in items:
        try:
            note = library.get_note(item.note_id)
        except NoteNotFound:
            note = None
        if note is not None and not note.trashed and recovery.holds_base(
                item, note.title, note.body, note.updated_at):
            library.save_note(item.note_id, title=item.title, body=item.body)
            into.append(item.note_id)
        else:
            as_new.append(library.add_note(copy_title(item.title), item.body))
        recovery.discard(library.paths.data_dir, item.note_id, body=item.body)
    return Restored(into, as_new)


def discard_all(library: Library, items: list[RecoveredText]) -> None:
    for item in items:
        recovery.discard(library.paths.data_dir, item.note_id, body=item.body)
