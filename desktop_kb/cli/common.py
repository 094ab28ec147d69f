"""What every command module shares: options, opening the library, errors as one line.

A command module raises :class:`CliError` (or lets a store / importer / lookup error
through); :func:`run_command` turns it into one line on stderr and an exit code, never
a traceback.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from desktop_kb.cli import output
from desktop_kb.paths import resolve_data_dir

EXIT_ERROR = 1
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
#: Seconds the index may stay stuck for one reason (a full disk, a file it may not write)
#: before a command stops waiting for it: the worker retries with a growing pause, so a
#: passing lock clears well within this, and a full disk does not hang the command.
STUCK_INDEX_S = 5.0
#: Seconds between a waiting command's looks at whether the index is stuck, and why.
STUCK_LOOK_S = 1.0
#: Seconds a read command waits for an owner that writes nothing to the index while it is
#: behind, before it reads the index as it stands (a long model load is the slowest
#: legitimate pause seen; a frozen owner never ends it).
OWNER_SILENT_S = 30.0
OWNER_SILENT_MESSAGE = ("The search index is kept by {0}, which has not written to it for {1} s "
                        "(it may be frozen, or busy with a long task): if it does not answer, "
                        "close it.")

Command = Callable[[argparse.Namespace], int]

_BOOL = {"true": True, "yes": True, "on": True, "1": True,
         "false": False, "no": False, "off": False, "0": False}


class CliError(Exception):
    """A problem to report in one line (bad id, missing file, …)."""


def add_common_options(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    """``--json`` and ``--data-dir``, accepted before or after the command.

    SUPPRESS keeps a sub-command's default from overwriting a top-level value.
    """
    default = False if top else argparse.SUPPRESS
    p.add_argument("--json", action="store_true", default=default, help="machine-readable output")
    p.add_argument("--data-dir", default=None if top else argparse.SUPPRESS,
                   help="library folder (default: $DESKTOP_KB_DATA_DIR or the per-user data folder)")


def text_arg(text: str) -> str:
    """An argparse ``type`` for text that is stored or searched (a title, a body, a query).

    Bytes that are not UTF-8 reach Python as lone surrogates (a GBK file's words passed in
    by ``$(cat …)``, a Latin-1 terminal); stored, they failed deep inside with
    "'utf-8' codec can't encode character '\\udce9' … surrogates not allowed"."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raw, bad = _as_bytes(text), _as_bytes(text[exc.start:exc.end])
        meant = ""
        for encoding in ("gb18030", "big5"):  # the likely encodings of Chinese text
            with contextlib.suppress(UnicodeDecodeError):
                meant = f" (as {encoding.upper()} it reads \"{raw.decode(encoding)}\")"
                break
        raise argparse.ArgumentTypeError(
            f"not UTF-8 text: \"{raw.decode('utf-8', 'backslashreplace')}\" has the byte(s) "
            f"{bad.hex(' ').upper()} at character {exc.start + 1}{meant}; pass it as UTF-8 "
            "(set the terminal to UTF-8, or convert it, e.g. iconv -f GB18030 -t UTF-8)") from None
    return text


