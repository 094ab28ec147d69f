"""``index.vectors``: every chunk's float vector at a fixed place, for dense search's rescoring.

Dense search scores its few hundred best candidates exactly (see
``retrieval/dense.py``). Read from ``kb_vectors`` that is one B-tree lookup and
one page read per candidate: about 4 ms for 400 vectors at 10⁵ chunks. This
file holds the same float32 vectors at offset ``HEADER + chunk_id · 4 · dim``,
so a candidate costs one ``pread`` of its own bytes (about 1 ms for 400), and
nothing is kept in memory: the file is read, not mapped, so resident memory
does not grow with the library.

It is derived data, like the index it sits beside, and never trusted:
``kb_vectors`` stays the truth. The index writer writes a chunk's slot in the
same step as its row (:func:`write_slots`, called by ``store_vectors``) and
writes the whole file again from ``kb_vectors`` when it is missing or belongs
to another index file, model or dimension (:func:`ensure`; the header carries
a token that ``kb_meta`` must hold too). A reader uses a slot only when its
sign bits equal the sign bits it loaded for that chunk from ``kb_vectors``;
any other slot (a hole, a crashed write, another index's file) is read from
``kb_vectors`` instead (``retrieval/dense.py``). A file is never shortened in
place: a new one replaces it whole (``os.replace``), so a reader holding the old
one keeps reading consistent bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
import struct
import threading
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

MAGIC = b"KBVECS01"
HEADER = 4096
_HEAD = struct.Struct("<8sI16s16s")  # magic, dim, model digest, token
META_KEY = "vector_file"
#: Rows read from ``kb_vectors`` per step while the whole file is written.
DUMP_ROWS = 4096


def path_for(index_path: Path) -> Path:
    return Path(f"{index_path}.vectors")


def _model_digest(model_id: str) -> bytes:
    return hashlib.blake2b(model_id.encode(), digest_size=16).digest()


def _header(model_id: str, dim: int, token: bytes) -> bytes:
    return _HEAD.pack(MAGIC, dim, _model_digest(model_id), token).ljust(HEADER, b"\0")


def _read_header(fd: int) -> tuple[int, bytes, bytes] | None:
    """(dim, model digest, token), or None when the file is not one of ours."""
    os.lseek(fd, 0, os.SEEK_SET)
    raw = os.read(fd, _HEAD.size)
    if len(raw) < _HEAD.size:
        return None
    magic, dim, digest, token = _HEAD.unpack(raw)
    return (dim, digest, token) if magic == MAGIC else None


def _pwrite(fd: int, data: bytes, offset: int) -> None:
    if hasattr(os, "pwrite"):
        os.pwrite(fd, data, offset)
    else:  # Windows: the writer is the index worker's one thread
        os.lseek(fd, offset, os.SEEK_SET)
        os.write(fd, data)


def _index_path(conn: sqlite3.Connection) -> Path | None:
    for _seq, name, file in conn.execute("PRAGMA database_list"):
        if name == "main" and file:
            return Path(file)
    return None


class _Writer:
    """An open ``index.vectors`` that matches (model, dim, token) of the index it serves."""

    def __init__(self, fd: int, ino: int, model_id: str, dim: int, token: bytes) -> None:
        self.fd, self.ino, self.model_id, self.dim, self.token = fd, ino, model_id, dim, token


_writers: dict[Path, _Writer] = {}
_writers_lock = threading.Lock()


def _open_writer(path: Path, model_id: str, dim: int, token: bytes) -> _Writer | None:
    """The file at ``path`` opened for writing when its header says (model, dim, token)."""
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    head = _read_header(fd)
    if head != (dim, _model_digest(model_id), token):
        os.close(fd)
        return None
    return _Writer(fd, os.fstat(fd).st_ino, model_id, dim, token)


def _writer(conn: sqlite3.Connection, model_id: str, dim: int) -> _Writer | None:
    """The writer for this index (None: no valid file; the next :func:`ensure` writes one)."""
    index_path = _index_path(conn)
    if index_path is None:
        return None
    path = path_for(index_path)
    token_hex = conn.execute("SELECT value FROM kb_meta WHERE key = ?", (META_KEY,)).fetchone()
    if token_hex is None:
        return None
    token = bytes.fromhex(token_hex[0])
    with _writers_lock:
        current = _writers.get(path)
        if current is not None:
            try:
                same_file = os.stat(path).st_ino == current.ino
            except OSError:
                same_file = False
            if same_file and (current.model_id, current.dim, current.token) == (model_id, dim, token):
                return current
            os.close(current.fd)
            del _writers[path]
        opened = _open_writer(path, model_id, dim, token)
        if opened is not None:
            _writers[path] = opened
        return opened


def write_slots(conn: sqlite3.Connection, model_id: str, ids: Sequence[int], matrix: np.ndarray) -> None:
    """Write these chunks' vectors into their slots (no file yet: nothing to do)."""
    if not len(ids):
        return
    matrix = np.ascontiguousarray(matrix, dtype=np.float32)
    writer = _writer(conn, model_id, matrix.shape[1])
    if writer is None:
        return
    try:
        _write_runs(writer.fd, np.asarray(ids, dtype=np.int64), matrix)
    except OSError as exc:  # full disk: readers fall back to kb_vectors for these slots
        log.warning("index.vectors not written (%s): dense search reads kb_vectors", exc)


