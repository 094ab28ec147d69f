"""Many processes, one library (I12): measured, never asserted.

Run from the repository root::

    .venv/bin/python benchmarks/bench_xproc.py [--notes 10000] [--files 1500] [--json]

1. save → searchable while a CLI import runs: this process plays the app (it
   owns the index writer); it saves notes one at a time and polls search until
   each is found. First alone (the baseline), then while ``desktop-kb import``
   of ``--files`` Markdown files runs in another process (its writes reach the
   index through the change feed, indexed by this process). Reported: p50/p95
   and the ratio to the baseline from the same run.
2. detect and repair after kill -9 on a ``--notes`` library: a child process
   owning the index is killed in the middle of (a) saving notes, (b) an
   import, (c) a rebuild; the figure is the time from opening the library in
   a fresh process to the status being "ok" with zero drift (catch-up from the
   feed, resumed rebuild, and the verify an unclean exit calls for), next to
   the time a plain verify of the same library takes (the baseline: what
   detection costs without the feed).

Everything happens in a throw-away data folder.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from measure import percentile  # noqa: E402

from desktop_kb.library import Library  # noqa: E402

SAVES = 40
FOUND_TIMEOUT_S = 30.0
_ZH = ["学习", "笔记", "安装", "配置", "数据库", "索引", "搜索", "中文", "分词", "向量"]
_EN = ["docker", "gitlab", "runner", "install", "configure", "index", "search", "python"]


def text(i: int, n: int = 200) -> str:
    words = [(_ZH[(i * 7 + k) % len(_ZH)] if k % 3 else _EN[(i + k) % len(_EN)]) for k in range(n // 4)]
    return " ".join(words)[:n]


def fill(lib: Library, notes: int) -> list[int]:
    lib.store.execute("PRAGMA synchronous = OFF")  # setup speed only
    ids = [lib.add_note(f"笔记 {i}", text(i)) for i in range(notes)]
    lib.store.execute("PRAGMA synchronous = FULL")
    assert lib.drain(600)
    return ids


def make_folder(root: Path, files: int) -> Path:
    folder = root / "import-me"
    folder.mkdir()
    for i in range(files):
        (folder / f"f{i:05d}.md").write_text(
            f"# 文件 {i}\n\n{text(i, 600)}\n\n## 第二节\n\n{text(i + 1, 600)}\n", encoding="utf-8")
    return folder


def save_latencies(lib: Library, ids: list[int], stop: threading.Event | None = None) -> list[float]:
    out: list[float] = []
    for k in range(SAVES):
        if stop is not None and stop.is_set():
            break
        marker = f"zq{uuid.uuid4().hex[:10]}"
        note_id = ids[k % len(ids)]
        t0 = time.perf_counter()
        lib.save_note(note_id, body=f"{text(k)} {marker}")
        while True:
            if any(r.source_id == note_id for r in lib.search(marker, mode="lexical").results):
                break
            if time.perf_counter() - t0 > FOUND_TIMEOUT_S:
                raise RuntimeError(f"note {note_id} not searchable after {FOUND_TIMEOUT_S}s")
            time.sleep(0.002)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def bench_save_during_import(root: Path, files: int) -> dict[str, Any]:
    data_dir = root / "save-lib"
    folder = make_folder(root, files)
    with Library(data_dir, role="app", load_model=False) as lib:
        ids = fill(lib, 500)
        alone = save_latencies(lib, ids)
        cmd = [sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), "import", str(folder),
               "--json"]
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                cwd=REPO_ROOT)
        time.sleep(1.0)  # let the import get going (its start-up imports jieba)
        during = save_latencies(lib, ids)
        out, err = proc.communicate(timeout=1800)
        import_s = time.perf_counter() - started
        if proc.returncode != 0:
            raise RuntimeError(err)
        assert lib.drain(600)
        drift = lib.verify(repair=False).drift
    return {
        "files": files, "import_seconds": round(import_s, 2),
        "import_added": json.loads(out)["added"],
        "alone_p50_ms": round(statistics.median(alone), 1),
        "alone_p95_ms": round(percentile(alone, 95), 1),
        "during_import_p50_ms": round(statistics.median(during), 1),
        "during_import_p95_ms": round(percentile(during, 95), 1),
        "p95_ratio": round(percentile(during, 95) / percentile(alone, 95), 2),
        "drift_after": drift,
    }


CHILD = """
import sys, threading
from pathlib import Path
from desktop_kb.library import Library
from desktop_kb.progress import Progress
data_dir, what, folder = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
lib = Library(data_dir, role="app", load_model=False)
lib.drain(600)
print("READY", flush=True)
if what == "saves":
    i = 0
    while True:
        lib.add_note(f"kill {i}", f"saved before the kill zqkill{i}")
        i += 1
        if i == 200:
            print("GO", flush=True)
