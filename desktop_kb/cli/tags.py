"""``desktop-kb tags``: every #tag of live notes with how many notes carry it (nested under parents)."""

from __future__ import annotations

import argparse
from typing import Any

from desktop_kb.cli.common import add_common_options, open_library
from desktop_kb.cli.output import emit, field


def cmd_tags(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        tags = lib.tags()

        def text() -> str:
            if not tags:
                return "(no tags: write #tag in a note)"
            return "\n".join(f"{'  ' * t.depth}#{field(t.label)}\t{t.notes}" for t in tags)

        emit(args, {"tags": [t.as_json() for t in tags]}, text)
    return 0


def register(sub: Any) -> None:
    tags = sub.add_parser("tags", help="list tags with their note counts (see: note list --tag TAG)")
    add_common_options(tags)
    tags.set_defaults(func=cmd_tags)
