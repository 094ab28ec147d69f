"""``desktop-kb uploads``: the log of everything ever sent to an AI provider (I8)."""

from __future__ import annotations

import argparse
from typing import Any

from desktop_kb.cli.common import add_common_options, open_library
from desktop_kb.cli.output import emit


def cmd_uploads(args: argparse.Namespace) -> int:
    from desktop_kb.store.uploads import list_uploads

    with open_library(args) as lib:
        rows = list_uploads(lib.store_reader, args.limit)
    emit(args, {"uploads": [r.as_json() for r in rows]}, lambda: "\n".join(
        f"{r.id}\t{r.provider_host}\t{r.bytes} B\t{r.n_snippets} snippets\t{r.outcome}" for r in rows)
        or "nothing has ever been sent")
    return 0


def register(sub: Any) -> None:
    up = sub.add_parser("uploads", help="the log of everything sent to an AI provider")
    up.add_argument("--limit", type=int)
    add_common_options(up)
    up.set_defaults(func=cmd_uploads)