def _write_runs(fd: int, ids: np.ndarray, matrix: np.ndarray) -> None:
    """One ``pwrite`` per run of consecutive chunk ids."""
    order = np.argsort(ids, kind="stable")
    ids, matrix = ids[order], matrix[order]
    row_bytes = matrix.shape[1] * 4
    breaks = np.flatnonzero(np.diff(ids) != 1) + 1
    for lo, hi in zip(np.r_[0, breaks].tolist(), np.r_[breaks, len(ids)].tolist(), strict=True):
        _pwrite(fd, matrix[lo:hi].tobytes(), HEADER + int(ids[lo]) * row_bytes)


def ensure(conn: sqlite3.Connection, model_id: str, dim: int) -> bool:
    """Write the whole file from ``kb_vectors`` unless the current one serves this index.

    Called by the index writer when it loads the dense index (start, rebuild,
    model switch, verify). Returns whether a valid file is in place.
    """
    index_path = _index_path(conn)
    if index_path is None:
        return False
    if _writer(conn, model_id, dim) is not None:
        return True
    path = path_for(index_path)
    token = uuid.uuid4().bytes
    temp = Path(f"{path}.tmp-{os.getpid()}")
    try:
        fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o644)
        try:
            _pwrite(fd, _header(model_id, dim, token), 0)
            # NOT INDEXED: in rowid order, never through the sign bits' index and a sort of every vector.
            cursor = conn.execute("SELECT chunk_id, vector FROM kb_vectors NOT INDEXED WHERE model_id = ? "
                                  "AND length(vector) = ? ORDER BY chunk_id", (model_id, 4 * dim))
            while rows := cursor.fetchmany(DUMP_ROWS):
                ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
                matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(-1, dim)
                _write_runs(fd, ids, matrix)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except OSError as exc:
        log.warning("index.vectors not written (%s): dense search reads kb_vectors", exc)
        with contextlib.suppress(OSError):
            temp.unlink()
        return False
    try:
        if conn.in_transaction:  # the caller's transaction commits it
            conn.execute("INSERT OR REPLACE INTO kb_meta(key, value) VALUES (?, ?)", (META_KEY, token.hex()))
        else:
            with _transaction(conn):
                conn.execute("INSERT OR REPLACE INTO kb_meta(key, value) VALUES (?, ?)",
                             (META_KEY, token.hex()))
    except sqlite3.Error as exc:  # busy or full: the next load writes the file again
        log.warning("index.vectors not recorded (%s): dense search reads kb_vectors", exc)
        return False
    return _writer(conn, model_id, dim) is not None


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def release(index_path: Path) -> None:
    """Close the file's write handle (the index writer stops): kept open past that, a closed
    library's stick could not be remounted or ejected ('target is busy') while the app ran."""
    with _writers_lock:
        current = _writers.pop(path_for(index_path), None)
        if current is not None:
            os.close(current.fd)


