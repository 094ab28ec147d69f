"""Opening the window's library off the GUI thread, with everything the first frame draws."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
            library.set_setting("ui.welcome_created", True)
        except StoreError:
            # Another program holds the library for writing (the first long import of a
            # library made by `desktop-kb import`): the window opens all the same ("could not
            # be opened" said it), and the welcome waits for a start that can write it.
            pass
    return OpenedLibrary(library, load_rows(library, trashed=False), load_snapshot(library), welcome_id)
