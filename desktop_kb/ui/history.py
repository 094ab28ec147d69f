"""Back and forward through what was open, like a browser (no Qt: plain state, tested alone)."""

from __future__ import annotations

from dataclasses import dataclass

LIMIT = 100


@dataclass(frozen=True)
class Place:
    kind: str  # "note" | "fragment" | "document" (opened whole, from its start)
    id: int
    document_id: int | None = None


class History:
    def __init__(self) -> None:
        self._back: list[Place] = []
        self._forward: list[Place] = []
        self.current: Place | None = None

    def visit(self, place: Place) -> None:
        """Something was opened by the person (not by back/forward)."""
        if place == self.current:
            return
        if self.current is not None:
            self._back.append(self.current)
            del self._back[:-LIMIT]
        self.current = place
        self._forward.clear()

    def back(self) -> Place | None:
        if not self._back:
            return None
        if self.current is not None:
            self._forward.append(self.current)
        self.current = self._back.pop()
        return self.current

    def forward(self) -> Place | None:
        if not self._forward:
            return None
        if self.current is not None:
            self._back.append(self.current)
        self.current = self._forward.pop()
        return self.current

    def forget(self, place: Place) -> None:
        """A note went to the trash or a document was removed: skip it from now on."""
        self._back = [p for p in self._back if p != place]
        self._forward = [p for p in self._forward if p != place]
        if self.current == place:
            self.current = None

    @property
    def can_go_back(self) -> bool:
        return bool(self._back)

    @property
    def can_go_forward(self) -> bool:
        return bool(self._forward)
