"""``index.vectors``: dense rescoring reads each candidate's slot, and never trusts a wrong one.

The file is derived from ``kb_vectors``; search results must be exactly those of
reading ``kb_vectors`` (ids and cosines), whatever state the file is in.
"""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from desktop_kb.index import vector_file
from desktop_kb.index.vectors import load_codes
from desktop_kb.library import Library
from desktop_kb.retrieval import dense as dense_module
from desktop_kb.retrieval.dense import DenseIndex, SqliteVectors

TIMEOUT = 60


class HashEngine:
    """Unit vectors from a hash of the text (signs vary, so sign bits tell vectors apart)."""

    dim = 24

    def __init__(self, model_id: str = "hash-test") -> None:
        self.model_id = model_id

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            digest = hashlib.sha256(f"{self.model_id}|{text}".encode()).digest()
            vec = np.frombuffer(digest[: self.dim], dtype=np.uint8).astype(np.float32) - 127.5
            rows.append(vec / np.linalg.norm(vec))
        return np.stack(rows) if rows else np.zeros((0, self.dim), dtype=np.float32)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)


class CountingVectors(SqliteVectors):
    """``kb_vectors`` reads, counted (the fallback a wrong or missing slot takes)."""

    def __init__(self, index_path: Path) -> None:
        super().__init__(index_path)
        self.fetched: list[int] = []

    def fetch(self, ids: Sequence[int], model_id: str, dim: int) -> tuple[list[int], np.ndarray]:
        self.fetched.extend(int(i) for i in ids)
        return super().fetch(ids, model_id, dim)


@pytest.fixture(autouse=True)
def _small_rescore(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dense_module, "RESCORE", 12)  # the bits pick candidates, as at scale


def _library(data_dir: Path, notes: int = 150, engine: HashEngine | None = None) -> Library:
    lib = Library(data_dir, load_model=False)
    for i in range(notes):
        lib.add_note(f"笔记 {i}", f"第 {i} 条 note {i} 关于 topic {i % 11} 的内容 zq{i:04d}")
    assert lib.drain(TIMEOUT)
    lib.worker.set_engine(lambda: engine or HashEngine()).result(TIMEOUT)
    return lib


def _dense_index(lib: Library, *, slots: bool) -> tuple[DenseIndex, CountingVectors]:
    """The same rows as ``lib.dense``, rescored from ``index.vectors`` slots (``kb_vectors``
    where a slot is not used) or, without ``slots``, from ``kb_vectors`` alone (the reference)."""
    engine = lib.engine
    assert engine is not None
    conn = sqlite3.connect(lib.paths.index)
    try:
        ids, codes = load_codes(conn, engine.model_id, engine.dim)
    finally:
        conn.close()
    vectors = CountingVectors(lib.paths.index)
    index = DenseIndex(vectors, vector_file.SlotReader(lib.paths.index) if slots else None)
    index.reset(engine.model_id, engine.dim, ids, codes)
    return index, vectors


QUERIES = ("topic 3 的内容", "note 42", "第 7 条", "something else entirely", "zq0099")


def _same_results(lib: Library, index: DenseIndex, reference: DenseIndex) -> None:
    engine = lib.engine
    assert engine is not None
    for text in QUERIES:
        query = engine.embed_queries([text])[0]
        assert index.search(query, 10) == reference.search(query, 10)
        some = [c for c, _ in reference.search(query, 40)][::3] + [999_999]
        assert index.similarities(query, some) == reference.similarities(query, some)


def test_rescoring_reads_slots_and_gives_the_cosines_of_kb_vectors(data_dir: Path) -> None:
    with _library(data_dir) as lib:
        assert vector_file.path_for(lib.paths.index).is_file()
        index, fallback = _dense_index(lib, slots=True)
        reference, _ = _dense_index(lib, slots=False)
        _same_results(lib, index, reference)
        assert fallback.fetched == []  # every candidate came from its slot
        # The app's own index reads the same way.
        engine = lib.engine
        assert engine is not None
        query = engine.embed_queries([QUERIES[0]])[0]
        assert lib.dense.search(query, 10) == reference.search(query, 10)


