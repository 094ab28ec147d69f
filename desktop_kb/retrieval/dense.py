"""Dense retrieval: sign bits in memory, exact cosines from the index file.

A float32 matrix costs 2 KB per 512-d chunk: 200 MB at 10⁵ chunks, 2 GB at
10⁶, past any desktop budget. So memory holds only each chunk's sign bits
(one bit per dimension: 64 bytes for 512-d, any dimension works) and its id;
the float vectors stay in ``kb_vectors``, where the indexer writes them. A
query is answered in three steps:

1. Hamming distance between the query's sign bits and every chunk's
   (:func:`hamming`: numpy over the bits themselves, no second copy); the
   ``6·√n`` closest chunks go on (n = chunks), found by counting how many
   chunks lie at each distance (:func:`_closest_rows`), ties at the cut by
   lowest chunk id, so the answer never depends on the order of the rows;
2. those are re-ranked by the query's float vector against their bits
   (an asymmetric score, much closer to the cosine than Hamming distance);
   the best :data:`RESCORE` go on (ties again by chunk id);
3. their float vectors are read and scored exactly: the returned scores are
   true cosines, the same numbers brute force gives. Each is one read of its
   own slot in ``index.vectors`` (``index/vector_file.py``: about 1 ms for 400
   at 10⁵ chunks, against 4 ms for the same rows out of ``kb_vectors``), used
   only when its sign bits are the chunk's; anything else is read from
   ``kb_vectors``.

``benchmarks/bench_retrieval.py`` measures recall@10 against exact float
search (≥ 0.99 on the evaluation sets and at 10⁶ chunks) and the time.
The bits are derived data: written next to each vector (and read back at
start through their own covering index, ``index/db.py``), kept in step by the
index worker after every commit. In memory each row takes :func:`stride_of`
bytes (64 for 512-d: 64 MB at 10⁶ chunks).
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from desktop_kb.index.vector_file import SlotReader

#: How many candidates (after step 2) are scored exactly, and step 1 keeps
#: ``CANDIDATE_FACTOR · √n`` chunks (never fewer than RESCORE). Chosen on questions
#: 600-1199 of ``retrieval_corpus.load_queries`` at 10⁶ chunks (recall@10 against exact
#: float search: 400 / 4·√n 0.985, 600 / 6·√n 0.991, 600 / 8·√n 0.992, 300 / 4·√n 0.980);
#: ``bench_dense_million.py`` reports questions 0-599.
RESCORE = 600
CANDIDATE_FACTOR = 6.0

_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.float32)


def sign_bits(vectors: np.ndarray) -> np.ndarray:
    """Packed sign bits, one row per vector (``ceil(dim / 8)`` bytes each)."""
    return np.packbits(np.asarray(vectors) > 0, axis=-1)


#: Rows per step of the Hamming scan: its buffers (about 0.7 MB) stay in the core's own L2
#: cache (1 MB here; the L3 is shared with every other process). 10⁶ random codes, thread CPU,
#: load ~10: 16.2 ms a scan against 24.1 ms with 32,768 rows (2.5 MB), 17.5 with 4,096.
SCAN_ROWS = 8_192
_LANES = np.uint64(0x00FF00FF00FF00FF)
_FOLD = np.uint64(0x0001000100010001)


def stride_of(width: int) -> int:
    """Bytes a row of ``width`` sign-bit bytes takes in memory: a multiple of 64 (8 words),
    so the scan sums each row's popcounts with whole-word arithmetic (512-d: 64, no padding)."""
    return -(-width // 64) * 64


def hamming(codes: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Hamming distance (uint32) of ``query`` to each row; both padded to :func:`stride_of` bytes.

    numpy over the bits themselves, in steps of :data:`SCAN_ROWS` rows: XOR, popcount
    per 64-bit word (8 counts of at most 64 per row and group), then each group's 8
    counts summed in place (pairs into 16-bit lanes, the lanes by one multiply). About
    as fast as NumKong's packed kernel was (11.0 against 10.1 ms per 10⁶ rows, same
    process), without its packed copy (132 bytes a row: 132 MB at 10⁶ chunks).
    """
    n, stride = codes.shape
    words = stride // 8
    groups = words // 8
    out = np.empty(n, dtype=np.uint32)
    if n == 0:
        return out
    flat = np.ascontiguousarray(codes).view(np.uint64).reshape(-1)
    step = min(SCAN_ROWS, n)
    tiled = np.tile(np.ascontiguousarray(query).view(np.uint64), step)
    xor = np.empty(step * words, dtype=np.uint64)
    counts = np.empty(step * words, dtype=np.uint8)
    low = np.empty(step * groups, dtype=np.uint64)
    high = np.empty(step * groups, dtype=np.uint64)
    for lo in range(0, n, step):
        rows = min(step, n - lo)
        cells, packs = rows * words, rows * groups
        x = np.bitwise_xor(flat[lo * words:lo * words + cells], tiled[:cells], out=xor[:cells])
        v = np.bitwise_count(x, out=counts[:cells]).view(np.uint64)
        a = np.bitwise_and(v, _LANES, out=low[:packs])
        b = np.bitwise_and(np.right_shift(v, 8, out=high[:packs]), _LANES, out=high[:packs])
        np.add(a, b, out=a)  # four 16-bit lanes, each at most 128
        np.right_shift(np.multiply(a, _FOLD, out=a), 48, out=a)  # their sum, at most 512
        out[lo:lo + rows] = a if groups == 1 else a.reshape(rows, groups).sum(axis=1)
    return out


#: :func:`_closest_rows` guesses its cut from every CUT_SAMPLE-th row.
CUT_SAMPLE = 16


def _closest_rows(dist: np.ndarray, first: int, ids: np.ndarray) -> np.ndarray:
    """Rows of the ``first`` smallest Hamming distances.

    Distances are small integers (0..dim), so counting finds the cut distance
    (about 1.5 ms at 10⁶ rows where ``argpartition`` took 6–11 ms). The count
    runs on a sample first, for a cut that should hold about twice ``first``
    rows; only when fewer than ``first`` lie within it are all rows counted. So
    the rows taken are exactly the ``first`` closest either way. Rows tied at
    the cut are taken by lowest chunk id, so the candidates depend only on the
    chunks, never on the order their rows were loaded or added in (a process
    following the index loads them in another order than the writer that added
    them one save at a time).
    """
    rows = np.flatnonzero(dist <= _cut(dist[::CUT_SAMPLE], 2 * first // CUT_SAMPLE + 1))
    if len(rows) < first:  # the sample's guess was short
        rows = np.flatnonzero(dist <= _cut(dist, first))
    if len(rows) > first:
        rows = rows[_smallest(dist[rows], first, ids[rows])]
    return rows


def _cut(dist: np.ndarray, k: int) -> int:
    """The smallest distance with at least ``k`` of ``dist`` at or below it (past the
    largest distance when there are fewer)."""
    return int(np.searchsorted(np.cumsum(np.bincount(dist)), k))


def _smallest(key: np.ndarray, k: int, ids: np.ndarray) -> np.ndarray:
    """Positions of the ``k`` smallest keys (k < len(key)), ties at the k-th key by lowest id."""
    kth = np.partition(key, k - 1)[k - 1]
    below = np.flatnonzero(key < kth)
    tied = np.flatnonzero(key == kth)
    need = k - len(below)
    if need < len(tied):
        tied = tied[np.argpartition(ids[tied], need - 1)[:need]]
    return np.concatenate([below, tied])


class ExactVectors(Protocol):
    """Where the float vectors live (the index file; a dict in unit tests)."""

    def fetch(self, ids: Sequence[int], model_id: str, dim: int) -> tuple[list[int], np.ndarray]:
        """(ids found, their vectors) — ids without a vector of that model are left out."""
        ...

    def close(self) -> None: ...


class SqliteVectors:
    """Reads ``kb_vectors`` through one read-only connection per searching thread."""

    def __init__(self, index_path: Path) -> None:
        self._path = index_path
        self._local = threading.local()
        self._lock = threading.Lock()
        self._conns: list[sqlite3.Connection] = []

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            from desktop_kb.index.db import open_index_reader

            conn = self._local.conn = open_index_reader(self._path)
            with self._lock:
                self._conns.append(conn)
        return conn

    def fetch(self, ids: Sequence[int], model_id: str, dim: int) -> tuple[list[int], np.ndarray]:
        found: list[int] = []
        rows: list[bytes] = []
        conn = self._conn()
        for i in range(0, len(ids), 500):
            part = [int(x) for x in ids[i:i + 500]]
            marks = ",".join("?" * len(part))
            for cid, blob in conn.execute(
                    # NOT INDEXED: by chunk id (rowid), in its order, never through the sign bits' index.
                    f"SELECT chunk_id, vector FROM kb_vectors NOT INDEXED WHERE model_id = ? "
                    f"AND chunk_id IN ({marks}) ORDER BY chunk_id", (model_id, *part)):
                if len(blob) == 4 * dim:
                    found.append(cid)
                    rows.append(blob)
        matrix = np.frombuffer(b"".join(rows), dtype=np.float32).reshape(len(rows), dim)
        return found, matrix

    def close(self) -> None:
        with self._lock:
            for conn in self._conns:
                conn.close()
            self._conns.clear()
        self._local = threading.local()


class MemoryVectors:
    """Float vectors in a dict: for unit tests of the index itself."""

    def __init__(self) -> None:
        self.rows: dict[int, np.ndarray] = {}

    def fetch(self, ids: Sequence[int], model_id: str, dim: int) -> tuple[list[int], np.ndarray]:
        found = [int(i) for i in ids if int(i) in self.rows]
        if not found:
            return [], np.empty((0, dim), dtype=np.float32)
        return found, np.stack([self.rows[i] for i in found]).astype(np.float32)

    def close(self) -> None:
        pass


class SeenVectors:
    """The float vectors one question has read so far (chunk id -> row).

    A hybrid search reads the same chunks' vectors up to three times: the dense side's
    rescoring (:data:`RESCORE` of them), the keyword hits' cosines, and an English
    question's language pull over every candidate. Each read is a system call per chunk,
    so its later reads take what an earlier one found. Kept for one question only: a
    later question reads again, and sees whatever the writer has committed since.
    """

    def __init__(self) -> None:
        self.rows: dict[int, np.ndarray] = {}

    def add(self, ids: np.ndarray, matrix: np.ndarray) -> None:
        self.rows.update(zip(ids.tolist(), matrix, strict=True))


class DenseIndex:
    def __init__(self, exact: ExactVectors | None = None, slots: SlotReader | None = None) -> None:
        self._lock = threading.Lock()
        self._exact: ExactVectors = exact if exact is not None else MemoryVectors()
        self._slots = slots  # index.vectors: the same floats, one read per candidate
        self._memory = exact is None
        self.model_id: str | None = None
        self.dim = 0
        self._ids = np.empty(0, dtype=np.int64)
        self._width = 0  # bytes of sign bits per chunk; rows of _codes are stride_of(width) long
        self._codes = np.empty((0, 0), dtype=np.uint8)
        self._alive = np.empty(0, dtype=bool)
        self._n = 0
        self._live = 0
        self._row = np.full(0, -1, dtype=np.int64)  # chunk id -> row (ids are small ints)

    # ----- bookkeeping (the index worker) -------------------------------------------

    def reset(self, model_id: str | None, dim: int, ids: np.ndarray | None = None,
              codes: np.ndarray | None = None) -> None:
        """Start over with ``ids`` and their packed sign bits (adopted, not copied, when their
        rows are already :func:`stride_of` bytes long: 512-d)."""
        with self._lock:
            self.model_id, self.dim = model_id, dim
            width = self._width = (dim + 7) // 8
            stride = stride_of(width)
            if ids is None or codes is None:
                ids = np.empty(0, dtype=np.int64)
                codes = np.zeros((0, stride), dtype=np.uint8)
            elif codes.shape[1] != stride:
                padded = np.zeros((len(codes), stride), dtype=np.uint8)
                padded[:, :width] = codes
                codes = padded
            self._ids, self._codes = ids.astype(np.int64, copy=False), codes
            self._n = len(ids)
            self._alive = np.ones(self._n, dtype=bool)
            self._row = np.full(int(ids.max()) + 1 if len(ids) else 0, -1, dtype=np.int64)
            self._row[self._ids] = np.arange(self._n)
            self._live = self._n
            if self._slots is not None:
                if model_id is None:
                    self._slots.close()
                else:
                    self._slots.open(model_id, dim)
            if self._memory:
                assert isinstance(self._exact, MemoryVectors)
                self._exact.rows.clear()

    @property
    def ready(self) -> bool:
        return self.model_id is not None and self.dim > 0

    def __len__(self) -> int:
        return self._live

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Index vectors already committed to the index file (re-adding replaces)."""
        if not len(ids):
            return
        ids_arr = np.asarray(ids, dtype=np.int64)
        codes = sign_bits(vectors)
        with self._lock:
            if codes.shape[1] != self._width:
                return  # another model's vectors: the worker reloads on a switch
            self._ensure_row_table(int(ids_arr.max()))
            for cid, code in zip(ids_arr.tolist(), codes, strict=True):
                row = int(self._row[cid])
                if row < 0:
                    if self._n == len(self._ids):
                        self._grow()
                    row = self._n
                    self._n += 1
                    self._row[cid] = row
                    self._ids[row] = cid
                    self._live += 1
                elif not self._alive[row]:
                    self._live += 1
                self._codes[row, :self._width] = code
                self._alive[row] = True
            if self._memory:
                assert isinstance(self._exact, MemoryVectors)
                for cid, vector in zip(ids_arr.tolist(), vectors, strict=True):
                    self._exact.rows[cid] = np.asarray(vector, dtype=np.float32)

    def remove(self, ids: Iterable[int]) -> None:
        with self._lock:
            for cid in ids:
                cid = int(cid)
                row = int(self._row[cid]) if 0 <= cid < len(self._row) else -1
                if row >= 0:
                    self._row[cid] = -1
                    self._alive[row] = False
                    self._live -= 1
                if self._memory:
                    assert isinstance(self._exact, MemoryVectors)
                    self._exact.rows.pop(cid, None)
            if self._n - self._live > 1024 and self._n - self._live > self._n // 4:
                self._compact()

    def close(self) -> None:
        self._exact.close()
        if self._slots is not None:
            self._slots.close()

    # ----- queries (any thread) ------------------------------------------------------

    def search(self, query: np.ndarray, k: int, seen: SeenVectors | None = None) -> list[tuple[int, float]]:
        """Top-k ``(chunk_id, cosine)``, best first; ties broken by chunk id (``seen`` keeps the
        vectors read for rescoring)."""
        if k <= 0 or query.shape[-1] != self.dim or not self.ready:
            return []
        query = np.asarray(query, dtype=np.float32)
        with self._lock:
            n = self._n
            if self._live == 0:
                return []
            rows = self._candidates(query, n, max(k, RESCORE))
            rows = rows[np.argsort(self._ids[rows])]
            ids, codes = self._ids[rows], self._codes[rows, :self._width]
            model_id, dim = self.model_id, self.dim
        assert model_id is not None
        ids, matrix = self._vectors(ids, codes, model_id, dim)
        if not len(ids):
            return []
        if seen is not None:
            seen.add(ids, matrix)
        sims = matrix @ query
        order = np.lexsort((ids, -sims))[:k]
        return [(int(ids[i]), float(sims[i])) for i in order]

    def _candidates(self, query: np.ndarray, n: int, keep: int) -> np.ndarray:
        """Rows worth scoring exactly (steps 1 and 2 of the module docstring)."""
        codes = self._codes[:n]
        alive = self._alive[:n]
        live = self._live
        if live <= keep:
            return np.flatnonzero(alive)
        bits = np.zeros(codes.shape[1], dtype=np.uint8)
        bits[:self._width] = sign_bits(query)
        dist = hamming(codes, bits)
        if live < n:  # rows of removed chunks wait for compaction: farther than any live row
            dist[~alive] = codes.shape[1] * 8 + 1
        first = min(live, max(keep, int(CANDIDATE_FACTOR * math.sqrt(live))))
        ids = self._ids
        rows = _closest_rows(dist, first, ids)
        if len(rows) > keep:
            rows = rows[_smallest(-self._asymmetric(query, codes[rows]), keep, ids[rows])]
        return rows

    def _vectors(self, ids: np.ndarray, codes: np.ndarray, model_id: str,
                 dim: int) -> tuple[np.ndarray, np.ndarray]:
        """The float vectors of ``ids`` (ascending; their sign bits are ``codes``): from their
        slots in ``index.vectors`` where a slot's sign bits are the chunk's, else from the index.

        Rows stay in chunk-id order, the order ``kb_vectors`` returns them in: a matrix
        product's last bits depend on where a row sits, and scores must not move."""
        matrix = self._slots.read(ids.tolist(), dim) if self._slots is not None else None
        if matrix is None:
            found, matrix = self._exact.fetch(ids.tolist(), model_id, dim)
            return np.asarray(found, dtype=np.int64), matrix
        # A hole (never written, or past the end) reads as zeros: never a vector.
        good = (sign_bits(matrix) == codes).all(axis=1) & matrix.any(axis=1)
        if good.all():
            return ids, matrix
        found, rest = self._exact.fetch(ids[~good].tolist(), model_id, dim)
        ids = np.concatenate([ids[good], np.asarray(found, dtype=np.int64)])
        matrix = np.concatenate([matrix[good], rest])
        order = np.argsort(ids, kind="stable")
        return ids[order], matrix[order]

    def _asymmetric(self, query: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Σ query over each code's set bits: ranks like query·sign(v), without the floats."""
        width = codes.shape[1]
        padded = np.zeros(width * 8, dtype=np.float32)
        padded[:len(query)] = query
        table = padded.reshape(width, 8) @ _BYTE_BITS.T  # (bytes, 256): sum over set bits
        # One flat gather (byte j's value v sits at j·256 + v): 2.5× a 2-D fancy index.
        return np.take(table.ravel(), codes + np.arange(0, 256 * width, 256)).sum(axis=1)

    def similarities(self, query: np.ndarray, ids: Iterable[int],
                     seen: SeenVectors | None = None) -> dict[int, float]:
        """Exact cosine for given chunks (those lexical search found but dense did not rank)."""
        if not self.ready or query.shape[-1] != self.dim:
            return {}
        found, matrix = self.vectors(ids, seen)
        if not len(found):
            return {}
        sims = matrix @ np.asarray(query, dtype=np.float32)
        return dict(zip(found.tolist(), sims.tolist(), strict=True))

    def vectors(self, ids: Iterable[int], seen: SeenVectors | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(ids, float vectors)`` of those of ``ids`` that have one, in chunk-id order (those in
        ``seen`` taken from it, the others read and added to it)."""
        if not self.ready:
            return np.empty(0, dtype=np.int64), np.empty((0, self.dim), dtype=np.float32)
        wanted = np.fromiter((int(i) for i in ids), dtype=np.int64)
        with self._lock:
            wanted = wanted[(wanted >= 0) & (wanted < len(self._row))]
            rows = self._row[np.unique(wanted)]
            rows = rows[rows >= 0]
            known, codes = self._ids[rows], self._codes[rows, :self._width]
            model_id, dim = self.model_id, self.dim
        if not len(known):
            return np.empty(0, dtype=np.int64), np.empty((0, dim), dtype=np.float32)
        assert model_id is not None
        if seen is None:
            return self._vectors(known, codes, model_id, dim)
        have = np.fromiter((c in seen.rows for c in known.tolist()), dtype=bool, count=len(known))
        read_ids, read = self._vectors(known[~have], codes[~have], model_id, dim) if not have.all() \
            else (np.empty(0, dtype=np.int64), np.empty((0, dim), dtype=np.float32))
        seen.add(read_ids, read)
        if not have.any():
            return read_ids, read
        # The same rows in the same (chunk-id) order as one read of them all: a matrix
        # product's last bits depend on where a row sits, and cosines must not move.
        ids = np.concatenate([known[have], read_ids])
        order = np.argsort(ids, kind="stable")
        matrix = np.stack([seen.rows[c] for c in ids[order].tolist()]).astype(np.float32, copy=False)
        return ids[order], matrix

    # ----- storage ----------------------------------------------------------------------

    def _ensure_row_table(self, max_id: int) -> None:
        if max_id >= len(self._row):
            grown = np.full(max(max_id + 1, int(len(self._row) * 1.25) + 1024), -1, dtype=np.int64)
            grown[:len(self._row)] = self._row
            self._row = grown

    def snapshot(self) -> tuple[np.ndarray, np.ndarray]:
        """Copies of the live ``(ids, vectors)`` (benchmarks refit calibration offline on them)."""
        with self._lock:
            ids = self._ids[:self._n][self._alive[:self._n]].copy()
            model_id, dim = self.model_id, self.dim
        if model_id is None or not len(ids):
            return np.empty(0, dtype=np.int64), np.empty((0, dim), dtype=np.float32)
        found, matrix = self._exact.fetch(ids.tolist(), model_id, dim)
        return np.asarray(found, dtype=np.int64), matrix

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
        codes = np.zeros((size, self._codes.shape[1]), dtype=np.uint8)
        codes[:self._n] = self._codes[:self._n]
        alive = np.zeros(size, dtype=bool)
        alive[:self._n] = self._alive[:self._n]
        self._ids, self._codes, self._alive = ids, codes, alive

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive[:self._n])
        n = len(keep)
        self._ids[:n] = self._ids[keep]
        self._codes[:n] = self._codes[keep]
        self._alive[:n] = True
        self._alive[n:] = False
        self._n = n
        self._row[:] = -1
        self._row[self._ids[:n]] = np.arange(n)
