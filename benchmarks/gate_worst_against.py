"""The gate's worst-case speed against another checkout, in one run: bench_gate's adversarial shapes (this
tree's list, so new shapes are timed on both) on each tree's detectors, in alternating rounds, best per shape.

    .venv/bin/python benchmarks/gate_worst_against.py --against /path/to/main-checkout [--rounds 3]

Prints the lowest chars/s of each tree (the figure the budget is on: within 20 % of the other) and the shapes
where this tree is slowest relative to the other. CPU time, so machine load touches both alike.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_CODE = r"""
import ast, json, sys, time
sys.path.insert(0, ".")
src = open(sys.argv[1]).read()
fn = next(n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name == "worst_case")
ns = {"time": time}
exec(compile(ast.Module(body=[fn], type_ignores=[]), "worst_case", "exec"), ns)
print(json.dumps(ns["worst_case"]()))
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, required=True, help="the other checkout (its own desktop_kb)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = {"this": ROOT, "other": args.against.resolve()}
    best: dict[str, dict[str, int]] = {name: {} for name in trees}
    for _ in range(args.rounds):
        for name, path in trees.items():
            out = subprocess.run([sys.executable, "-c", _CODE, str(ROOT / "benchmarks" / "bench_gate.py")],
                                 cwd=path, capture_output=True, text=True, check=True)
            for shape, value in json.loads(out.stdout.strip().splitlines()[-1]).items():
                best[name][shape] = max(best[name].get(shape, 0), value)
    low_this, low_other = min(best["this"].values()), min(best["other"].values())
    print(f"lowest chars/s: this {low_this:,} ({min(best['this'], key=best['this'].get)}), "
          f"other {low_other:,} ({min(best['other'], key=best['other'].get)}); ratio {low_this / low_other:.3f}")
    ratios = sorted(((s, best["this"][s] / best["other"][s]) for s in best["this"]), key=lambda sv: sv[1])[:8]
    print("slowest shapes relative to the other: " + ", ".join(f"{s} {r:.2f}" for s, r in ratios))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
