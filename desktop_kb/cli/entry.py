"""The ``desktop-kb`` parser and entry point: a registry of command modules.

Each module in :data:`COMMAND_MODULES` has ``register(subparsers)``, which adds its
commands and sets ``func`` on them. A new command group is a new module here plus
one line in the registry; it prints only through :mod:`desktop_kb.cli.output` and
opens the library through :mod:`desktop_kb.cli.common`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from desktop_kb import __version__
from desktop_kb.cli.common import add_common_options, run_command

# Order is the order of ``desktop-kb --help``.
COMMAND_MODULES = (
    "notes", "imports", "search", "index", "models", "evaluate", "related",
    "documents", "ocr", "settings", "provider", "ask", "uploads", "backup", "tags",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="desktop-kb", description=(
        "Local-first notes and learning library. Without a command, opens the app."))
    parser.add_argument("--version", action="version", version=f"desktop-kb {__version__}")
    parser.add_argument("--self-check", action="store_true",
                        help="check this installation (temp folder, Qt offscreen) and exit")
    add_common_options(parser, top=True)
    sub = parser.add_subparsers(dest="command")
    for name in COMMAND_MODULES:
        importlib.import_module(f"desktop_kb.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    if getattr(sys, "frozen", False):
        # A frozen app's "spawn" children (index rebuild pool) re-run this executable;
        # this turns them into workers instead of a second app. No-op elsewhere.
        import multiprocessing

        multiprocessing.freeze_support()
    args = build_parser().parse_args(argv)
    if args.self_check:
        from desktop_kb.self_check import run as run_self_check

        return run_self_check(as_json=args.json)
    if args.command is None:
        from desktop_kb.app import run_gui

        return run_gui(args.data_dir)
    return run_command(args.func, args)
