"""Dense retrieval: cosine similarity over one in-memory matrix, brute force.

The matrix holds the unit vectors of the model in use and is kept in step with
the index by the worker (add/remove after each commit). Brute force is exact
and, at 100k × 512 float32, one matrix-vector product of a few milliseconds.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np


class DenseIndex:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.model_id: str | None = None
        self.dim = 0
        self._ids = np.empty(0, dtype=np.int64)
        self._matrix = np.empty((0, 0), dtype=np.float32)
        self._alive = np.empty(0, dtype=bool)
        self._n = 0
        self._row: dict[int, int] = {}
        self._dead = 0

    def reset(self, model_id: str | None, dim: int, ids: np.ndarray | None = None,
              matrix: np.ndarray | None = None, n: int | None = None) -> None:
        """Start over with ``ids``/``matrix``; their first ``n`` rows are used (all if None).

        The arrays are adopted, not copied (rows past ``n`` are spare capacity),
        so loading 100k vectors does not briefly need twice the memory.
        """
        with self._lock:
            self.model_id, self.dim = model_id, dim
            if ids is None or matrix is None:
                ids = np.empty(256, dtype=np.int64)
                matrix = np.zeros((256, dim), dtype=np.float32)
                n = 0
            elif n is None:
                n = len(ids)
            self._ids, self._matrix = ids, matrix
            self._alive = np.zeros(len(ids), dtype=bool)
            self._alive[:n] = True
            self._n = n
            self._row = {int(cid): i for i, cid in enumerate(ids[:n])}
            self._dead = 0

    @property
    def ready(self) -> bool:
        return self.model_id is not None and self.dim > 0

    def __len__(self) -> int:
        return len(self._row)

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        if not len(ids):
            return
        with self._lock:
            for cid, vector in zip(ids, vectors, strict=True):
                row = self._row.get(int(cid))
                if row is None:
                    if self._n == len(self._ids):
                        self._grow()
                    row = self._n
                    self._n += 1
                    self._row[int(cid)] = row
                    self._ids[row] = cid
                self._matrix[row] = vector
                self._alive[row] = True

    def remove(self, ids: Iterable[int]) -> None:
        with self._lock:
            for cid in ids:
                row = self._row.pop(int(cid), None)
                if row is not None:
                    self._alive[row] = False
                    self._matrix[row] = 0.0
                    self._dead += 1
            if self._dead > 1024 and self._dead > self._n // 4:
                self._compact()

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Top-k ``(chunk_id, cosine)``, best first; ties broken by chunk id."""
        with self._lock:
            n = self._n
            if n == 0 or k <= 0 or query.shape[-1] != self.dim:
                return []
            sims = self._matrix[:n] @ query.astype(np.float32, copy=False)
            sims = np.where(self._alive[:n], sims, -np.inf)
            k = min(k, len(self._row))
            if k <= 0:
                return []
            top = np.argpartition(-sims, k - 1)[:k] if k < n else np.arange(n)
            ids = self._ids[top]
            scores = sims[top]
        order = np.lexsort((ids, -scores))
        return [(int(ids[i]), float(scores[i])) for i in order if np.isfinite(scores[i])]

    def similarities(self, query: np.ndarray, ids: Iterable[int]) -> dict[int, float]:
        """Exact cosine for given chunks (those lexical search found but dense did not rank)."""
        with self._lock:
            rows = [(cid, self._row.get(int(cid))) for cid in ids]
            known = [(cid, r) for cid, r in rows if r is not None]
            if not known or query.shape[-1] != self.dim:
                return {}
            matrix = self._matrix[[r for _, r in known]]
        sims = matrix @ query.astype(np.float32, copy=False)
        return {int(cid): float(s) for (cid, _), s in zip(known, sims, strict=True)}

    def sample_ids(self, n: int, seed: int = 0) -> list[int]:
        """Up to ``n`` distinct live chunk ids, drawn reproducibly (for calibration)."""
        with self._lock:
            live = self._ids[:self._n][self._alive[:self._n]]
        if len(live) <= n:
            return [int(c) for c in np.sort(live)]
        rng = np.random.default_rng(seed)
        return [int(c) for c in np.sort(rng.choice(live, size=n, replace=False))]

    def _grow(self) -> None:
        size = max(1024, int(len(self._ids) * 1.25))
        ids = np.empty(size, dtype=np.int64)
        ids[:self._n] = self._ids[:self._n]
        matrix = np.zeros((size, self.dim), dtype=np.float32)
        matrix[:self._n] = self._matrix[:self._n]
        alive = np.zeros(size, dtype=bool)
        alive[:self._n] = self._alive[:self._n]
        self._ids, self._matrix, self._alive = ids, matrix, alive

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive[:self._n])
        n = len(keep)
        self._ids[:n] = self._ids[keep]
        self._matrix[:n] = self._matrix[keep]
        self._alive[:n] = True
        self._alive[n:] = False
        self._n = n
        self._row = {int(cid): i for i, cid in enumerate(self._ids[:n])}
        self._dead = 0
