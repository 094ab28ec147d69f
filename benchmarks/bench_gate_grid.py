"""Content gate recall on a generated grid: secret kind × container × obfuscation.

Run from the repository root::

    .venv/bin/python benchmarks/bench_gate_grid.py [--seed N] [--templates base|heldout] [--show CELL] [--json]

Each case is one note (the gate reads it whole, as it reads a note on the QA
path). A case is found when every character of every occurrence of its secret
is withheld (whitespace, zero-width characters and the ``*`` of a mask aside).
Prints recall per kind × container and per kind × obfuscation, the weakest
rows and columns, and the false positives on the negatives grid (the same
containers holding hashes, UUIDs, ISBNs, order numbers, images, identifiers
and placeholders under their labels). See benchmarks/gate_grid.py for what is
generated and benchmarks/gate_grid_heldout.py and gate_grid_heldout2.py for the held-out templates.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import gate_grid  # noqa: E402
from desktop_kb.qa.detectors import Finding  # noqa: E402
from desktop_kb.qa.source_spans import clear_cache, spans_for_text  # noqa: E402

_IGNORED = set(" \t\n\r*\u200b")


def covered(text: str, findings: list[Finding], secret: str) -> bool:
    pos = text.find(secret)
    while pos >= 0:
        for i in range(pos, pos + len(secret)):
            if text[i] not in _IGNORED and not any(f.start <= i < f.end for f in findings):
                return False
        pos = text.find(secret, pos + 1)
    return True


def run(cases: list[gate_grid.GridCase]) -> list[tuple[gate_grid.GridCase, bool, list[Finding]]]:
    clear_cache()
    out = []
    for case in cases:
        findings = list(spans_for_text(case.text).findings)
        ok = all(covered(case.text, findings, s) for s in case.secrets) if case.secrets else not findings
        out.append((case, ok, findings))
    return out


def table(results: list, row: str, col: str) -> dict[str, dict[str, tuple[int, int]]]:
    cells: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for case, ok, _f in results:
        cell = cells[getattr(case, row)][getattr(case, col)]
        cell[0] += ok
        cell[1] += 1
    return {r: {c: (v[0], v[1]) for c, v in cols.items()} for r, cols in cells.items()}


def marginal(results: list, attr: str) -> dict[str, tuple[int, int]]:
    m: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for case, ok, _f in results:
        m[getattr(case, attr)][0] += ok
        m[getattr(case, attr)][1] += 1
    return {k: (v[0], v[1]) for k, v in m.items()}


def _print_table(t: dict[str, dict[str, tuple[int, int]]], cols: list[str], short: int = 5) -> None:
    print(" " * 18 + " ".join(c[:short].rjust(short) for c in cols))
    for r, row in t.items():
        cells = []
        for c in cols:
            if c in row:
                found, n = row[c]
                cells.append(f"{100 * found // n:>{short}d}" if found < n else " " * (short - 1) + ".")
            else:
                cells.append(" " * (short - 1) + "-")
        print(f"{r[:17]:<18}" + " ".join(cells))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--templates", choices=("base", "heldout", "heldout2"), default="base")
    parser.add_argument("--show", help="print the missed cases of kind[,container[,obfuscation]] (or 'fp')")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    if args.templates in ("heldout", "heldout2"):
        import importlib
        containers = importlib.import_module(f"benchmarks.gate_grid_{args.templates}").CONTAINERS
    else:
        containers = gate_grid.CONTAINERS
    cases = gate_grid.build(args.seed, containers)
    negatives = gate_grid.build_negatives(args.seed + 1, containers)
    t0 = time.process_time()
    results = run(cases)
    neg = run(negatives)
    cpu = time.process_time() - t0
    found = sum(ok for _c, ok, _f in results)
    fps = [(c, f) for c, ok, f in neg if not ok]
    summary = {
        "seed": args.seed, "templates": args.templates, "cases": len(results), "found": found,
        "recall": round(found / len(results), 4),
        "per_kind": marginal(results, "kind"), "per_container": marginal(results, "container"),
        "per_obfuscation": marginal(results, "obfuscation"),
        "negatives": len(neg), "false_positives": len(fps),
        "fp_per_kind": {k: v[1] - v[0] for k, v in marginal(neg, "kind").items()},
        "chars": sum(len(c.text) for c in cases + negatives), "cpu_s": round(cpu, 2),
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=1))
        return 0
    print(f"grid seed {args.seed}, templates {args.templates}: {found}/{len(results)} found "
          f"({found / len(results):.1%}); negatives: {len(fps)}/{len(neg)} flagged; "
          f"{summary['chars']:,} chars in {cpu:.1f} s CPU")
    cols = list(containers)
    print("\nrecall % per kind × container ('.' = all found, '-' = not applicable)")
    _print_table(table(results, "kind", "container"), cols)
    print("\nrecall % per kind × obfuscation")
    _print_table(table(results, "kind", "obfuscation"), list(gate_grid.OBFUSCATIONS))
    for title, attr in (("kind", "kind"), ("container", "container"), ("obfuscation", "obfuscation")):
        m = sorted(marginal(results, attr).items(), key=lambda kv: kv[1][0] / kv[1][1])
        print(f"\nweakest {title}s: " + ", ".join(f"{k} {f}/{n} ({f / n:.0%})" for k, (f, n) in m[:8]))
    print("\nfalse positives per negative kind: " + ", ".join(
        f"{k} {v}" for k, v in summary["fp_per_kind"].items()))  # type: ignore[union-attr]
    if args.show:
        if args.show == "fp":
            for case, f in fps:
                print(f"--- FP {case.kind} / {case.container} / {case.obfuscation}: "
                      f"{[(x.kind, case.text[x.start:x.end][:60]) for x in f]}\n{case.text}")
        else:
            want = args.show.split(",")
            for case, ok, f in results:
                if not ok and [case.kind, case.container, case.obfuscation][:len(want)] == want:
                    print(f"--- MISS {case.kind} / {case.container} / {case.obfuscation}: {case.secrets} "
                          f"found {[(x.kind, case.text[x.start:x.end][:40]) for x in f]}\n{case.text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
