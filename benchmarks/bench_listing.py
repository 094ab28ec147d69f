"""How long listing a folder of 10,000 files for import takes, next to a bare ``os.walk``.

Run from the repository root::

    .venv/bin/python benchmarks/bench_listing.py [--files 10000] [--repeat 5]

``importer.files.iter_candidates`` (hidden entries skipped, formats matched, .gitignore read,
stable order) against ``os.walk`` + ``sorted`` over the same tree, measured in the same run;
the ratio is the figure (tests/test_import_files.py checks what is listed, not how fast).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from desktop_kb.importer.files import iter_candidates


def make_tree(root: Path, files: int) -> None:
    per_folder = 500
    for n in range(files):
        folder = root / f"d{n // per_folder:03}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"n{n % per_folder:03}.{'md' if n % 2 else 'txt'}").write_bytes(b"x")
    for hidden in (root / ".git", root / "d005" / ".obsidian"):
        hidden.mkdir(parents=True, exist_ok=True)
        for f in range(100):
            (hidden / f"h{f}.md").write_bytes(b"x")


def bare_walk(root: Path) -> list[str]:
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += sorted(os.path.join(folder, n) for n in names)
    return found


def best_of(repeat: int, fn) -> float:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-listing-") as tmp:
        root = Path(tmp) / "tree"
        make_tree(root, args.files)
        listed = best_of(args.repeat, lambda: list(iter_candidates([root])))
        bare = best_of(args.repeat, lambda: bare_walk(root))
    print(f"{args.files} files, best of {args.repeat}: iter_candidates {listed * 1000:.0f} ms, "
          f"os.walk + sorted {bare * 1000:.0f} ms, ratio {listed / bare:.1f}x "
          f"(load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
