"""Opening the window's library off the GUI thread, with everything the first frame draws."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from desktop_kb.discovery import guides
from desktop_kb.index.worker import IndexEvent
from desktop_kb.library import Library
from desktop_kb.store.errors import StoreError
from desktop_kb.tasks.document_tasks import LibrarySnapshot, load_snapshot
from desktop_kb.tasks.note_tasks import NoteRow, load_rows


@dataclass
class OpenedLibrary:
    library: Library
    rows: list[NoteRow]
    snapshot: LibrarySnapshot
    welcome_id: int | None


def open_library(data_dir: Path, listener: Callable[[IndexEvent], None], welcome: tuple[str, str],
                 holder: dict[str, Library]) -> OpenedLibrary:
    """Open, create the welcome note once, load the note list and the library tree."""
    library = Library(data_dir, listener=listener, role="app")
    holder["library"] = library  # so a window closed mid-open can still close it
    welcome_id = None
    if not library.get_setting("ui.welcome_created"):
        try:
            if not library.list_notes() and not library.list_notes(trashed=True):
                welcome_id = library.add_note(*welcome)
                written = library.get_note(welcome_id)  # as stored, for the fingerprint
                library.set_setting(guides.SETTING, guides.welcome_record(welcome_id, written.title, written.body))
            library.set_setting("ui.welcome_created", True)
        except StoreError:
            # Another program holds the library for writing (the first long import of a
            # library made by `desktop-kb import`): the window opens all the same ("could not
            # be opened" said it), and the welcome waits for a start that can write it.
            pass
    elif library.get_setting(guides.SETTING) is None and not library.read_only:
        # A welcome note written before the window recorded it: found by its exact text in
        # this language (in another, a start in that language finds it).
        found = guides.find_welcome(library.store_reader, *welcome)
        if found is not None:
            with contextlib.suppress(StoreError):  # written by a later start that can write
                library.set_setting(guides.SETTING, guides.welcome_record(found, *welcome))
    return OpenedLibrary(library, load_rows(library, trashed=False), load_snapshot(library), welcome_id)
