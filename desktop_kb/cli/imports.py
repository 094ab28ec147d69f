"""``desktop-kb import PATH…``: files and folders into the library."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from desktop_kb.cli.common import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    CliError,
    add_common_options,
    open_library,
    wait_for_index,
)
from desktop_kb.cli.output import emit, error, field, notice, stderr_progress
from desktop_kb.progress import Progress

PRUNE_KEPT_HINT = ("the folder is empty, though the library holds documents from it (is its "
                   "disk, stick or network drive connected?). If you emptied it on purpose, run "
                   "the import again with --prune --prune-empty.")


def _summary_text(summary: Any) -> str:
    lines = [f"added {summary.added}, updated {summary.updated}, unchanged {summary.unchanged}, "
             f"removed {summary.removed}; {summary.fragments} fragments"
             + (f"; {summary.reindexed} re-queued for indexing" if summary.reindexed else "")]
    if summary.per_format:
        lines.append("by format: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.per_format.items())))
    for reason, count in sorted(summary.quiet_skipped.items()):
        lines.append(f"skipped {count} ({reason})")
    for path, reason in summary.skipped:
        lines.append(f"skipped {field(path)}: {reason}")
    for old, new in summary.moved:
        lines.append(f"moved {field(old)} -> {field(new)} (the same document: its links are kept)")
    for path, original in summary.conflicted:
        lines.append(f"conflicted copy {field(path)}: a sync client kept it beside {field(original)} when both "
                     "changed; compare the two and keep one")
    for path, remark in summary.remarks:
        lines.append(f"note {field(path)}: {remark}")
    for path, reason in summary.failed:
        lines.append(f"failed {field(path)}: {field(reason)}")
    for path, link in summary.links_lost:
        lines.append(f"link lost: note {link.note_id} \"{link.note_title}\" linked a passage of {field(path)} "
                     f"that is gone ({link.heading_path or 'no heading'}: \"{link.excerpt}\")")
    if summary.dismissals_lost:
        lines.append(f"{summary.dismissals_lost} dismissed suggestion(s) pointed at passages that are gone")
    for folder in summary.prune_kept:
        lines.append(f"nothing removed under {field(folder)}: {PRUNE_KEPT_HINT}")
    if summary.stopped:
        lines.append(f"stopped early: {summary.stopped} Run the same import again once that is "
                     "fixed: the files already imported are skipped.")
    if summary.ocr_waiting_pages:
        lines.append(f"{summary.ocr_waiting_pages} scanned page(s) wait for OCR "
                     "(install it: desktop-kb ocr install)")
    recognised = getattr(summary, "ocr_recognised", None)
    if recognised is not None:
        lines.append(f"recognised {recognised} scanned page(s) by OCR")
    if summary.cancelled:
        lines.append(f"stopped by Ctrl+C: {INTERRUPTED_HINT}")
    return "\n".join(lines)


INTERRUPTED_HINT = ("the files imported so far are saved and searchable; run the same import again to "
                    "go on (files already imported are skipped)")


@contextlib.contextmanager
def _ctrl_c_stops_after_the_file_in_hand(progress: Progress) -> Iterator[None]:
    """The first Ctrl+C ends the import between two files, with its summary; a second one
    stops at once. It stopped at once, saying only 'interrupted': nothing told the person
    what was saved, nor that running it again goes on where it stopped."""
    def stop(_signum: int, _frame: object) -> None:
        progress.cancel()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        notice("Stopping after the file in hand… (Ctrl+C again stops at once)")

    try:
        before = signal.signal(signal.SIGINT, stop)
    except ValueError:  # not the main thread (tests calling main()): Ctrl+C as before
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def cmd_import(args: argparse.Namespace) -> int:
    formats = [f.strip() for f in args.formats.split(",") if f.strip()] if args.formats else None
    paths = [Path(p).expanduser() for p in args.paths]
    missing = [str(p) for p in paths if not p.exists()]
    if len(missing) == len(paths):
        raise CliError(f"Not found: {', '.join(missing)}")
    show = sys.stderr.isatty() and not args.json
    with open_library(args) as lib:
        progress = stderr_progress(show)
        with _ctrl_c_stops_after_the_file_in_hand(progress):
            summary = lib.import_paths([p for p in paths if p.exists()], formats=formats,
                                       prune=args.prune, prune_empty=args.prune_empty,
                                       progress=progress, include_generated=args.include_generated)
        try:
            wait_for_index(lib)  # the text is searchable now; scanned pages follow
            index_error: CliError | None = None
        except CliError as exc:  # the index stalled (a full disk, say): what was saved is
            index_error = exc    # still said, and how far the import got
        payload = summary.as_json()
        if summary.ocr_documents and not args.no_ocr and not summary.cancelled and not index_error:
            recognised = lib.recognise_scans(summary.ocr_documents, progress=stderr_progress(show))
            wait_for_index(lib)
            summary.ocr_recognised = recognised  # type: ignore[attr-defined]
            payload["ocr_recognised_pages"] = recognised
        emit(args, payload, lambda: _summary_text(summary))
    if missing:
        error(f"not found: {', '.join(missing)}")
        return EXIT_ERROR
    for folder in summary.prune_kept if args.json else ():  # else said in the summary
        error(f"nothing removed under {folder}: {PRUNE_KEPT_HINT}")
    if summary.failed or summary.stopped:
        error(f"{len(summary.failed)} file(s) could not be imported"
              + (f"; stopped: {summary.stopped}" if summary.stopped else ""))
    if index_error is not None:
        error(str(index_error))
    if summary.cancelled:
        if args.json:  # else said in the summary
            error(f"stopped by Ctrl+C: {INTERRUPTED_HINT}")
        return EXIT_INTERRUPTED
    return EXIT_ERROR if summary.failed or summary.stopped or index_error or summary.prune_kept else 0


def register(sub: Any) -> None:
    imp = sub.add_parser("import", help="import files or folders")
    imp.add_argument("paths", nargs="+")
    imp.add_argument("--prune", action="store_true",
                     help="remove documents under these paths whose files vanished or no longer match")
    imp.add_argument("--prune-empty", action="store_true",
                     help="with --prune, also empty a folder that has nothing in it (by default an "
                          "empty folder is taken for a disk that is not connected)")
    imp.add_argument("--formats", help="comma-separated formats or extensions, 'code' for every "
                     "programming language (default: all: md,txt,yaml,json,py,pdf,docx,epub,html,code)")
    imp.add_argument("--include-generated", action="store_true",
                     help="also import lockfiles, minified code, vendored folders, huge schemas and "
                          ".gitignored paths (skipped by default)")
    imp.add_argument("--no-ocr", action="store_true",
                     help="leave scanned pages waiting instead of recognising them now (desktop-kb ocr run)")
    add_common_options(imp)
    imp.set_defaults(func=cmd_import)