def test_a_wrong_or_missing_slot_is_read_from_kb_vectors(data_dir: Path) -> None:
    with _library(data_dir) as lib:
        engine = lib.engine
        assert engine is not None
        path = vector_file.path_for(lib.paths.index)
        row = 4 * engine.dim
        fd = os.open(path, os.O_RDWR)
        try:
            # Chunk 5's slot holds another chunk's vector, chunk 9's is a hole of zeros,
            # chunk 12's a torn write (first half of the right vector, then garbage).
            other = os.pread(fd, row, vector_file.HEADER + 6 * row)
            os.pwrite(fd, other, vector_file.HEADER + 5 * row)
            os.pwrite(fd, b"\0" * row, vector_file.HEADER + 9 * row)
            os.pwrite(fd, b"\x7f" * (row // 2), vector_file.HEADER + 12 * row + row // 2)
        finally:
            os.close(fd)
        index, fallback = _dense_index(lib, slots=True)
        reference, _ = _dense_index(lib, slots=False)
        _same_results(lib, index, reference)
        assert set(fallback.fetched) <= {5, 9, 12}
        everything = list(range(1, 151))
        query = engine.embed_queries(["x"])[0]
        fallback.fetched.clear()
        assert index.similarities(query, everything) == reference.similarities(query, everything)
        assert sorted(set(fallback.fetched)) == [5, 9, 12]

        path.unlink()  # no file at all: everything from kb_vectors
        index, fallback = _dense_index(lib, slots=True)
        _same_results(lib, index, reference)
        assert fallback.fetched


def test_saves_write_their_slots_and_rebuild_or_a_model_switch_replace_the_file(data_dir: Path) -> None:
    with _library(data_dir, notes=40) as lib:
        note = lib.add_note("新的笔记", "借用检查器 borrow checker 新内容")
        assert lib.drain(TIMEOUT)
        engine = lib.engine
        assert engine is not None
        conn = sqlite3.connect(lib.paths.index)
        cid, blob = conn.execute(
            "SELECT v.chunk_id, v.vector FROM kb_vectors v JOIN kb_chunks c ON c.id = v.chunk_id "
            "WHERE c.source_type = 'note' AND c.source_id = ?", (note,)).fetchone()
        conn.close()
        reader = vector_file.SlotReader(lib.paths.index)
        assert reader.open(engine.model_id, engine.dim)
        slot = reader.read([cid], engine.dim)
        assert slot is not None and slot[0].tobytes() == blob
        reader.close()

        lib.rebuild()  # chunk ids are given out again: their slots are written again
        index, fallback = _dense_index(lib, slots=True)
        _same_results(lib, index, _dense_index(lib, slots=False)[0])
        assert fallback.fetched == []

        lib.worker.set_engine(lambda: HashEngine("another-model")).result(TIMEOUT)
        index, fallback = _dense_index(lib, slots=True)
        _same_results(lib, index, _dense_index(lib, slots=False)[0])
        assert fallback.fetched == []  # the new model's vectors, not the old slots
        assert not vector_file.SlotReader(lib.paths.index).open("hash-test", engine.dim)


def test_discarding_the_index_deletes_the_file(data_dir: Path) -> None:
    from desktop_kb.index import db

    with _library(data_dir, notes=5) as lib:
        index_path = lib.paths.index
    assert vector_file.path_for(index_path).is_file()
    db.discard_index(index_path)
    assert not vector_file.path_for(index_path).exists()


def _open_in(folder: Path) -> list[str]:
    """This process's open files inside ``folder``."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(f"{folder}{os.sep}"):
            found.append(target)
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to list open files")
def test_a_closed_library_keeps_no_file_of_its_folder_open(data_dir: Path) -> None:
    """The index writer's handle on ``index.vectors`` stayed open for the life of the process:
    after the window switched to another library (or a test closed one), the old library's
    stick could not be remounted or ejected ('target is busy') until the app quit."""
    import gc

    with _library(data_dir, notes=5) as lib:
        note = lib.add_note("再一条", "saved with a model: its slot is written zqslot")
        assert lib.drain(TIMEOUT)
        assert vector_file.path_for(lib.paths.index).is_file()
    gc.collect()  # connections other threads opened close when collected
    assert _open_in(data_dir) == []
    with Library(data_dir, load_model=False) as again:  # written again after it was released
        again.worker.set_engine(lambda: HashEngine()).result(TIMEOUT)
        again.save_note(note, body="saved again zqagain")
        assert again.drain(TIMEOUT)
        engine = again.engine
        assert engine is not None
        conn = sqlite3.connect(again.paths.index)
        cid, blob = conn.execute(
            "SELECT v.chunk_id, v.vector FROM kb_vectors v JOIN kb_chunks c ON c.id = v.chunk_id "
            "WHERE c.source_type = 'note' AND c.source_id = ?", (note,)).fetchone()
        conn.close()
        reader = vector_file.SlotReader(again.paths.index)
        assert reader.open(engine.model_id, engine.dim)
        slot = reader.read([cid], engine.dim)
        reader.close()
        assert slot is not None and slot[0].tobytes() == blob
    gc.collect()
    assert _open_in(data_dir) == []


def test_a_hole_is_never_taken_for_a_vector_whose_sign_bits_are_all_zero(tmp_path: Path) -> None:
    """Zeros (a slot never written) have the sign bits of a vector with no positive part."""
    index_path = tmp_path / "index.sqlite"
    vector_file.path_for(index_path).write_bytes(vector_file._header("m", 4, b"t" * 16))
    exact = dense_module.MemoryVectors()
    index = DenseIndex(exact, vector_file.SlotReader(index_path))
    index.reset("m", 4)
    vectors = np.array([[-0.5, -0.5, -0.5, -0.5], [0.5, 0.5, -0.5, -0.5]], dtype=np.float32)
    index.add([1, 2], vectors)
    exact.rows.update({1: vectors[0], 2: vectors[1]})
    query = np.array([-1.0, 0.0, 0.0, 0.0], dtype=np.float32)
    assert index.search(query, 2) == [(1, 0.5), (2, -0.5)]
    assert index.similarities(query, [1]) == {1: 0.5}


@pytest.mark.skipif(not hasattr(os, "POSIX_FADV_WILLNEED") or not hasattr(os, "RWF_NOWAIT"),
                    reason="no posix_fadvise or preadv2")
def test_slots_out_of_the_page_cache_are_announced_before_the_first_is_read(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cold slots are then fetched side by side, not one disk read after another; a slot the
    page cache holds is read at once, without an announcement (a system call that gains nothing)."""
    events: list[tuple[str, int]] = []
    real_fadvise, real_read = os.posix_fadvise, vector_file._read_into
    cold_ids = {7, 20}  # as the kernel answers for slots it must read from the device (EAGAIN)

    def fadvise(fd: int, offset: int, length: int, advice: int) -> None:
        if advice == os.POSIX_FADV_WILLNEED:
            events.append(("hint", offset))
        real_fadvise(fd, offset, length, advice)

    def read_into(fd: int, buffer: memoryview, offset: int) -> None:
        events.append(("read", offset))
        real_read(fd, buffer, offset)

    real_preadv = os.preadv

    def preadv(fd: int, buffers: list[memoryview], offset: int, flags: int = 0) -> int:
        if flags == os.RWF_NOWAIT:  # asked for the page cache's copy only
            if (offset - vector_file.HEADER) // len(buffers[0]) in cold_ids:
                raise BlockingIOError(errno.EAGAIN, "not in the page cache")
            events.append(("cached", offset))
        return real_preadv(fd, buffers, offset, flags)

    with _library(data_dir, notes=30) as lib:
        engine = lib.engine
        assert engine is not None
        reader = vector_file.SlotReader(lib.paths.index)
        assert reader.open(engine.model_id, engine.dim)
        ids = [3, 7, 11, 20]
        expected = reader.read(ids, engine.dim)
        with open(vector_file.path_for(lib.paths.index), "rb") as probe:  # just read: in the page cache
            if vector_file._read_cached_rows(probe.fileno(), [memoryview(bytearray(16))], [vector_file.HEADER], 16):
                reader.close()
                pytest.skip("this file system cannot tell what the page cache holds (tmpfs)")
        monkeypatch.setattr(os, "posix_fadvise", fadvise)
        monkeypatch.setattr(vector_file, "_read_into", read_into)
        monkeypatch.setattr(os, "preadv", preadv)
        matrix = reader.read(ids, engine.dim)
        monkeypatch.setattr(os, "preadv", real_preadv)
        events_cold = list(events)
        events.clear()
        again = reader.read(ids, engine.dim)  # every slot is in the page cache now
        reader.close()
        assert expected is not None and matrix is not None and again is not None
        assert expected.any(axis=1).all() and (matrix == expected).all() and (again == expected).all()
    offset = {cid: vector_file.HEADER + cid * 4 * engine.dim for cid in ids}
    assert events_cold == [("cached", offset[3]), ("cached", offset[11]), ("hint", offset[7]),
                           ("hint", offset[20]), ("read", offset[7]), ("read", offset[20])]
    assert events == []


def test_a_question_reads_each_chunks_vector_once_and_gets_the_same_cosines(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The keyword hits' cosines (and the language pull) reuse the vectors the dense side's
    rescoring read for the same question: fewer slot reads, the same numbers bit for bit."""
    read: list[int] = []
    real_read = vector_file.SlotReader.read

    def slot_read(reader: vector_file.SlotReader, ids: Sequence[int], dim: int) -> np.ndarray | None:
        read.extend(ids)
        return real_read(reader, ids, dim)

    with _library(data_dir) as lib:
        engine = lib.engine
        assert engine is not None
        index, _ = _dense_index(lib, slots=True)
        reference, _ = _dense_index(lib, slots=False)
        monkeypatch.setattr(vector_file.SlotReader, "read", slot_read)
        for text in QUERIES:
            query = engine.embed_queries([text])[0]
            seen = dense_module.SeenVectors()
            read.clear()
            hits = index.search(query, 10, seen)
            rescored = len(read)
            assert hits == reference.search(query, 10) and rescored == len(seen.rows) >= 10
            # Some chunks the rescoring read, some it did not, and one without a vector.
            wanted = [*list(seen.rows)[::2], *(c for c in range(1, 150, 7) if c not in seen.rows), 999_999]
            fresh = {c for c in wanted if c not in seen.rows and c < 999_999}
            read.clear()
            assert index.similarities(query, wanted, seen) == reference.similarities(query, wanted)
            assert len(read) == len(fresh)  # only the chunks not read before
            read.clear()
            other = engine.embed_queries(["another question"])[0]
            assert index.similarities(other, wanted, seen) == reference.similarities(other, wanted)
            assert read == []  # everything is known now