def discard(index_path: Path) -> None:
    """Delete the file (with the index it belongs to)."""
    release(index_path)
    with contextlib.suppress(FileNotFoundError):
        path_for(index_path).unlink()


def _read_into(fd: int, buffer: memoryview, offset: int) -> None:
    """Fill ``buffer`` from ``offset`` (a short read past the end leaves zeros)."""
    if hasattr(os, "preadv"):
        os.preadv(fd, [buffer], offset)
    else:  # macOS, Windows: the reader's lock serialises the seek
        os.lseek(fd, offset, os.SEEK_SET)
        data = os.read(fd, len(buffer))
        buffer[:len(data)] = data


_WILLNEED = getattr(os, "POSIX_FADV_WILLNEED", None)
#: preadv2's "only from the page cache" flag (Linux): a slot there is read at once, unannounced.
_NOWAIT = getattr(os, "RWF_NOWAIT", None) if hasattr(os, "preadv") else None


def _read_cached_rows(fd: int, rows: list[memoryview], offsets: list[int], row_bytes: int) -> list[int]:
    """Fill each row from its offset where the page cache holds all of it, in one loop without a
    call of ours per slot (a search reads 600 or more); returns the positions left to read from
    the device (all of them where the system cannot tell: no RWF_NOWAIT, or tmpfs)."""
    if _NOWAIT is None:
        return list(range(len(rows)))
    cold: list[int] = []
    preadv, nowait = os.preadv, _NOWAIT
    for i, (row, offset) in enumerate(zip(rows, offsets, strict=True)):
        try:
            if preadv(fd, [row], offset, nowait) == row_bytes:
                continue
        except OSError:  # EAGAIN: not cached; EOPNOTSUPP/EINVAL: a file system that cannot tell
            pass
        cold.append(i)
    return cold


def _announce(fd: int, ids: Sequence[int], row_bytes: int) -> None:
    """Tell the kernel every slot about to be read, before reading any (where it can be told).

    Slots out of the page cache are then fetched side by side instead of one read
    after another: 600 cold slots at 10⁶ chunks took 5.3 ms instead of 32.5 (p99 11
    against 56), warm ones cost the same."""
    if _WILLNEED is None or len(ids) < 2:
        return
    with contextlib.suppress(OSError):  # only a hint: a file system that takes none reads as before
        for cid in ids:
            os.posix_fadvise(fd, HEADER + int(cid) * row_bytes, row_bytes, _WILLNEED)


class SlotReader:
    """Reads slots of ``index.vectors`` for one model; reopened when the file is replaced."""

    def __init__(self, index_path: Path) -> None:
        self._path = path_for(index_path)
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._ino = -1

    def open(self, model_id: str, dim: int) -> bool:
        """(Re)open the current file; False when there is none for this model and dimension."""
        with self._lock:
            self._close()
            try:
                fd = os.open(self._path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
            except OSError:
                return False
            head = _read_header(fd)
            if head is None or head[:2] != (dim, _model_digest(model_id)):
                os.close(fd)
                return False
            self._fd, self._ino = fd, os.fstat(fd).st_ino
            return True

    def read(self, ids: Sequence[int], dim: int) -> np.ndarray | None:
        """The slots of ``ids`` (rows past the end of the file are zeros), or None without a file."""
        with self._lock:
            fd = self._fd
            if fd is None:
                return None
            out = np.zeros((len(ids), dim), dtype=np.float32)
            row_bytes = 4 * dim
            view = memoryview(out).cast("B")
            rows = [view[i:i + row_bytes] for i in range(0, len(ids) * row_bytes, row_bytes)]
            offsets = (np.asarray(ids, dtype=np.int64) * row_bytes + HEADER).tolist()
            # Slots the page cache holds are read at once; only the others are announced (all
            # before the first is read) and read. Announcing a cached slot costs a system call
            # and gains nothing: at 10⁵ chunks, 600 of them were a third of the read's time.
            cold = _read_cached_rows(fd, rows, offsets, row_bytes)
            _announce(fd, [(offsets[i] - HEADER) // row_bytes for i in cold], row_bytes)
            for i in cold:
                _read_into(fd, rows[i], offsets[i])
            return out

    def _close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def close(self) -> None:
        with self._lock:
            self._close()
