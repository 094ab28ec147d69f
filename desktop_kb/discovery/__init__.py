"""Related material for a note: suggestions with reasons; a person confirms every link (I9).

Qt-free: the GUI reaches this through ``desktop_kb.tasks.related_tasks``.
"""

from desktop_kb.discovery.links_view import LinkEntry, NoteLinks, note_links
from desktop_kb.discovery.related import RelatedResult, Suggestion, related_for_note

__all__ = ["LinkEntry", "NoteLinks", "RelatedResult", "Suggestion", "note_links", "related_for_note"]
