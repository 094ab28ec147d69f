"""``desktop-kb index status|rebuild|verify``: the derived search index."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from desktop_kb.cli.common import (
    add_common_options,
    open_library,
    result_from_owner,
    say_who_does_it,
    wait_for_index,
)
from desktop_kb.cli.output import emit, field, format_duration, stderr_progress


def _status_text(status: Any, checked: Any = None, keeper: bool = False) -> str:
    lines = [f"{status.state}: {status.sources} sources, {status.chunks} chunks, "
             f"{status.pending} pending, {len(status.failures)} failed"
             + (f", {status.missing_vectors} without vectors" if status.missing_vectors else "")]
    if status.owner_stopped:
        lines.append(f"  kept by {status.owner}, which is stopped (suspended, or paused in a debugger): "
                     "the index holds every change so far; changes made now wait until it is resumed "
                     "or closed")
    elif status.owner:
        lines.append(f"  kept by {status.owner}")
    if status.error:
        lines.append(f"  cannot index: {status.error}")
    if status.model_error:
        lines.append(f"  model failed: {status.model_error}")
    if checked is not None:
        lines.append("  checked after an unclean exit: "
                     + (f"found {checked.summary()}; repaired" if checked.drift else "nothing missing"))
    if status.checking:
        lines.append("  checking the index after an unclean exit")
    if status.dirty and keeper:
        # Nobody else keeps it: the rebuild this command went on with stops when it exits.
        lines.append("  a rebuild is under way: it goes on when the app opens this library, "
                     "or run 'desktop-kb index rebuild'")
    if status.unrecorded_failures:
        lines.append(f"  {status.unrecorded_failures} failure(s) could not be recorded")
    if status.embedding is not None:
        left = status.embedding.seconds_left
        lines.append(f"  embedding for meaning search: {status.embedding.done}/"
                     f"{status.embedding.total} chunks"
                     + (f", {format_duration(left)} left" if left is not None else "")
                     + " (keyword search covers the rest meanwhile)")
    lines += [f"  failed {t} {i}: {field(r)}" for t, i, r, _ in status.failures]
    return "\n".join(lines)


STATUS_SETTLE_S = 2.0


def open_for_index(args: argparse.Namespace) -> Any:
    """The library for ``index``: with its model only where this process keeps the index.

    Beside the app (which keeps it) the model would only be loaded to be dropped: a status
    polled by a script took 30-80 s on a loaded machine, most of it loading the model."""
    lib = open_library(args, load_model=False)
    if lib.worker.is_owner:
        lib.follow_model_choice()  # it indexes, and embeds, what is waiting
    return lib


def finish_startup_check(lib: Any, args: argparse.Namespace) -> Any:
    """The check this process started on taking over an index whose last keeper exited
    uncleanly (kill -9, a crash), run to its end; None when there was none to run.

    The status used to start it and drop it at exit: it said "checking" though nobody was
    checking, and so did every status after it (a 10^6-chunk check outlasts the settle time)
    until the app or 'index verify' ran. Only where this process keeps the index: beside the
    app, the app checks, and "checking" is true."""
    from desktop_kb.index.db import IndexUnavailable
    from desktop_kb.index.worker import IndexStopped

    job = lib.worker.startup_verify if lib.worker.is_owner else None
    if job is None:
        return None
    if not job.done() and sys.stderr.isatty() and not args.json:
        print("checking the index after an unclean exit (the last program to keep it did not "
              "close it); a large library takes a minute…", file=sys.stderr, flush=True)
    try:
        return job.result()
    except (IndexStopped, IndexUnavailable):
        return None  # the status says why (a full disk: "unavailable")


def cmd_index(args: argparse.Namespace) -> int:
    with open_for_index(args) as lib:
        if args.index_cmd == "status":
            checked = finish_startup_check(lib, args)
            # Give work already under way a moment to land, then report the state as it is:
            # a status asked for during a long import says "indexing", it does not wait it out.
            lib.drain(timeout=STATUS_SETTLE_S, backfill=False)
            status = lib.index_status()
            payload = status.as_json()
            payload["checked_after_unclean_exit"] = checked.as_dict() if checked is not None else None
            emit(args, payload, lambda: _status_text(status, checked, lib.worker.is_owner))
        elif args.index_cmd == "rebuild":
            say_who_does_it(lib, "rebuilding")
            result = result_from_owner(
                lib, lib.worker.rebuild(stderr_progress(sys.stderr.isatty() and not args.json)),
                "rebuilt")
            payload = {"sources": result.sources, "chunks": result.chunks, "chars": result.chars,
                       "seconds": round(result.seconds, 3), "cancelled": result.cancelled}
            emit(args, payload, f"rebuilt {result.sources} sources ({result.chunks} chunks) "
                                f"in {result.seconds:.2f}s")
        elif args.index_cmd == "verify":
            wait_for_index(lib, saved=False)
            say_who_does_it(lib, "verifying")
            report = result_from_owner(lib, lib.worker.verify(not args.no_repair), "verified")
            emit(args, report.as_dict(), lambda: _verify_text(report))
    return 0


def _verify_text(report: Any) -> str:
    if not report.drift:
        return "no drift"
    if report.drift == report.missing_vectors:
        # Vectors still to be made (the app embedding an import or a new model) are not the
        # index gone wrong: 'drift: … 1027 missing vectors; repaired' said so mid-backfill.
        return (f"no drift; {report.missing_vectors} chunks without vectors yet"
                + ("; being embedded" if report.repaired else "")
                + " (keyword search finds them meanwhile)")
    return f"drift: {report.summary()}" + ("; repaired" if report.repaired else "")


def register(sub: Any) -> None:
    idx = sub.add_parser("index", help="index status, rebuild, verify")
    idx_sub = idx.add_subparsers(dest="index_cmd", required=True)
    for name, help_text in (("status", "show index state and failures"),
                            ("rebuild", "drop and refill the index from the library"),
                            ("verify", "compare library and index; repair drift")):
        p = idx_sub.add_parser(name, help=help_text)
        add_common_options(p)
        if name == "verify":
            p.add_argument("--no-repair", action="store_true", help="only report")
    idx.set_defaults(func=cmd_index)
