"""How fast the standalone bundle starts: wall time of ``desktop-kb --self-check``.

    python benchmarks/bench_bundle_start.py dist/desktop-kb [--runs 5]

``make dist-check`` runs the self-check once, as a check; the start-time figure
is measured here, several runs in the same bare environment (the first run
also pays the cold page cache, so it is reported apart from the rest).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

from check_bundle import CheckFailed, bare_env, self_check  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("bundle", type=Path, nargs="?", default=ROOT / "dist" / "desktop-kb")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    exe = args.bundle.resolve() / ("desktop-kb.exe" if sys.platform == "win32" else "desktop-kb")
    if not exe.is_file():
        print(f"{exe} does not exist; run `make dist` first", file=sys.stderr)
        return 1
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-bundle-start-") as tmp:
        env = bare_env(Path(tmp))
        try:
            for _ in range(max(2, args.runs)):
                t0 = time.perf_counter()
                self_check(exe, env)
                times.append(time.perf_counter() - t0)
        except CheckFailed as exc:
            print(f"self-check FAILED: {exc}", file=sys.stderr)
            return 1
    warm = times[1:]
    print(f"bundle self-check wall time: first {times[0]:.2f} s; then min {min(warm):.2f} s, "
          f"median {statistics.median(warm):.2f} s over {len(warm)} runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
