"""``desktop-kb ocr install|status|remove|run``: text recognition for scanned PDF pages.

OCR is off until installed (like an embedding model): ``install`` fetches the
RapidOCR wheels with pip, or takes them from ``--from FOLDER``; ``run``
recognises the scanned pages that imports left waiting.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from desktop_kb.cli.common import CliError, add_common_options, open_library, wait_for_index
from desktop_kb.cli.output import emit, stderr_progress


def cmd_ocr(args: argparse.Namespace) -> int:
    from desktop_kb.importer.ocr_install import OcrInstallError

    show = sys.stderr.isatty() and not args.json
    with open_library(args) as lib:
        if args.ocr_cmd == "status":
            status = lib.ocr.status()
            waiting = lib.documents_waiting_for_ocr()
            pages = sum(d.ocr_pending for d in waiting)
            emit(args, {"installed": status.installed, "detail": status.detail,
                        "waiting_documents": len(waiting), "waiting_pages": pages},
                 f"OCR {'installed' if status.installed else 'not installed'} ({status.detail}); "
                 f"{pages} scanned page(s) in {len(waiting)} document(s) waiting")
        elif args.ocr_cmd == "install":
            progress = stderr_progress(show)
            try:
                status = lib.ocr.install(lambda stage, done, total: _tick(progress, stage, done, total),
                                         Path(args.source).expanduser() if args.source else None)
            except OcrInstallError as exc:
                raise CliError(str(exc)) from exc
            emit(args, {"installed": status.installed, "detail": status.detail},
                 f"OCR installed ({status.detail}). Scanned pages waiting: desktop-kb ocr run")
        elif args.ocr_cmd == "remove":
            lib.ocr.remove()
            emit(args, {"installed": False}, "OCR removed")
        else:  # run
            if not lib.ocr.installed:
                raise CliError("OCR is not installed: desktop-kb ocr install")
            try:
                pages = lib.recognise_scans(progress=stderr_progress(show))
            except OcrInstallError as exc:
                raise CliError(str(exc)) from exc
            wait_for_index(lib)
            emit(args, {"recognised_pages": pages}, f"recognised {pages} scanned page(s)")
    return 0


def _tick(progress: Any, stage: str, done: int, total: int) -> None:
    if done == 0:
        progress.start(stage, total)
    else:
        progress.tick(done - progress.done)


def register(sub: Any) -> None:
    ocr = sub.add_parser("ocr", help="text recognition for scanned PDF pages: install, status, run")
    ocr_sub = ocr.add_subparsers(dest="ocr_cmd", required=True)
    add_common_options(ocr_sub.add_parser("status", help="installed? pages waiting?"))
    install = ocr_sub.add_parser("install", help="install RapidOCR (pip download, or --from FOLDER)")
    install.add_argument("--from", dest="source", metavar="FOLDER",
                         help="a folder of downloaded wheels (offline install)")
    add_common_options(install)
    add_common_options(ocr_sub.add_parser("remove", help="remove the OCR install"))
    add_common_options(ocr_sub.add_parser("run", help="recognise the scanned pages waiting for OCR"))
    ocr.set_defaults(func=cmd_ocr)
