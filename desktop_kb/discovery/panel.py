"""What the related panel shows for a note: grouped suggestions and near-duplicate hints.

On top of the scored suggestions (``related.related_for_note``, which scores and
filters), this:

* hides a suggestion that is the same passage as one dismissed for this note
  (a copy in another file, a re-import under a new id): a dismissal covers the
  passage, not only the row it was made on;
* groups the remaining copies of one passage into one suggestion;
* says when the open note is nearly the same as another note or passage
  (a model puts it as close as a rewording of the same text, or most of the
  text is shared), so the
  person can compare them side by side. Nothing is ever merged.

Reads only; the panel's buttons write through the library (I9).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from desktop_kb.discovery.grouping import SuggestionGroup, group_suggestions
from desktop_kb.discovery.near_duplicates import Shingles, overlap, same_passage
from desktop_kb.discovery.related import RelatedResult
from desktop_kb.index.sources import SourceKey, load_source
from desktop_kb.store import links as store_links

OVERFETCH = 3  # suggestions scored per group shown: room for copies and hidden ones
# Fewer notes and documents than this, and an empty panel says the library is still small:
# "nothing related" there means little to compare with, not a note without neighbours.
SMALL_LIBRARY = 20
NEAR_OVERLAP = 0.6  # shared text (near_duplicates.overlap) at which a note is nearly the same


@dataclass(frozen=True)
class NearDuplicate:
    target_type: str
    target_id: int
    title: str
    overlap: float  # 0..1 shared text
    similarity: float | None  # meaning (``Suggestion.likeness``: 1 = the same text), when a model took part
    document_id: int | None = None
    same_meaning: bool = False  # the model reads it as the same text reworded

    @property
    def key(self) -> SourceKey:
        return (self.target_type, self.target_id)

    def as_json(self) -> dict[str, object]:
        return {"target_type": self.target_type, "target_id": self.target_id, "title": self.title,
                "overlap": round(self.overlap, 3),
                "similarity": None if self.similarity is None else round(self.similarity, 4)}


@dataclass
class RelatedMaterial:
    note_id: int
    groups: list[SuggestionGroup] = field(default_factory=list)
    near_duplicates: list[NearDuplicate] = field(default_factory=list)
    mode: str = "lexical"
    hidden_as_dismissed: int = 0  # copies of dismissed passages left out
    scored: RelatedResult | None = None  # what scoring returned, before grouping
    missing: bool = False
    welcome: bool = False  # the app's untouched welcome note (``discovery.guides``)
    model_loading: str | None = None  # keywords only for now: this installed model is loading
    model_failed: bool = False  # keywords only: the chosen model could not be loaded
    # Notes and documents in the library when there is nothing to show (else None).
    library_size: tuple[int, int] | None = None

    @property
    def small_library(self) -> bool:
        return self.library_size is not None and sum(self.library_size) < SMALL_LIBRARY

    def as_json(self) -> dict[str, object]:
        return {"note_id": self.note_id, "mode": self.mode,
                "near_duplicates": [d.as_json() for d in self.near_duplicates],
                "suggestions": [{**g.as_json(), "rank": i} for i, g in enumerate(self.groups, start=1)]}


def _shingles(store: sqlite3.Connection, keys: list[SourceKey]) -> dict[SourceKey, Shingles]:
    found: dict[SourceKey, Shingles] = {}
    for key in dict.fromkeys(keys):
        source = load_source(store, key)
        if source is not None:
            found[key] = Shingles.of(source.text)
    return found


def related_material(store: sqlite3.Connection, scored: RelatedResult, limit: int) -> RelatedMaterial:
    """``scored``: the note's suggestions, fetched ``OVERFETCH`` times ``limit`` deep."""
    note_id = scored.note_id
    view = RelatedMaterial(note_id, mode=scored.mode, scored=scored, missing=scored.missing,
                           welcome=scored.welcome)
    if scored.missing or scored.welcome or limit <= 0:
        return view
    dismissed = sorted(store_links.dismissed_targets(store, note_id))
    keys = [s.key for s in scored.suggestions]
    texts = _shingles(store, [("note", note_id), *keys, *dismissed])
    own = texts.get(("note", note_id))

    hidden = [d for d in dismissed if d in texts]
    kept = []
    for s in scored.suggestions:
        mine = texts.get(s.key)
        if mine is not None and any(same_passage(mine, texts[d]) for d in hidden):
            view.hidden_as_dismissed += 1
            continue
        kept.append(s)

    groups = group_suggestions(kept, texts)
    for group in groups:  # one hint per passage, however many copies it has
        s = group.lead
        shared = overlap(own, texts[s.key]) if own is not None and s.key in texts else 0.0
        if shared >= NEAR_OVERLAP or s.same_meaning:
            view.near_duplicates.append(NearDuplicate(
                s.target_type, s.target_id, s.title, shared,
                s.likeness if s.likeness is not None else s.similarity, s.document_id, s.same_meaning))
    view.groups = groups[:limit]
    if not view.groups:
        view.library_size = library_size(store)
    return view


def library_size(store: sqlite3.Connection) -> tuple[int, int]:
    """(live notes, imported documents)."""
    notes = store.execute("SELECT count(*) FROM notes WHERE trashed_at IS NULL").fetchone()[0]
    documents = store.execute("SELECT count(*) FROM documents").fetchone()[0]
    return int(notes), int(documents)
