"""The Hamming scan's CPU time by step size (``dense.SCAN_ROWS``). Measured, never asserted.

Run from the repository root::

    .venv/bin/python benchmarks/bench_hamming_steps.py [--rows 1000000] [--steps 32768,8192,4096]

Random 512-bit codes (64 bytes a row, as the default model's); each step size scans them 15
times (thread CPU, median), in the order given and again, and must give the same distances as
the first.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--steps", default="32768,8192,6144,12288,4096")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO_ROOT))
    from desktop_kb.retrieval import dense

    rng = np.random.default_rng(0)
    codes = rng.integers(0, 256, size=(args.rows, 64), dtype=np.uint8)
    query = rng.integers(0, 256, size=64, dtype=np.uint8)
    reference = dense.hamming(codes, query)
    steps = [int(s) for s in args.steps.split(",")]
    for rows in steps + steps:
        dense.SCAN_ROWS = rows
        spent = []
        for _ in range(15):
            start = time.thread_time()
            found = dense.hamming(codes, query)
            spent.append(time.thread_time() - start)
        assert (found == reference).all()
        print(f"SCAN_ROWS {rows:>6}: {sorted(spent)[len(spent) // 2] * 1000:7.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