elif what == "import":
    def tick(label, done, maximum):
        if done == 100:
            print("GO", flush=True)
    lib.import_paths([Path(folder)], progress=Progress(tick))
elif what == "rebuild":
    def tick(label, done, maximum):
        if done >= maximum // 3:
            print("GO", flush=True)
    lib.rebuild(Progress(tick))
threading.Event().wait()
"""


def bench_repair_after_kill(root: Path, notes: int, files: int) -> dict[str, Any]:
    data_dir = root / "kill-lib"
    src = root / "kill-src"
    src.mkdir()
    folder = make_folder(src, min(files, 600))
    with Library(data_dir, load_model=False) as lib:
        fill(lib, notes)
        t0 = time.perf_counter()
        lib.verify(repair=False)
        verify_s = time.perf_counter() - t0
    results: dict[str, Any] = {"notes": notes, "plain_verify_seconds": round(verify_s, 2)}
    for what in ("saves", "import", "rebuild"):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(data_dir), what, str(folder)],
                                 stdout=subprocess.PIPE, text=True, cwd=REPO_ROOT)
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("GO"):
                break
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        t0 = time.perf_counter()
        with Library(data_dir, load_model=False) as lib:
            opened = time.perf_counter() - t0
            before = lib.index_status().state
            if lib.startup_rebuild is not None:
                lib.startup_rebuild.result()
            if lib.worker.startup_verify is not None:
                lib.worker.startup_verify.result()
            assert lib.drain(900)
            status = lib.index_status()
            repaired = time.perf_counter() - t0
            drift = lib.verify(repair=False).drift
        results[f"kill_during_{what}"] = {
            "state_on_open": before, "open_seconds": round(opened, 2),
            "to_ok_seconds": round(repaired, 2), "state_after": status.state, "drift_after": drift,
            "ratio_to_plain_verify": round(repaired / verify_s, 2) if verify_s else None,
        }
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=1500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-xproc-") as tmp:
        root = Path(tmp)
        report = {
            "machine": {"cpus": os.cpu_count(), "load_1min": os.getloadavg()[0]},
            "save_during_import": bench_save_during_import(root, args.files),
            "repair_after_kill": bench_repair_after_kill(root, args.notes, args.files),
        }
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        s = report["save_during_import"]
        print(f"save → searchable: alone p50 {s['alone_p50_ms']} ms, p95 {s['alone_p95_ms']} ms; "
              f"during a {s['files']}-file CLI import p50 {s['during_import_p50_ms']} ms, "
              f"p95 {s['during_import_p95_ms']} ms (p95 ratio {s['p95_ratio']}); drift after {s['drift_after']}")
        r = report["repair_after_kill"]
        print(f"{r['notes']} notes; plain verify {r['plain_verify_seconds']} s")
        for what in ("saves", "import", "rebuild"):
            k = r[f"kill_during_{what}"]
            print(f"  kill -9 during {what}: state on open {k['state_on_open']}, ok after "
                  f"{k['to_ok_seconds']} s ({k['ratio_to_plain_verify']}× a plain verify), "
                  f"drift after {k['drift_after']}")
        print(f"(load average {report['machine']['load_1min']:.1f} on {report['machine']['cpus']} cpus)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