def _as_bytes(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")  # the bytes as the terminal gave them
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")  # a lone surrogate of UTF-16 (Windows)


def parse_bool(text: str) -> bool:
    """An argparse ``type`` for true/false flags (true, yes, on, 1 / false, no, off, 0)."""
    try:
        return _BOOL[text.lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"expected true or false, not {text!r}") from None


def bool_word(text: str) -> bool | None:
    """``text`` as a boolean when it is one of the true/false words, else None."""
    return _BOOL.get(text.lower())


OTHER_VERSION_HINT = (
    "a sync client kept another computer's version of this library here; what was written "
    "there is not in this library. To see it, copy that file into an empty folder as "
    "library.sqlite and open that folder with --data-dir; then move it out of this folder.")


def open_library(args: argparse.Namespace, *, load_model: bool = True) -> Any:  # -> Library (lazy import)
    """The library in ``--data-dir``, with an interrupted index rebuild finished first."""
    from desktop_kb.index.db import IndexUnavailable
    from desktop_kb.library import Library

    lib = Library(resolve_data_dir(args.data_dir), load_model=load_model)
    if lib.startup_rebuild is not None:
        try:
            try:
                lib.startup_rebuild.result(timeout=1.0)
            except concurrent.futures.TimeoutError:
                # Only worth a word when it takes a while (a new index is instant).
                output.notice("The index was incomplete; rebuilding it from the library…")
                lib.startup_rebuild.result()
        except IndexUnavailable as exc:
            # A full or read-only disk stopped it: the library itself is fine, so the
            # command goes on (search uses the index as it is; `index status` says why).
            output.notice(str(exc))
    for cut in lib.cut_short_imports():
        output.notice(cut.message)
    for other in lib.other_versions():
        output.notice(f"{other.name}: {OTHER_VERSION_HINT}")
    return lib


class _StuckClock:
    """How long the index has stayed stuck for some reason; any moment with no reason resets it."""

    def __init__(self) -> None:
        self._since: float | None = None
        self._stalls: int | None = None

    def seconds(self, reason: str | None, stalls: int | None = None) -> float:
        """``stalls``: how often this process's index worker has failed so far. Given, the
        clock reads 0 until the worker has failed again since the reason was first seen: the
        reason is read between tries (up to ``RETRY_MAX_S`` apart), and the command gave up on
        a disk that had room again before the worker's next try could say so."""
        if reason is None:
            self._since = self._stalls = None
            return 0.0
        now = time.monotonic()
        if self._since is None:
            self._since, self._stalls = now, stalls
        if stalls is not None and self._stalls is not None and stalls <= self._stalls:
            return 0.0
        return now - self._since


def wait_for_index(lib: Any, *, saved: bool = True, read_anyway: bool = False) -> None:
    """Return once the index reflects every change made so far, so a script can search next.

    When another process keeps the index (the app), say so if it takes a
    moment; the changes are saved in the library either way (I12).
    An embedding backfill is not waited for: it may take an hour on a large
    library, and meanwhile search finds the chunks without a vector by keywords.
    When the index stays stuck for one reason (:data:`STUCK_INDEX_S`) — a full disk, an
    owner that is stopped (Ctrl+Z, a debugger) — the command stops waiting and says why
    (:class:`CliError`): it used to wait forever. The index catches up by itself once the
    cause is gone (the feed keeps the work).

    ``read_anyway`` (search, ask, related): instead of failing, say how far behind the
    index is and why, and return, so the command reads the index as it stands. That needs
    no lock (a WAL reader never waits for the writer) and shows nothing deleted (hits are
    resolved against the store, I6); what it lacks are the newest changes, which the notice
    counts. An owner that has not written the index for :data:`OWNER_SILENT_S` while it is
    behind counts as stuck too (frozen in a way that cannot be seen, or on another computer).
    """
    if lib.drain(timeout=1.0, backfill=False):
        return
    if not lib.caught_up():  # else only this process's start is left (its model loading)
        owner = lib.worker.owner()
        who = "this command" if lib.worker.is_owner else owner.describe() if owner is not None else "another process"
        first = "Saved. " if saved else ""
        output.notice(f"{first}Waiting for {who} to index the changes… (Ctrl+C stops waiting; "
                      "nothing is lost)")
    stuck = _StuckClock()
    while not lib.drain(timeout=STUCK_LOOK_S, backfill=False):
        reason = lib.worker.owner_error()
        if reason is None and read_anyway and not lib.worker.is_owner \
                and lib.worker.index_quiet_s() >= OWNER_SILENT_S:
            owner = lib.worker.owner()
            reason = OWNER_SILENT_MESSAGE.format(
                owner.describe() if owner is not None else "another process", round(OWNER_SILENT_S))
        stalls = lib.worker.stalls if lib.worker.is_owner else None
        if stuck.seconds(reason, stalls) >= STUCK_INDEX_S:
            if read_anyway:
                behind = lib.index_status().pending
                output.notice(f"The search index is {behind} change(s) behind, so what follows may "
                              f"miss them: {reason}")
                return
            saved_part = "Saved in the library, but not searchable yet" if saved else "The search index is behind"
            raise CliError(f"{saved_part}: {reason} Search catches up by itself once this is fixed.")


def result_from_owner(lib: Any, job: concurrent.futures.Future[Any], what: str) -> Any:
    """The result of an index job (rebuild, verify), which runs in the process that keeps the
    index; when that process stays stuck for :data:`STUCK_INDEX_S` (stopped: Ctrl+Z, a
    debugger) the request is withdrawn and the command says why, instead of waiting for ever."""
    stuck = _StuckClock()
    while True:
        try:
            return job.result(timeout=STUCK_LOOK_S)
        except concurrent.futures.TimeoutError:
            pass
        reason = None if lib.worker.is_owner else lib.worker.owner_error()
        if stuck.seconds(reason) >= STUCK_INDEX_S and lib.worker.withdraw(job):
            raise CliError(f"Nothing was {what}: {reason}")


def say_who_does_it(lib: Any, what: str) -> None:
    """Index jobs asked for here run in the process that keeps the index (never two writers)."""
    if not lib.worker.is_owner:
        owner = lib.worker.owner()
        who = owner.describe() if owner is not None else "another process"
        output.notice(f"The index is kept by {who}; it is {what} it now. Waiting for the result…")


def wait_until_ready(lib: Any) -> None:
    """Wait for queued indexing and the embedding model to load, so answers match the
    library. An embedding backfill may go on: chunks without a vector yet are found
    by keywords meanwhile, and waiting for it could take an hour on a large library."""
    wait_for_index(lib, saved=False, read_anyway=True)
    model = lib.model_ready
    if model is not None and model.done():
        with contextlib.suppress(Exception):  # a broken model degrades to keywords (I7)
            model.result()


def run_command(command: Command, args: argparse.Namespace) -> int:
    """Run one command; every expected failure becomes one line on stderr and exit 1."""
    from desktop_kb.embed.errors import ModelInstallError
    from desktop_kb.importer.files import UnreadableFile
    from desktop_kb.index.db import IndexUnavailable
    from desktop_kb.store.errors import StoreError

    try:
        return int(command(args))
    except (CliError, StoreError, UnreadableFile, ModelInstallError, IndexUnavailable) as exc:
        output.error(str(exc))
        return EXIT_ERROR
    except LookupError as exc:  # KeyError's str() would add quotes
        output.error(str(exc.args[0] if exc.args else exc))
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader stopped reading (`desktop-kb note list | head`): nothing to tell it, and
        # the interpreter's own last flush must not fail on the closed pipe either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR
    except (ValueError, OSError) as exc:
        output.error(str(exc))
        return EXIT_ERROR
    except KeyboardInterrupt:
        output.error("interrupted")
        return EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001 - a bug, but still no traceback for the person
        if os.environ.get("DESKTOP_KB_DEBUG"):
            raise
        output.error(f"internal error: {type(exc).__name__}: {exc} "
                     "(set DESKTOP_KB_DEBUG=1 for details)")
        return EXIT_INTERNAL
