"""How soon the window shows what another process wrote (issue 11: "within 2 s"): measured.

Run from the repository root (no display needed)::

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_follow.py [--writes 20]

The app's window is opened on a throw-away library; another process (a
``desktop-kb``-style script holding the library open, like a long import)
adds and then edits notes one at a time. For each write the figure is the time
from the moment the other process's transaction committed to the moment the
window's note list holds the new row (an add) or the open note shows the new
text (an edit). Reported: p50 / p95 / max in milliseconds, next to the
watcher's poll interval. Each write follows right after the window noticed the
previous one, i.e. just after a poll, so the figures sit near the worst case of
one poll interval (a write at a random moment waits half of it on average).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from measure import percentile  # noqa: E402

WRITER = r"""
import json, sys, time
from pathlib import Path
from desktop_kb.library import Library
lib = Library(Path(sys.argv[1]), role="cli", load_model=False)
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if req["op"] == "quit":
        break
    if req["op"] == "add":
        note_id = lib.add_note(req["title"], req["body"])
    else:
        note_id = req["id"]
        lib.save_note(note_id, body=req["body"])
    print(json.dumps({"id": note_id, "committed": time.time()}), flush=True)
lib.close()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writes", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from PySide6.QtWidgets import QApplication

    from desktop_kb.tasks.library_watcher import POLL_MS
    from desktop_kb.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv)

    def wait(cond, timeout: float = 30.0) -> float:  # noqa: ANN001 - a predicate
        deadline = time.time() + timeout
        while not cond():
            if time.time() > deadline:
                raise TimeoutError("the window did not follow within 30 s")
            app.processEvents()
            time.sleep(0.002)
        return time.time()

    with tempfile.TemporaryDirectory(prefix="bench-follow-") as tmp:
        data_dir = Path(tmp) / "library"
        window = MainWindow(data_dir, open_now=False)
        window.resize(1280, 800)
        window.show()
        window.open_library()
        wait(lambda: window.library is not None and window.editor.note_id is not None)
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(data_dir)], cwd=REPO_ROOT,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  encoding="utf-8")
        assert writer.stdin is not None and writer.stdout is not None
        hello = writer.stdout.readline()
        assert hello.startswith("{"), hello

        def write(**req: object) -> dict:
            writer.stdin.write(json.dumps(req, ensure_ascii=False) + "\n")
            writer.stdin.flush()
            return json.loads(writer.stdout.readline())

        adds: list[float] = []
        edits: list[float] = []
        open_id = window.editor.note_id
        for i in range(args.writes):
            done = write(op="add", title=f"外部 {i}", body=f"written elsewhere zqfollow{i}")
            seen = wait(lambda nid=done["id"]: nid in window.note_list.model.ids())
            adds.append((seen - done["committed"]) * 1000)
            text = f"edited elsewhere {i} 外部修改"
            done = write(op="edit", id=open_id, body=text)
            seen = wait(lambda t=text: window.editor.body.toPlainText() == t)
            edits.append((seen - done["committed"]) * 1000)
        writer.stdin.write(json.dumps({"op": "quit"}) + "\n")
        writer.stdin.close()
        writer.wait(30)
        window.close()

    def summary(values: list[float]) -> dict[str, float]:
        return {"p50_ms": round(statistics.median(values)), "p95_ms": round(percentile(values, 95)),
                "max_ms": round(max(values))}

    result = {"writes": args.writes, "poll_ms": POLL_MS, "note_added": summary(adds),
              "open_note_edited": summary(edits)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"poll interval {POLL_MS} ms; {args.writes} writes each")
        for key in ("note_added", "open_note_edited"):
            s = result[key]
            print(f"{key:18} p50 {s['p50_ms']} ms  p95 {s['p95_ms']} ms  max {s['max_ms']} ms")


if __name__ == "__main__":
    main()
