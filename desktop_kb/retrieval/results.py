"""Search result records shared by CLI, GUI, discovery and QA."""

from __future__ import annotations

from dataclasses import dataclass, field

NOTHING_NOTICE = "nothing in the library is close to this"
#: Keyword search (no model) under the relevance floor: the passages holding some of the words
#: are listed under this notice instead of nothing (``search.weak_matches_shown``).
WEAK_NOTICE = "only weak keyword matches: few of these words are in the library"


@dataclass(frozen=True)
class SearchResult:
    rank: int
    source_type: str
    source_id: int
    title: str
    snippet: str
    highlights: list[tuple[int, int]]  # absolute offsets in the source text
    start: int  # snippet span in the source text: text[start:end] == snippet
    end: int
    score: float
    chunk_id: int
    chunk_start: int
    chunk_end: int
    document_id: int | None = None
    local_only: bool = False
    lexical_score: float = 0.0
    dense_score: float = 0.0
    path: str | None = None  # the imported file of a fragment
    page: int | None = None  # paged documents: the page the passage starts on
    page_end: int | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "rank": self.rank,
            "source_type": self.source_type,
            "source_id": self.source_id,
            "title": self.title,
            "snippet": self.snippet,
            "highlights": [list(h) for h in self.highlights],
            "start": self.start,
            "end": self.end,
            "score": round(self.score, 6),
            **({"page": self.page, "page_end": self.page_end} if self.page is not None else {}),
        }
        if self.source_type == "fragment":
            # Which document and file a fragment belongs to, so a script can open it.
            out["document_id"] = self.document_id
            out["path"] = self.path
        return out


@dataclass
class SearchResponse:
    query: str
    mode: str
    results: list[SearchResult] = field(default_factory=list)
    dropped: int = 0  # hits that could not be resolved against the store (I6)
    notice: str = ""  # e.g. why the mode was degraded
    # Set when regional words were replaced by the library's (執行緒 → 线程).
    searched_as: str = ""
    # Keyword search under the relevance floor: the results share only some of the words
    # (retrieval.search.weak_matches_shown).
    weak_matches: bool = False

    def settle_weak_matches(self) -> None:
        """Weak matches all filtered away (unresolvable, another tag) leave "nothing close":
        the floor had already found the words too weak, and no list is left to mark."""
        if self.weak_matches and not self.results:
            self.weak_matches = False
            if self.notice == WEAK_NOTICE:
                self.notice = NOTHING_NOTICE

    def as_json(self) -> dict[str, object]:
        return {"query": self.query, "mode": self.mode,
                "results": [r.as_json() for r in self.results], "notice": self.notice,
                "searched_as": self.searched_as or self.query, "weak_matches": self.weak_matches}
