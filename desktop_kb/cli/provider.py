"""``desktop-kb provider show|presets|set|key``: the AI provider for cloud answers."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from desktop_kb.cli.common import CliError, add_common_options, open_library
from desktop_kb.cli.output import emit


def cmd_provider(args: argparse.Namespace) -> int:
    from desktop_kb import secrets
    from desktop_kb.qa.providers import PRESETS, host_of, preset

    if args.provider_cmd == "presets":
        rows = [{"id": p.id, "label": p.label, "base_url": p.base_url, "model": p.model,
                 "needs_key": p.needs_key} for p in PRESETS]
        emit(args, {"presets": rows}, lambda: "\n".join(
            f"{r['id']:<10} {r['base_url']:<52} {r['model']}" for r in rows))
        return 0
    if args.provider_cmd == "key":
        key = sys.stdin.readline().strip() if not args.delete else ""
        if args.delete:
            secrets.delete_api_key(secrets.PROVIDER_KEY)
            emit(args, {"key": "deleted"}, "key deleted from the system keyring")
            return 0
        if not key:
            raise CliError("No key on standard input (pipe it in: `… | desktop-kb provider key`).")
        try:
            secrets.set_api_key(secrets.PROVIDER_KEY, key)
        except secrets.KeyringUnavailable as exc:
            raise CliError(str(exc)) from None
        emit(args, {"key": "stored"}, "key stored in the system keyring")
        return 0
    with open_library(args) as lib:
        if args.provider_cmd == "set":
            base_url, model = args.base_url, args.model
            if args.preset:
                chosen = preset(args.preset)
                base_url = base_url or chosen.base_url
                model = model or chosen.model
            if base_url is None and model is None:
                raise CliError("Pass --base-url and --model (or --preset).")
            if base_url is not None:
                if not base_url.startswith(("http://", "https://")) or not host_of(base_url):
                    raise CliError(f"{base_url!r} is not an http(s) URL.")
                lib.set_setting("qa.provider.base_url", base_url)
            if model is not None:
                lib.set_setting("qa.provider.model", model)
        base_url = lib.get_setting("qa.provider.base_url")
        model = lib.get_setting("qa.provider.model")
        enabled = bool(lib.get_setting("qa.cloud_enabled"))
    has_key = bool(secrets.get_api_key(secrets.PROVIDER_KEY))
    payload = {"base_url": base_url, "model": model, "host": host_of(base_url or "") or None,
               "has_key": has_key, "cloud_enabled": enabled}
    emit(args, payload, lambda: (
        f"base URL: {base_url or '(not set)'}\nmodel: {model or '(not set)'}\n"
        f"key: {'stored' if has_key else 'none'}\ncloud answering: {'on' if enabled else 'off'}"))
    return 0


def register(sub: Any) -> None:
    pr = sub.add_parser("provider", help="the AI provider for cloud answers")
    pr_sub = pr.add_subparsers(dest="provider_cmd", required=True)
    add_common_options(pr_sub.add_parser("show", help="the configured provider"))
    add_common_options(pr_sub.add_parser("presets", help="known providers"))
    p = pr_sub.add_parser("set", help="set the base URL and model")
    p.add_argument("--base-url")
    p.add_argument("--model")
    p.add_argument("--preset", help="fill in a known provider (see `provider presets`)")
    add_common_options(p)
    p = pr_sub.add_parser("key", help="read the API key from standard input into the system keyring")
    p.add_argument("--delete", action="store_true", help="delete the stored key")
    add_common_options(p)
    pr.set_defaults(func=cmd_provider)
