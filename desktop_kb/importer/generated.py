"""Generated and vendored files: skipped by default, because they drown real material.

In a real book's repository a lockfile and a Kubernetes JSON schema were 7.7 %
of the library and came first for English questions.  Lockfiles, minified
code, bundles and source maps are recognised by name; vendored dependency
folders by name; minified code and huge machine-written JSON (schemas, API
specs) and files marked "generated, do not edit" by their text.  The person
can import them anyway (``--include-generated``, or the import dialog).
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["generated_by_content", "generated_by_name", "vendored_folder"]

_LOCKFILES = frozenset({
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock",
    "cargo.lock", "poetry.lock", "pipfile.lock", "pdm.lock", "uv.lock", "composer.lock",
    "gemfile.lock", "podfile.lock", "go.sum", "packages.lock.json", "flake.lock", "mix.lock",
    "pubspec.lock", "gradle.lockfile", "deno.lock", "conan.lock", "paket.lock",
})
_MINIFIED_NAME = re.compile(r"(?i)[.-]min\.(?:js|mjs|css)$|\.(?:js|css)\.map$|\.bundle\.js$|\.chunk\.js$")
_VENDOR_DIRS = frozenset({"node_modules", "bower_components", "__pycache__", "site-packages",
                          "dist-packages", "vendor", "jspm_packages", ".venv", "venv"})
_GENERATED_MARK = re.compile(r"(?i)(?:code generated .* do not edit|@generated\b|auto-?generated file"
                             r"|this file (?:is|was) (?:automatically )?generated)")
_MINIFIABLE = frozenset({"javascript", "typescript", "css", "html", "json"})
_SCHEMA_KEYS = re.compile(r'"(?:\$schema|\$defs|definitions|openapi|swagger|\$ref)"\s*:')
_BIG_JSON_LINES = 2000
_BIG_JSON_CHARS = 200_000


def generated_by_name(path: Path) -> str | None:
    name = path.name.lower()
    if name in _LOCKFILES:
        return f"lockfile ({path.name}, written by a package manager)"
    if _MINIFIED_NAME.search(name):
        return "minified or bundled code"
    return None


def vendored_folder(path: Path) -> str | None:
    if path.name.lower() in _VENDOR_DIRS:
        return f"vendored dependencies ({path.name}/)"
    return None


def generated_by_content(text: str, fmt: str) -> str | None:
    head = text[:2000]
    if _GENERATED_MARK.search(head):
        return "generated file (marked as generated)"
    if fmt in _MINIFIABLE and len(text) > 5000:
        lines = text.count("\n") + 1
        if len(text) / lines > 500 and fmt != "json":
            return "minified code (very long lines)"
    if fmt in ("json", "yaml"):
        lines = text.count("\n") + 1
        big = lines > _BIG_JSON_LINES or len(text) > _BIG_JSON_CHARS
        if big and len(_SCHEMA_KEYS.findall(text[:200_000])) >= 3:
            return f"machine-written schema or API spec ({lines:,} lines)"
    return None
