"""One passage, one suggestion: copies of the same text are shown (and dismissed) together.

An imported folder often holds the same README, licence or chapter twice; a
person who dismissed one copy should not meet the other one next. Suggestions
keep their order; each joins the first group above it whose lead is the same
passage (``near_duplicates.same_passage``), so the group's lead is its best-
scored copy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from desktop_kb.discovery.near_duplicates import Shingles, same_passage
from desktop_kb.discovery.related import Suggestion
from desktop_kb.index.sources import SourceKey


@dataclass(frozen=True)
class SuggestionGroup:
    lead: Suggestion
    copies: tuple[Suggestion, ...] = ()  # the same passage elsewhere, best first

    @property
    def members(self) -> tuple[Suggestion, ...]:
        return (self.lead, *self.copies)

    @property
    def keys(self) -> list[SourceKey]:
        return [s.key for s in self.members]

    def as_json(self) -> dict[str, object]:
        out = self.lead.as_json()
        out["copies"] = [{"target_type": s.target_type, "target_id": s.target_id, "title": s.title}
                         for s in self.copies]
        return out


def group_suggestions(
    suggestions: Sequence[Suggestion], shingles: Mapping[SourceKey, Shingles],
) -> list[SuggestionGroup]:
    """Group copies; a suggestion without known text stands alone."""
    leads: list[Suggestion] = []
    copies: dict[SourceKey, list[Suggestion]] = {}
    for suggestion in suggestions:
        own = shingles.get(suggestion.key)
        home = None
        if own is not None:
            home = next((lead for lead in leads if lead.key in shingles
                         and same_passage(shingles[lead.key], own)), None)
        if home is None:
            leads.append(suggestion)
            copies[suggestion.key] = []
        else:
            copies[home.key].append(suggestion)
    return [SuggestionGroup(lead, tuple(copies[lead.key])) for lead in leads]
