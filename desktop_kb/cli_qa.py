"""CLI commands for QA and privacy: ask, uploads, provider, settings, local-only flags.

Hooked into :func:`desktop_kb.cli.build_parser` by :func:`register`. From the
command line nothing is sent to a provider without ``--yes`` (the approval of
gate 1's preview); without it the answer is the local cited hit list.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from desktop_kb.store.settings import DEFAULTS

_BOOL = {"true": True, "yes": True, "on": True, "1": True,
         "false": False, "no": False, "off": False, "0": False}


def _cli() -> Any:
    from desktop_kb import cli

    return cli


def _bool(text: str) -> bool:
    try:
        return _BOOL[text.lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"expected true or false, not {text!r}") from None


def _subparsers_of(parser: argparse.ArgumentParser) -> Any:
    for action in parser._actions:  # argparse keeps no public handle on a parser's sub-commands
        if isinstance(action, argparse._SubParsersAction):
            return action
    raise LookupError("parser has no sub-commands")


# ----- settings ---------------------------------------------------------------------------

def parse_value(key: str, text: str) -> Any:
    """A setting value from the command line: JSON when it parses, else the plain string."""
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    default = DEFAULTS.get(key)
    if isinstance(default, bool) and isinstance(value, str) and value.lower() in _BOOL:
        value = _BOOL[value.lower()]
    return validate_setting(key, value)


def validate_setting(key: str, value: Any) -> Any:
    cli = _cli()
    if key == "qa.sensitive" and value not in ("block", "redact"):
        raise cli.CliError("qa.sensitive is 'block' or 'redact'.")
    if key == "qa.budget_chars" and (not isinstance(value, int) or isinstance(value, bool) or value < 100):
        raise cli.CliError("qa.budget_chars is a whole number of characters, at least 100.")
    if key in ("qa.cloud_enabled", "discovery.enabled") and not isinstance(value, bool):
        raise cli.CliError(f"{key} is true or false.")
    if key.startswith("qa.timeout.") and (not isinstance(value, (int, float)) or value <= 0):
        raise cli.CliError(f"{key} is a number of seconds.")
    return value


def cmd_settings(args: argparse.Namespace) -> int:
    cli = _cli()
    with cli._open_library(args) as lib:
        if args.settings_cmd == "list":
            from desktop_kb.store.settings import all_settings

            values = all_settings(lib.store_reader)
            cli._emit(args, values, lambda: "\n".join(f"{k} = {json.dumps(v, ensure_ascii=False)}"
                                                      for k, v in sorted(values.items())))
        elif args.settings_cmd == "get":
            value = lib.get_setting(args.key)
            cli._emit(args, {"key": args.key, "value": value}, json.dumps(value, ensure_ascii=False))
        else:
            value = parse_value(args.key, args.value)
            lib.set_setting(args.key, value)
            cli._emit(args, {"key": args.key, "value": value},
                      f"{args.key} = {json.dumps(value, ensure_ascii=False)}")
    return 0


# ----- local-only flags ------------------------------------------------------------------

def cmd_note_set(args: argparse.Namespace) -> int:
    cli = _cli()
    with cli._open_library(args) as lib:
        if args.local_only is None:
            raise cli.CliError("Nothing to set; pass --local-only true|false.")
        lib.set_note_local_only(args.id, args.local_only)
        cli._emit(args, {"id": args.id, "local_only": args.local_only},
                  f"note {args.id}: local only {'on' if args.local_only else 'off'}")
    return 0


def cmd_document(args: argparse.Namespace) -> int:
    cli = _cli()
    with cli._open_library(args) as lib:
        if args.document_cmd == "list":
            items = lib.list_documents()
            cli._emit(args, {"documents": [{"id": d.id, "title": d.title, "path": d.path,
                                            "format": d.format, "local_only": d.local_only} for d in items]},
                      lambda: "\n".join(f"{d.id}\t{'[local] ' if d.local_only else ''}{d.title}\t{d.path}"
                                        for d in items) or "(no documents)")
        else:
            if args.local_only is None:
                raise cli.CliError("Nothing to set; pass --local-only true|false.")
            from desktop_kb.store import documents

            documents.get_document(lib.store_reader, args.id)  # a clear error for a bad id
            lib.set_document_local_only(args.id, args.local_only)
            cli._emit(args, {"id": args.id, "local_only": args.local_only},
                      f"document {args.id}: local only {'on' if args.local_only else 'off'}")
    return 0


# ----- provider --------------------------------------------------------------------------

def cmd_provider(args: argparse.Namespace) -> int:
    from desktop_kb import secrets
    from desktop_kb.qa.providers import PRESETS, host_of, preset

    cli = _cli()
    if args.provider_cmd == "presets":
        rows = [{"id": p.id, "label": p.label, "base_url": p.base_url, "model": p.model,
                 "needs_key": p.needs_key} for p in PRESETS]
        cli._emit(args, {"presets": rows}, lambda: "\n".join(
            f"{r['id']:<10} {r['base_url']:<52} {r['model']}" for r in rows))
        return 0
    if args.provider_cmd == "key":
        key = sys.stdin.readline().strip() if not args.delete else ""
        if args.delete:
            secrets.delete_api_key(secrets.PROVIDER_KEY)
            cli._emit(args, {"key": "deleted"}, "key deleted from the system keyring")
            return 0
        if not key:
            raise cli.CliError("No key on standard input (pipe it in: `… | desktop-kb provider key`).")
        try:
            secrets.set_api_key(secrets.PROVIDER_KEY, key)
        except secrets.KeyringUnavailable as exc:
            raise cli.CliError(str(exc)) from None
        cli._emit(args, {"key": "stored"}, "key stored in the system keyring")
        return 0
    with cli._open_library(args) as lib:
        if args.provider_cmd == "set":
            base_url, model = args.base_url, args.model
            if args.preset:
                chosen = preset(args.preset)
                base_url = base_url or chosen.base_url
                model = model or chosen.model
            if base_url is None and model is None:
                raise cli.CliError("Pass --base-url and --model (or --preset).")
            if base_url is not None:
                if not base_url.startswith(("http://", "https://")) or not host_of(base_url):
                    raise cli.CliError(f"{base_url!r} is not an http(s) URL.")
                lib.set_setting("qa.provider.base_url", base_url)
            if model is not None:
                lib.set_setting("qa.provider.model", model)
        base_url = lib.get_setting("qa.provider.base_url")
        model = lib.get_setting("qa.provider.model")
        enabled = bool(lib.get_setting("qa.cloud_enabled"))
    has_key = bool(secrets.get_api_key(secrets.PROVIDER_KEY))
    payload = {"base_url": base_url, "model": model, "host": host_of(base_url or "") or None,
               "has_key": has_key, "cloud_enabled": enabled}
    cli._emit(args, payload, lambda: (
        f"base URL: {base_url or '(not set)'}\nmodel: {model or '(not set)'}\n"
        f"key: {'stored' if has_key else 'none'}\ncloud answering: {'on' if enabled else 'off'}"))
    return 0


# ----- ask and uploads -------------------------------------------------------------------

def _answer_text(answer: Any) -> str:
    from desktop_kb.qa.engine import REASONS

    lines = []
    if answer.mode == "generated":
        lines.append(answer.answer)
        if answer.flags:
            lines.append(f"(flags: {', '.join(answer.flags)})")
        lines.append("")
        lines += [f"[{c.n}] {c.title} ({c.source_type} {c.source_id}, {c.start}–{c.end})"
                  for c in answer.citations]
    else:
        reason = REASONS.get(answer.reason or "", answer.reason or "")
        lines.append(f"Local answer — {reason}" + (f" ({answer.detail})" if answer.detail else ""))
        if answer.hits:
            lines.append("")
            lines += [f"[{c.n}] {c.title} — {c.snippet}" for c in answer.hits]
    return "\n".join(lines)


def cmd_ask(args: argparse.Namespace) -> int:
    from desktop_kb.qa.engine import QaEngine

    cli = _cli()
    with cli._open_library(args) as lib:
        lib.drain()
        engine = QaEngine(lib)
        session_id = args.session
        if session_id is None:
            session_id = engine.new_session(args.question[:60])
        else:
            from desktop_kb.store import chats

            chats.get_session(lib.store_reader, session_id)
        stream = not args.json and sys.stdout.isatty()

        def on_delta(text: str) -> None:
            if stream:
                sys.stdout.write(text)
                sys.stdout.flush()

        answer = engine.ask(args.question, session_id=session_id, approved=args.yes,
                            on_delta=on_delta, scope=args.scope)
        if stream and answer.mode == "generated":
            sys.stdout.write("\n\n")
        payload = answer.as_json()
        if args.save_note and (answer.citations or answer.hits):
            from desktop_kb.qa.save_note import save_answer_as_note

            payload["note_id"] = save_answer_as_note(lib, {"question": args.question, **payload})
            lib.drain()
        cli._emit(args, payload, lambda: _answer_text(answer) + (
            f"\n(saved as note {payload['note_id']})" if "note_id" in payload else ""))
    return 0


def cmd_uploads(args: argparse.Namespace) -> int:
    from desktop_kb.store.uploads import list_uploads

    cli = _cli()
    with cli._open_library(args) as lib:
        rows = list_uploads(lib.store_reader, args.limit)
    cli._emit(args, {"uploads": [r.as_json() for r in rows]}, lambda: "\n".join(
        f"{r.id}\t{r.provider_host}\t{r.bytes} B\t{r.n_snippets} snippets\t{r.outcome}" for r in rows)
        or "nothing has ever been sent")
    return 0


def register(sub: Any) -> None:
    add_json = _cli()._add_json
    note_sub = _subparsers_of(sub.choices["note"])
    p = note_sub.add_parser("set", help="change a note's flags")
    p.add_argument("id", type=int)
    p.add_argument("--local-only", type=_bool, metavar="true|false",
                   help="never send this note to a cloud model")
    add_json(p)
    p.set_defaults(func=cmd_note_set)

    doc = sub.add_parser("document", help="list imported documents, change their flags")
    doc_sub = doc.add_subparsers(dest="document_cmd", required=True)
    add_json(doc_sub.add_parser("list", help="list imported documents"))
    p = doc_sub.add_parser("set", help="change a document's flags")
    p.add_argument("id", type=int)
    p.add_argument("--local-only", type=_bool, metavar="true|false",
                   help="never send this document to a cloud model")
    add_json(p)
    doc.set_defaults(func=cmd_document)

    st = sub.add_parser("settings", help="read and change settings")
    st_sub = st.add_subparsers(dest="settings_cmd", required=True)
    add_json(st_sub.add_parser("list", help="every setting with its value"))
    p = st_sub.add_parser("get", help="one setting")
    p.add_argument("key")
    add_json(p)
    p = st_sub.add_parser("set", help="change a setting (JSON values: true, 600, \"redact\")")
    p.add_argument("key")
    p.add_argument("value")
    add_json(p)
    st.set_defaults(func=cmd_settings)

    pr = sub.add_parser("provider", help="the AI provider for cloud answers")
    pr_sub = pr.add_subparsers(dest="provider_cmd", required=True)
    add_json(pr_sub.add_parser("show", help="the configured provider"))
    add_json(pr_sub.add_parser("presets", help="known providers"))
    p = pr_sub.add_parser("set", help="set the base URL and model")
    p.add_argument("--base-url")
    p.add_argument("--model")
    p.add_argument("--preset", help="fill in a known provider (see `provider presets`)")
    add_json(p)
    p = pr_sub.add_parser("key", help="read the API key from standard input into the system keyring")
    p.add_argument("--delete", action="store_true", help="delete the stored key")
    add_json(p)
    pr.set_defaults(func=cmd_provider)

    ask = sub.add_parser("ask", help="ask the library a question (cited; cloud only with --yes)")
    ask.add_argument("question")
    ask.add_argument("--session", type=int, help="continue a chat session")
    ask.add_argument("--yes", action="store_true",
                     help="approve sending the packed snippets and the question to the provider")
    ask.add_argument("--scope", choices=["all", "notes", "library"], default="all")
    ask.add_argument("--save-note", action="store_true",
                     help="also save the answer as a note linked to its sources")
    add_json(ask)
    ask.set_defaults(func=cmd_ask)

    up = sub.add_parser("uploads", help="the log of everything sent to an AI provider")
    up.add_argument("--limit", type=int)
    add_json(up)
    up.set_defaults(func=cmd_uploads)
