"""The library service: store + index worker + search, shared by the CLI and the GUI.

Qt-free. Every mutation commits to the store first and then calls the save
hook (enqueue into the index worker); deletions go the other way round (I3, I4).
Reads use per-thread read-only connections, so search never waits on writes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from desktop_kb.discovery.related import DEFAULT_RELATED, RelatedResult
from desktop_kb.embed.calls import CountedEngine, EngineCalls, EngineClosed
from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.embed.manager import DEFAULT_MODEL, MANIFEST, ModelManager, ModelNotFoundError
from desktop_kb.importer import journal as import_journal
from desktop_kb.importer.files import conflicted_copies
from desktop_kb.importer.ocr_install import OcrManager
from desktop_kb.importer.run import (
    ImportSummary,
    import_paths,
    recognise_documents,
    remove_document,
)
from desktop_kb.index import db as index_db
from desktop_kb.index import seed
from desktop_kb.index.apply import IndexEvent
from desktop_kb.index.catchup import read_cursor
from desktop_kb.index.segment import analyse_query
from desktop_kb.index.status import IndexStatus, read_status
from desktop_kb.index.vector_file import SlotReader
from desktop_kb.index.verify import VerifyReport
from desktop_kb.index.worker import (
    IndexStopped,
    IndexWorker,
    Listener,
    RebuildResult,
)
from desktop_kb.index.writer_lock import WriterLock
from desktop_kb.paths import LibraryPaths, file_identity, read_only_folder, read_only_index_dir
from desktop_kb.progress import Progress
from desktop_kb.retrieval.by_name import with_named_documents
from desktop_kb.retrieval.dense import DenseIndex, SqliteVectors
from desktop_kb.retrieval.regional_words import load_tables
from desktop_kb.retrieval.results import SearchResponse
from desktop_kb.retrieval.search import search
from desktop_kb.retrieval.tag_filter import search_with_tags, split_tag_terms
from desktop_kb.retrieval.tuning import Tuning, TuningSource, manifest_calibration
from desktop_kb.store import documents as docs
from desktop_kb.store import feed, markup_sync, notes, settings
from desktop_kb.store import tags as store_tags
from desktop_kb.store.backup import Backup, backup_due, create_backup, room_for_a_backup
from desktop_kb.store.connection import close_writer, open_read_only, open_store, waiting_briefly
from desktop_kb.store.errors import (
    NOT_IMPORTED_PREFIX,
    OLD_READ_ONLY_LIBRARY_MESSAGE,
    READ_ONLY_LIBRARY_MESSAGE,
    StoreError,
    is_corruption,
    is_environment,
)
from desktop_kb.store.schema import SCHEMA_VERSION
from desktop_kb.store.tx import empty_the_wal, replaced_message, replaced_under, transaction

if TYPE_CHECKING:  # imported where used, so that opening a library does not load them
    from desktop_kb.discovery.links_view import NoteLinks
    from desktop_kb.discovery.panel import RelatedMaterial

T = TypeVar("T")
log = logging.getLogger(__name__)


#: How long closing waits for a model call under way (a session cannot be abandoned).
MODEL_CALL_WAIT_S = 120.0
#: Closing while the index worker is still in one step it cannot cut short (a check of the
#: whole index after an unclean exit, a model call past every wait).
WORKER_LEFT_MESSAGE = ("Closed while the search index was still being updated: what was written "
                       "is kept, and the rest is done the next time this library is opened. "
                       "Nothing in the library is lost.")


class Library:
    def __init__(self, data_dir: Path, *, listener: Listener | None = None,
                 verify_on_start: bool = False, models_dir: Path | None = None,
                 load_model: bool = True, role: str = "cli") -> None:
        #: Why nothing can be saved here (a library on a read-only disk, share or CD), or None.
        #: It is read as it is; its index lives in the per-user cache (``read_only_index_dir``).
        self.read_only: str | None = None
        store_path = LibraryPaths(data_dir).store
        if read_only_folder(data_dir) and store_path.exists():
            self.read_only = READ_ONLY_LIBRARY_MESSAGE
            self.paths = LibraryPaths(data_dir, read_only_index_dir(data_dir))
        else:
            self.paths = LibraryPaths(data_dir)
            self.paths.ensure()
        self._write_lock = threading.RLock()
        if self.read_only:
            self.store = self._open_read_only_store()
        else:
            self.store = open_store(self.paths.store)
            markup_sync.ensure_synced(self.store)  # links and tags of notes written before v3
        # Which library this is wherever its folder is mounted (recovered text names it).
        self.library_id = feed.position(self.store).epoch
        self._local = threading.local()
        # Models may be shared with another library (``desktop-kb eval`` builds a
        # throwaway library but uses the person's installed models).
        self.models = ModelManager(models_dir.parent if models_dir else self.paths.data_dir)
        self.ocr = OcrManager(models_dir.parent if models_dir else self.paths.data_dir)
        self._ocr_engine: object | None = None
        self._ocr_lock = threading.Lock()
        if self.read_only:
            self._seed_read_only_index(role)
        self.dense = DenseIndex(SqliteVectors(self.paths.index), SlotReader(self.paths.index))
        self._tuning = TuningSource(self.paths.data_dir, None if not self.read_only or self.paths.index_dir is None
                                    else self.paths.index_dir / f"calibration-{self.library_id}.json")
        self._calibration_memo: tuple[tuple[object, ...], str, dict[str, Any]] | None = None
        self.model_error: str | None = None
        self._role = role
        # The app's warm-up (``warm_up``), started when a model is in use; None in other roles.
        self.warmed: Future[None] | None = None
        self._warm_lock = threading.Lock()
        self._engine_calls = EngineCalls()
        self._warmed_band = -1
        self._warm_again = False
        self._closing = False
        self._model_setting: object = settings.get_setting(self.store, "embed.model")
        self.worker = IndexWorker(self.paths.store, self.paths.index, listener, dense=self.dense,
                                  role=role)
        self.worker.add_listener(self._on_index_event)
        self.worker.start()
        self.model_ready: Future[int] | None = None
        if load_model:
            self.model_ready = self._apply_model(self.active_model_name())
        # Set when this process took the index over and found it dirty (I5) or
        # found that the last owner exited uncleanly.
        self.startup_rebuild: Future[RebuildResult] | None = self.worker.startup_rebuild
        if verify_on_start and self.startup_rebuild is None and self.worker.startup_verify is None \
                and self.worker.is_owner:
            self.worker.verify(repair=True)

    def _open_read_only_store(self) -> sqlite3.Connection:
        """The store of a library nothing can be written in, and its index started from the one
        beside it (a copy: the index must be written as the library is read)."""
        conn = open_store(self.paths.store, readonly=True)
        if conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
            conn.close()
            raise StoreError(f"Cannot open the library at {self.paths.data_dir}: {OLD_READ_ONLY_LIBRARY_MESSAGE}")
        return conn

    def _seed_read_only_index(self, role: str) -> None:
        """Start the cached index of a read-only library from the one beside it: when there is
        none yet, or when the one beside it has less work left (``index.seed``)."""
        beside = self.paths.data_dir / self.paths.index.name
        if not beside.exists():
            return
        lock: WriterLock | None = None
        if self.paths.index.exists():
            model = self._model_in_use(self.store)
            try:
                theirs = open_read_only(beside)
            except (sqlite3.Error, OSError, StoreError):
                return
            try:
                with contextlib.closing(index_db.open_index_reader(self.paths.index)) as ours:
                    further = seed.beside_has_less_left(seed.read_state(theirs, model),
                                                        seed.read_state(ours, model),
                                                        feed.position(self.store))
            except (sqlite3.Error, OSError):
                further = True  # the cached one cannot even be read
            finally:
                theirs.close()
            lock = WriterLock(self.paths.index.parent, role)
            # Another process keeps the cached index (and catches it up): it stays.
            if not further or not lock.try_acquire():
                return
        # Several commands may start at once: each copies to a name of its own, and the
        # first to finish puts its copy in place (a link never replaces an index in use;
        # a replacement is made only by the holder of the index's lock).
        part = self.paths.index.with_name(f".seed-{os.getpid()}-{threading.get_ident()}.sqlite")
        try:
            source = open_read_only(beside)
            try:
                with contextlib.closing(sqlite3.connect(part)) as copy:
                    source.backup(copy)
            finally:
                source.close()
            if lock is None:
                os.link(part, self.paths.index)
            else:
                # The old file's log and shared memory must not be read as the new file's.
                for suffix in ("-wal", "-shm"):
                    Path(f"{self.paths.index}{suffix}").unlink(missing_ok=True)
                os.replace(part, self.paths.index)
        except (sqlite3.Error, OSError, StoreError):
            pass  # another process's copy is in place, or the index is built from the library
        finally:
            part.unlink(missing_ok=True)
            if lock is not None:
                lock.release()

    def close(self) -> None:
        self._closing = True
        warmed = self.warmed
        if warmed is not None:
            warmed.exception()  # its connections and model calls end before theirs are closed
        stopped = self.worker.stop(quiet=True)
        # A worker left running with a model (loading one, or a batch slower than the wait on
        # a loaded machine) takes the process down as it exits: onnxruntime torn down under
        # it aborts ("terminate called without an active exception"). No new model call
        # starts now; the one under way and the worker end first.
        calls_ended = self._engine_calls.close(MODEL_CALL_WAIT_S)
        if not stopped and calls_ended and self._engine_calls.used:
            stopped = self.worker.stop(MODEL_CALL_WAIT_S, quiet=True)
        if not stopped:
            # Said once, after every wait: 'index status' printed 'the index worker did not stop
            # within 10.0 s' while a model load it then waited for ended cleanly.
            log.warning(WORKER_LEFT_MESSAGE)
        self.dense.close()
        self._close_readers()
        # A save on another thread (the window's save queue once its wait ran out) ends first:
        # the connection closed under it lost that save, or crashed the process.
        with self._write_lock:
            close_writer(self.store)

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- read connections (one per thread) -----------------------------------

    def _reader(self, which: str) -> sqlite3.Connection:
        """This thread's read-only connection; reopened if the file was replaced
        (the index is recreated when damaged, possibly by another process)."""
        conns: dict[str, tuple[sqlite3.Connection, tuple[int, int] | None]] = \
            self._local.__dict__.setdefault("conns", {})
        path = self.paths.store if which == "store" else self.paths.index
        ident = file_identity(path)
        held = conns.get(which)
        if held is not None and held[1] == ident:
            return held[0]
        if held is not None:
            held[0].close()
        if which == "store":
            conn = open_store(self.paths.store, readonly=True)
        else:
            conn = index_db.open_index_reader(self.paths.index, index_db.SEARCH_CACHE_KIB)
        conns[which] = (conn, ident)
        return conn

    def _close_readers(self) -> None:
        """Close this thread's read connections."""
        for conn, _ident in getattr(self._local, "conns", {}).values():
            conn.close()
        self._local.__dict__.pop("conns", None)

    @property
    def store_reader(self) -> sqlite3.Connection:
        return self._reader("store")

    @property
    def index_reader(self) -> sqlite3.Connection:
        return self._reader("index")

    # ----- notes ----------------------------------------------------------------

    def add_note(self, title: str, body: str, *, local_only: bool = False,
                 derived_from: Sequence[tuple[str, int]] = ()) -> int:
        """A new note. ``derived_from``: the notes, fragments or documents it was made from
        (a saved answer's sources, a reader selection's document) — if any of them is local
        only, so is the note, with that reason shown beside its lock (I11)."""
        with self._write_lock:
            note_id = notes.create_note(self.store, title, body, local_only=local_only,
                                        derived_from=derived_from)
        self.worker.enqueue_note(note_id)
        return note_id

    def save_note(self, note_id: int, *, title: str | None = None, body: str | None = None) -> bool:
        with self._write_lock:
            changed = notes.update_note(self.store, note_id, title=title, body=body)
        if changed:
            self.worker.enqueue_note(note_id)
        return changed

    def save_note_over(self, note_id: int, title: str, body: str, base: notes.Base | None,
                       other_title: str) -> notes.SaveOutcome:
        """An editor's save: like ``save_note``, but text someone else saved since ``base``
        is kept as a new note rather than overwritten (see ``notes.save_over``)."""
        with self._write_lock:
            outcome = notes.save_over(self.store, note_id, title, body, base, other_title)
        keys = [("note", note_id)] if outcome.changed else []
        if outcome.other_version is not None:
            keys.append(("note", outcome.other_version))
        if keys:
            self.worker.enqueue(keys)
        return outcome

    def get_note(self, note_id: int) -> notes.Note:
        return notes.get_note(self.store_reader, note_id)

    def list_notes(self, *, trashed: bool = False, order: str = "updated",
                   tags: Sequence[str] = ()) -> list[notes.Note]:
        """Live notes (or the trash); with ``tags``, only notes carrying all of them."""
        found = notes.list_notes(self.store_reader, trashed=trashed, order=order)
        if tags:
            allowed = store_tags.notes_with_tags(self.store_reader, tags, trashed=trashed)
            found = [n for n in found if n.id in allowed]
        return found

    def user_words(self) -> list[str]:
        """Titles, link targets and tags: words for the segmenter's user dictionary."""
        return markup_sync.user_words(self.store_reader)

    def tags(self) -> list[store_tags.TagCount]:
        """Tags of live notes with how many notes carry each (nested tags count for parents)."""
        return store_tags.tag_counts(self.store_reader)

    # ----- typed [[links]] ---------------------------------------------------------

    def resolve_title(self, title: str, *, source: int | None = None) -> int | None:
        """The live note a ``[[title]]`` opens (the whole text first, then before any "#")."""
        from desktop_kb.markup.wiki_links import parse_wiki_links

        found = parse_wiki_links(f"[[{title}]]")
        if not found:
            return None
        return markup_sync.resolve_link(self.store_reader, found[0], source=source)

    def link_referrers(self, title: str, *, exclude: int | None = None) -> list[notes.Note]:
        """Notes whose text links to ``title`` (for "update links after a rename")."""
        from desktop_kb.markup.titles import title_key

        ids = markup_sync.referrers(self.store_reader, [title_key(title)])
        return [notes.get_note(self.store_reader, i) for i in ids if i != exclude]

    def retarget_links(self, old_title: str, new_title: str, note_ids: Sequence[int]) -> int:
        """Rewrite ``[[old_title…]]`` as ``[[new_title…]]`` in these notes; returns links changed.

        Each note is saved like any edit (its links re-resolve, it is re-indexed).
        """
        from desktop_kb.markup.wiki_links import retarget

        changed = 0
        for note_id in note_ids:
            with self._write_lock:
                note = notes.get_note(self.store, note_id)
                body, n = retarget(note.body, old_title, new_title)
                saved = bool(n) and notes.update_note(self.store, note_id, body=body)
            if saved:
                changed += n
                self.worker.enqueue_note(note_id)
        return changed

    def set_note_local_only(self, note_id: int, local_only: bool) -> None:
        with self._write_lock:
            notes.set_note_local_only(self.store, note_id, local_only)

    def trash_note(self, note_id: int) -> None:
        """A trashed note leaves search at once: index rows go first (I4)."""
        notes.get_note(self.store_reader, note_id)
        with self._write_lock:
            self.worker.remove([("note", note_id)],
                               then=lambda: notes.set_trashed(self.store, note_id, True)).result()

    def restore_note(self, note_id: int) -> None:
        with self._write_lock:
            notes.set_trashed(self.store, note_id, False)
        self.worker.enqueue_note(note_id)

    def delete_note(self, note_id: int) -> None:
        notes.get_note(self.store_reader, note_id)
        with self._write_lock:
            self.worker.remove([("note", note_id)],
                               then=lambda: notes.delete_note(self.store, note_id)).result()

    def empty_trash(self) -> int:
        trashed = notes.list_notes(self.store_reader, trashed=True)
        for note in trashed:
            self.delete_note(note.id)
        return len(trashed)

    # ----- documents -------------------------------------------------------------

    def import_paths(self, paths: Sequence[Path], *, formats: Collection[str] | None = None,
                     prune: bool = False, progress: Progress | None = None,
                     include_generated: bool = False, prune_empty: bool = False) -> ImportSummary:
        """Import; scanned PDF pages are left for ``recognise_scans`` (text first). In the
        app, words first: the files' vectors are embedded after the import (the status says
        "embedding" meanwhile)."""
        if self.read_only:
            raise StoreError(f"{NOT_IMPORTED_PREFIX}{self.read_only}")
        with self.worker.holding_backfill(), import_journal.under_way(self.paths.data_dir, paths):
            return import_paths(
                self.store, self.worker, paths,
                formats=formats or settings.get_setting(self.store_reader, "import.formats"),
                prune=prune, prune_empty=prune_empty, progress=progress, lock=self._write_lock,
                unindexed=self._unindexed_fragments, include_generated=include_generated,
                ocr_ready=self.ocr.installed, own=(self.paths.data_dir, self.models.models_dir))

    def _unindexed_fragments(self, fragment_ids: list[int]) -> list[int]:
        """Fragments the index should hold by now (their last change is applied) but does not."""
        if not fragment_ids or not self.paths.index.exists():
            return []
        index = self.index_reader
        if not index_db.has_meta(index):
            return []
        cursor = read_cursor(index)
        if cursor is None:
            return []  # a full reconcile is due anyway
        marks = ",".join("?" * len(fragment_ids))
        have = {r[0] for r in index.execute(
            f"SELECT source_id FROM kb_sources WHERE source_type = 'fragment' AND source_id IN ({marks})",
            fragment_ids)}
        return [r[0] for r in self.store_reader.execute(
            f"SELECT id FROM fragments WHERE id IN ({marks}) AND change_seq <= ?",
            (*fragment_ids, cursor.seq)) if r[0] not in have]

    def documents_waiting_for_ocr(self) -> list[docs.Document]:
        return [d for d in docs.list_documents(self.store_reader) if d.ocr_pending]

    def recognise_scans(self, document_ids: Sequence[int] | None = None,
                        progress: Progress | None = None) -> int:
        """OCR the scanned pages of these documents (all waiting ones by default).

        Runs after their text pages are searchable; returns pages recognised.
        The engine loads once per library (its models take seconds).
        """
        if document_ids is None:
            document_ids = [d.id for d in self.documents_waiting_for_ocr()]
        if not document_ids:
            return 0
        with self._ocr_lock:
            if self._ocr_engine is None:
                self._ocr_engine = self.ocr.load_engine()
            engine = self._ocr_engine
        return recognise_documents(self.store, self.worker, document_ids, engine,  # type: ignore[arg-type]
                                   progress=progress, lock=self._write_lock)

    def list_documents(self) -> list[docs.Document]:
        return docs.list_documents(self.store_reader)

    def list_fragments(self, document_id: int) -> list[docs.Fragment]:
        return docs.list_fragments(self.store_reader, document_id)

    def delete_document(self, document_id: int) -> None:
        docs.get_document(self.store_reader, document_id)
        with self._write_lock:
            remove_document(self.store, self.worker, document_id)

    def set_document_local_only(self, document_id: int, local_only: bool) -> None:
        with self._write_lock:
            docs.set_document_local_only(self.store, document_id, local_only)

    # ----- settings -------------------------------------------------------------

    def get_setting(self, key: str) -> object:
        return settings.get_setting(self.store_reader, key)

    def set_setting(self, key: str, value: object) -> None:
        with self._write_lock:
            settings.set_setting(self.store, key, value)

    def write(self, fn: Callable[[sqlite3.Connection], T], *, wait: bool = True) -> T:
        """Run ``fn`` with the store's write connection (chats, upload log: desktop_kb.qa).

        ``wait=False``: a write the person can do without (the chat of a question answered by
        reading) does not wait for another program's write lock (store.connection.SHORT_BUSY_MS)
        and fails with who holds it, instead of keeping the answer back for the busy timeout.
        """
        with self._write_lock:
            if wait:
                return fn(self.store)
            with waiting_briefly(self.store):
                return fn(self.store)

    # ----- embedding model ------------------------------------------------------

    def active_model_name(self) -> str | None:
        """The model in use: the setting, or the default model once it is installed.

        The setting ``embed.model`` is None until the person chooses; "none"
        means they switched semantic search off.
        """
        return self._model_in_use(self.store_reader)

    def _model_in_use(self, store: sqlite3.Connection) -> str | None:
        chosen = settings.get_setting(store, "embed.model")
        if chosen == "none":
            return None
        name = chosen or DEFAULT_MODEL
        return name if self.models.is_installed(name) else None

    def _apply_model(self, name: str | None, progress: Progress | None = None) -> Future[int]:
        threads = settings.get_setting(self.store_reader, "embed.threads")

        def load() -> EmbeddingEngine | None:
            if name is None:
                return None
            calls = self._engine_calls
            return CountedEngine(calls.run(lambda: self.models.load_engine(name, threads=threads)), calls)

        future = self.worker.set_engine(load, progress)

        def record(done: Future[int]) -> None:
            exc = done.exception()
            # A model that fails to load must not leave the status "ok".
            self.model_error = None if exc is None or isinstance(exc, (IndexStopped, EngineClosed)) \
                else f"{name}: {type(exc).__name__}: {exc}"
            if not isinstance(exc, (IndexStopped, EngineClosed)):
                self.worker.publish_model_error(self.model_error)

        future.add_done_callback(record)
        return future

    def follow_model_choice(self) -> bool:
        """Apply the model another process chose or installed (the setting, or the default
        model becoming installed); True if the model in use changes."""
        chosen = settings.get_setting(self.store_reader, "embed.model")
        wanted = self.active_model_name()
        current = self.engine.model_id if self.engine is not None else None
        self._model_setting = chosen
        if wanted == current:
            return False
        self.model_ready = self._apply_model(wanted)
        return True

    def use_model(self, name: str | None, progress: Progress | None = None) -> Future[int]:
        """Switch the embedding model (None: keyword search only); re-embeds in the background."""
        if name is not None:
            self.models.manifest(name)  # raises ModelNotFoundError with a clear message
        self._model_setting = name or "none"
        self.set_setting("embed.model", name or "none")
        self.model_ready = self._apply_model(name, progress)
        return self.model_ready

    @property
    def engine(self) -> EmbeddingEngine | None:
        return self.worker.engine

    def model_loading(self) -> str | None:
        """The model chosen and installed but not in use yet (it is still loading), else None.

        Until it is in use search and related material are keywords only; saying "install a
        model" then would send the person to install what they have."""
        if self.model_error is not None or (self.engine is not None and self.dense.ready):
            return None
        return self.active_model_name()

    # ----- index ----------------------------------------------------------------

    def default_mode(self) -> str:
        return "hybrid" if self.engine is not None and self.dense.ready else "lexical"

    def tuning(self) -> Tuning | None:
        """Fusion constants and cosine calibration for the model in use (None: no model)."""
        engine = self.engine
        if engine is None or not self.dense.ready:
            return None
        try:
            sha256, calibration = self._model_calibration(engine.model_id)
        except (ModelNotFoundError, OSError, ValueError):
            return Tuning()
        return self._tuning.tuning(self.index_reader, self.store_reader, engine, self.dense,
                                   sha256, calibration)

    def _model_calibration(self, model_id: str) -> tuple[str, dict[str, Any]]:
        """(weights sha256, calibration) of a model, read again only when its manifest file
        changes: every search needs them, and reading and parsing cost a millisecond."""
        stat = (self.models.models_dir / model_id / MANIFEST).stat()
        stamp = (model_id, stat.st_ino, stat.st_mtime_ns, stat.st_size)
        memo = self._calibration_memo
        if memo is None or memo[0] != stamp:
            manifest = self.models.manifest(model_id)
            memo = self._calibration_memo = (
                stamp, manifest.sha256, manifest_calibration(manifest.calibration, manifest.sha256))
        return memo[1], memo[2]

    @contextlib.contextmanager
    def reading_the_index(self) -> Iterator[None]:
        """Reads of an index another process found damaged (``IndexWorker.damaged``) fail with
        why and what to do (``IndexUnavailable``, one line), not "internal error"."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            damaged = self.worker.damaged
            if damaged is None or not is_corruption(exc):
                raise
            raise index_db.IndexUnavailable(damaged) from exc

    def search(self, query: str, *, limit: int = 10, mode: str | None = None) -> SearchResponse:
        """Search notes and the library; ``tag:x`` terms narrow to notes tagged #x."""
        mode = mode or self.default_mode()

        def run(text: str, n: int) -> SearchResponse:
            return search(self.index_reader, self.store_reader, text, limit=n, mode=mode,
                          engine=self.engine, dense=self.dense,
                          tuning=self.tuning() if mode != "lexical" else None)

        with self.reading_the_index():
            response = search_with_tags(self.store_reader, query, limit, run)
        if not split_tag_terms(query)[1]:  # a tag filter means notes only
            response = with_named_documents(self.store_reader, response, limit)
        return response

    def drain(self, timeout: float | None = None, *, backfill: bool = True) -> bool:
        """Wait until the index has applied every change committed so far, by any process
        (``backfill=False``: without waiting for an embedding backfill to finish)."""
        return self.worker.drain(timeout, until_seq=self._feed_position().seq, backfill=backfill)

    def cut_short_imports(self) -> list[import_journal.CutShort]:
        """Imports stopped by force since (kill -9, a crash, a power cut), each told once."""
        return import_journal.take_cut_short(self.paths.data_dir)

    def other_versions(self) -> list[Path]:
        """Copies of ``library.sqlite`` a sync client kept beside it when two computers changed
        it ("library (conflicted copy 2026-12-06).sqlite", Syncthing's ".sync-conflict-…"):
        notes written there are not in this library, and nothing said so."""
        return conflicted_copies(self.paths.store)

    def let_go_of_a_replaced_file(self) -> str | None:
        """Whether another file was put at ``library.sqlite``'s path while open here (a sync
        client's copy; or the file went away). If so, this library's pages still in ``-wal``
        go into the old file now: ``-wal`` is found by name, and the next process to open
        the new file read them as its own and wrote them into it. Saves are refused from
        then on (``store.tx``)."""
        with self._write_lock:  # returns what happened (store.tx.replaced_message), or None
            if not replaced_under(self.store):
                return None
            empty_the_wal(self.store)
            return replaced_message(self.store)

    def _feed_position(self) -> feed.FeedPosition:
        """The store's feed position: every change committed so far."""
        with feed.snapshot(self.store_reader):
            return feed.position(self.store_reader)

    def caught_up(self) -> bool:
        """Whether the index has applied every change committed so far, by any process (what
        is left, if anything, is this process's own work: loading the model, a backfill)."""
        pos = self._feed_position()
        try:
            with feed.snapshot(self.index_reader):  # the file, not the worker: it may be starting
                cursor = read_cursor(self.index_reader)
        except sqlite3.Error:
            return False  # no index file this instant (deleted; its owner recreates it)
        return cursor is not None and cursor.epoch == pos.epoch and cursor.seq >= pos.seq

    def rebuild(self, progress: Progress | None = None) -> RebuildResult:
        return self.worker.rebuild(progress).result()

    def verify(self, repair: bool = True) -> VerifyReport:
        return self.worker.verify(repair).result()

    # ----- related material and links (I9: only a person's click calls link) ----

    def related(self, note_id: int, *, limit: int = 8, mode: str = "hybrid") -> RelatedResult:
        from desktop_kb.discovery.related import related_for_note

        use_dense = self.engine is not None and self.dense.ready
        tuning = self.tuning() if use_dense else None
        return related_for_note(self.index_reader, self.store_reader, note_id, limit=limit,
                                engine=self.engine if use_dense else None,
                                dense=self.dense if use_dense else None, mode=mode,
                                calibration=tuning.calibration if tuning else None,
                                params=tuning.related if tuning else DEFAULT_RELATED,
                                centre=tuning.centre if tuning else None)

    def related_material(self, note_id: int, *, limit: int = 8) -> RelatedMaterial:
        """What the related panel shows: copies grouped, dismissed passages' copies hidden,
        near-duplicate hints."""
        from desktop_kb.discovery.panel import OVERFETCH, related_material

        with self.reading_the_index():
            view = related_material(self.store_reader, self.related(note_id, limit=max(0, limit) * OVERFETCH),
                                    limit)
        if view.mode != "hybrid":
            view.model_loading = self.model_loading()
            view.model_failed = self.model_error is not None
        return view

    def dismiss_many(self, note_id: int, targets: Sequence[tuple[str, int]], *, undo: bool = False) -> None:
        """Dismiss (or restore) every copy of a passage at once, in one transaction."""
        from desktop_kb.store import links

        with self._write_lock:
            links.set_dismissed(self.store, note_id, targets, dismissed=not undo)

    def note_links(self, note_id: int) -> NoteLinks:
        from desktop_kb.discovery.links_view import note_links

        return note_links(self.store_reader, note_id)

    def link(self, note_id: int, target_type: str, target_id: int, *, origin: str = "suggestion") -> bool:
        from desktop_kb.store import links

        with self._write_lock:
            return links.create_link(self.store, note_id, target_type, target_id, origin=origin)

    def unlink(self, note_id: int, target_type: str, target_id: int) -> bool:
        from desktop_kb.store import links

        with self._write_lock:
            return links.remove_link(self.store, note_id, target_type, target_id)

    def dismiss(self, note_id: int, target_type: str, target_id: int, *, undo: bool = False) -> None:
        from desktop_kb.store import links

        with self._write_lock:
            if undo:
                links.undismiss_suggestion(self.store, note_id, target_type, target_id)
            else:
                links.dismiss_suggestion(self.store, note_id, target_type, target_id)

    def index_status(self) -> IndexStatus:
        try:
            index = self.index_reader if self.paths.index.exists() else None
        except sqlite3.Error:
            index = None
        owner = self.worker.owner()
        applier_unrecorded = self.worker.unrecorded_failures
        error = self.worker.owner_error()

        def status(index: sqlite3.Connection | None, error: str | None) -> IndexStatus:
            return read_status(
                index, self.store_reader, in_process=self.worker.pending, error=error,
                model_error=self.model_error or self.worker.owner_model_error(),
                unrecorded=applier_unrecorded,
                owner=owner.describe() if owner is not None else "", embedding=self.worker.embedding)

        try:
            found = status(index, error)
        except sqlite3.Error as exc:
            if index is not None and is_corruption(exc):
                # Damaged while another process keeps it (a sync client's copy put in its
                # place, a disk error): never "internal error", never "ok".
                return status(None, error or index_db.DAMAGED_MESSAGE.format(self.paths.index))
            if index is None or not is_environment(exc):
                raise
            # The index cannot even be read (a full disk where its -shm cannot grow, an
            # I/O error): say so, never exit with "internal error" or report it "ok".
            return status(None, error or index_db.unavailable_message(exc, self.paths.index))
        loading = self.model_loading()
        if loading:
            found = dataclasses.replace(found, model_loading=loading)
        if error is not None and found.whole and error == self.worker.owner_stopped():
            # It had caught up before it stopped: the index is complete ("unavailable" said it
            # was not), and the next change is what waits for it.
            return dataclasses.replace(found, error=None, owner_stopped=True)
        return found

    # ----- upkeep -----------------------------------------------------------------

    def daily_upkeep(self) -> Backup | None:
        """On start (the app), at most once a day: a backup, old tombstones collected, and a
        full verify of the index as a last safety net under the change feed (I5). Returns
        the new backup, if one was made; raises ``BackupError`` when it could not be."""
        if self.read_only or not backup_due(self.paths.store):
            return None  # nothing to back up from a library that cannot change, nor room for it
        room_for_a_backup(self.paths.store)
        made = create_backup(self.paths.store, reason="auto")
        # Tidying only: with the library held by another program (a long import) it waits for
        # the next day; failing here said "the daily backup could not be made" of one just made.
        with contextlib.suppress(StoreError), self._write_lock, \
                transaction(self.store, "Tidying the change feed"):
            feed.collect_tombstones(self.store)
        # Asked for, not waited for: the index worker runs it behind other indexing work,
        # and closing the window must never wait for it (stop() ends it; the next day
        # asks again).
        self.worker.verify(repair=True)
        return made

    # ----- following other processes ------------------------------------------

    def warm_up(self) -> None:
        """Load what the first search would otherwise wait for: jieba's dictionary, OpenCC's
        regional tables and the model's measurements on this library (calibration, per-script
        levels, mean chunk vector). The first search after the app opened a 10⁵-chunk library
        took 2.8 s (0.6 s CPU; 2 of them reading and loading these), the next ones 0.06 s."""
        analyse_query("预热 warm-up")
        load_tables()
        self.tuning()

    def _warm_up_in_background(self, model_switched: bool) -> None:
        """The app's warm-up on a thread of its own (the worker goes on to its backfill), again
        whenever a backfill doubles the library (``TuningSource.band``: the first search of each
        new band measured the model again, 8-19 s during a 10⁵-chunk backfill at load 15)."""
        band = TuningSource.band(self.dense)
        with self._warm_lock:
            if not model_switched and band == self._warmed_band:
                return
            self._warmed_band = band
            if self.warmed is not None and not self.warmed.done():
                self._warm_again = True  # the running one measures once more when done
                return
            done: Future[None] = Future()
            self.warmed = done
            self._warm_again = False

        def run() -> None:
            try:
                again = True
                while again and not self._closing:
                    self.warm_up()
                    with self._warm_lock:
                        again, self._warm_again = self._warm_again, False
                done.set_result(None)
            except BaseException as exc:  # noqa: BLE001 - a failed warm-up only costs the first search time
                done.set_exception(exc)
            finally:
                self._close_readers()

        threading.Thread(target=run, name="kb-warm-up", daemon=True).start()

    def _on_index_event(self, event: IndexEvent) -> None:
        """On the worker thread: another process changed the store; follow a model switch; in
        the app, warm up for the first search once a model is in use and as a backfill grows."""
        if self._role == "app" and event.kind in ("model", "embedding") and self.dense.ready:
            self._warm_up_in_background(event.kind == "model")
            return
        if event.kind != "store_changed" or not self.worker.is_owner:
            return
        try:
            chosen = settings.get_setting(self.store_reader, "embed.model")
        except sqlite3.Error:
            return
        if chosen != self._model_setting:
            self._model_setting = chosen
            self.model_ready = self._apply_model(self.active_model_name())

