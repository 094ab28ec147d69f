"""The embedding engine protocol shared by every backend, plus small helpers.

Retrieval only ever sees an :class:`EmbeddingEngine`, so a person can switch
models (or run with none) without touching the index or search code.
"""

from __future__ import annotations

import functools
import os
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    import onnxruntime as ort

DEFAULT_BATCH_SIZE = 16
"""Measured on the default model: 16 beats 1 and 64 for ~300-char passages."""


@runtime_checkable
class EmbeddingEngine(Protocol):
    """Turns text into float32 ``(n, dim)`` rows with unit L2 norm.

    Queries and passages are separate calls because asymmetric models (e5, bge)
    want different prefixes for each side. Implementations must accept calls
    from more than one thread: indexing runs in a worker while queries arrive
    from another.
    """

    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...


class NullEngine:
    """Stands in when no model is installed, so callers need no ``None`` checks.

    It returns ``(n, 0)`` arrays: dense search then contributes nothing and
    hybrid search degrades to lexical search.
    """

    model_id = "none"
    dim = 0

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.zeros((len(texts), 0), dtype=np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return np.zeros((len(texts), 0), dtype=np.float32)


class ManifestEngine(ABC):
    """What the engines of installed models share: identity, size and prefixes from the manifest.

    Asymmetric models (e5: ``query: `` / ``passage: ``) differ between the two
    sides only in the prefix, so a backend implements one :meth:`_embed`.
    """

    def __init__(self, manifest: ModelManifest) -> None:
        self._manifest = manifest

    @property
    def model_id(self) -> str:
        return self._manifest.id

    @property
    def dim(self) -> int:
        return self._manifest.dim

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, self._manifest.query_prefix)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, self._manifest.passage_prefix, release=True)

    @abstractmethod
    def _embed(self, texts: Sequence[str], prefix: str, release: bool = False) -> np.ndarray:
        """Unit-length rows for ``prefix + text`` of every text, in order; with ``release`` the
        last batch hands the arena back (:func:`arena_release`)."""


def l2_normalize(rows: np.ndarray) -> np.ndarray:
    """Normalise rows so cosine similarity is a plain dot product.

    All-zero rows stay zero instead of becoming NaN, which would poison a
    brute-force similarity matrix.
    """
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return (rows / np.maximum(norms, 1e-12)).astype(np.float32, copy=False)


def empty_result(dim: int) -> np.ndarray:
    return np.zeros((0, dim), dtype=np.float32)


def batches(order: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(order), size):
        yield order[start : start + size]


def length_order(texts: Sequence[str]) -> list[int]:
    """Indices sorted by text length so each batch pads to similar lengths."""
    return sorted(range(len(texts)), key=lambda i: len(texts[i]))


def token_batches(lengths: Sequence[int], max_tokens: int, max_rows: int) -> Iterator[list[int]]:
    """Indices grouped by length so no batch pads more than ``max_tokens`` cells.

    Sorted by token count, each batch holds rows of similar length: short notes
    go many at a time, long chunks a few at a time, and the padded batch (rows x
    longest row) stays under a fixed budget, which bounds both wasted work and
    the attention matrices' memory (rows x heads x length^2).
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batch: list[int] = []
    for i in order:
        longest = max(1, lengths[i])  # ascending, so the newcomer is the longest
        if batch and ((len(batch) + 1) * longest > max_tokens or len(batch) >= max_rows):
            yield batch
            batch = []
        batch.append(i)
    if batch:
        yield batch


def default_threads() -> int:
    """Half the cores: the UI and the database writer need the rest."""
    return max(1, (os.cpu_count() or 2) // 2)


def session_options(threads: int | None) -> ort.SessionOptions:
    """Options tuned for a desktop app sharing the CPU with the UI.

    Spinning is off so idle inference threads do not burn a core, and
    inter-op parallelism is off because these graphs are sequential.
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, threads or default_threads())
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    return options


@functools.cache
def arena_release() -> ort.RunOptions:
    """Run options that hand onnxruntime's unused CPU arena back to the system when the run ends.

    The arena keeps what the largest batch needed: one backfill page of 800-character passages
    grew the default model's process from 227 to 508 MB, and it stayed there for the life of the
    app (a 10⁵-chunk library searched at ~500 MB after its backfill against ~280 without one).
    Passages are embedded in pages, so the last batch of each page releases it: vectors are the
    same to the bit, and a query's small batches keep their arena.
    """
    import onnxruntime as ort

    options = ort.RunOptions()
    options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
    return options


KINDS = ("transformer", "string")
POOLINGS = ("mean", "cls", "none")


@dataclass(frozen=True)
class ModelManifest:
    """What ``<data_dir>/models/<id>/manifest.json`` records about a model.

    ``max_length`` caps the input: tokens for transformer models, characters
    for string models (which tokenize inside the graph and slow down sharply
    on very long inputs). ``sha256`` is the installed ``model.onnx``;
    ``source_sha256`` the file it was made from (the same file unless the app
    converted it), which stays stable when a newer converter writes a
    different graph from the same weights.
    """

    id: str
    kind: str
    dim: int
    sha256: str
    licence: str = ""
    source: str = ""
    pooling: str = "mean"
    query_prefix: str = ""
    passage_prefix: str = ""
    max_length: int = 512
    # Fitted fusion constants and prior cosine statistics (retrieval.tuning says what
    # the fields mean); empty for a model nobody fitted: then the library calibrates it.
    calibration: dict[str, Any] = field(default_factory=dict)
    source_sha256: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"manifest kind must be one of {KINDS}, not {self.kind!r}")
        if self.pooling not in POOLINGS:
            raise ValueError(f"manifest pooling must be one of {POOLINGS}, not {self.pooling!r}")
        if self.dim <= 0 or self.max_length <= 0:
            raise ValueError("manifest dim and max_length must be positive")
        if not isinstance(self.calibration, dict):
            raise ValueError("manifest calibration must be a JSON object")
        if len(self.sha256) != 64 or any(c not in "0123456789abcdef" for c in self.sha256):
            raise ValueError("manifest sha256 must be 64 lowercase hex digits")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ModelManifest:
        """Build from JSON, ignoring unknown keys so newer manifests still load."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        try:
            return cls(**values)
        except TypeError as exc:
            raise ValueError(f"incomplete manifest: {exc}") from exc

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
