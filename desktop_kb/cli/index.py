"""``desktop-kb index status|rebuild|verify``: the derived search index."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from desktop_kb.cli.common import add_common_options, open_library
from desktop_kb.cli.output import emit, stderr_progress


def cmd_index(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        if args.index_cmd == "status":
            lib.drain()
            status = lib.index_status()
            emit(args, status.as_json(), lambda: (
                f"{status.state}: {status.sources} sources, {status.chunks} chunks, "
                f"{status.pending} pending, {len(status.failures)} failed"
                + "".join(f"\n  failed {t} {i}: {r}" for t, i, r, _ in status.failures)))
        elif args.index_cmd == "rebuild":
            result = lib.rebuild(stderr_progress(sys.stderr.isatty() and not args.json))
            payload = {"sources": result.sources, "chunks": result.chunks, "chars": result.chars,
                       "seconds": round(result.seconds, 3), "cancelled": result.cancelled}
            emit(args, payload, f"rebuilt {result.sources} sources ({result.chunks} chunks) "
                                f"in {result.seconds:.2f}s")
        elif args.index_cmd == "verify":
            lib.drain()
            report = lib.verify(repair=not args.no_repair)
            emit(args, report.as_dict(), lambda: (
                "no drift" if not report.drift else
                f"drift: {len(report.missing)} missing, {len(report.stale)} stale, "
                f"{len(report.orphans)} orphan sources, {report.orphan_chunks} orphan rows"
                + ("; repaired" if report.repaired else "")))
    return 0


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
