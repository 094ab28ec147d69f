"""House rule 1: the core never imports PySide6 (checked in a fresh interpreter)."""

from __future__ import annotations

import subprocess
import sys

CORE = ("store", "index", "embed", "retrieval", "qa", "discovery", "importer", "markup")


def test_core_packages_do_not_import_qt() -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        f"for pkg in {CORE!r}:\n"
        "    mod = importlib.import_module('desktop_kb.' + pkg)\n"
        "    for info in pkgutil.walk_packages(mod.__path__, mod.__name__ + '.'):\n"
        "        importlib.import_module(info.name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('PySide6')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
