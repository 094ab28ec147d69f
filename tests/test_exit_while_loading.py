"""A command that ends while its embedding model is still loading.

Beside the app (which keeps the index) every command loads the model as well, and on a loaded
machine that takes longer than closing waits for the index worker (10 s): `desktop-kb index
status` printed its answer and then aborted — "terminate called without an active exception",
exit 134 — as the process exited while onnxruntime was building its session on that thread.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from desktop_kb.library import Library

# The model's load is slower than the worker's stop wait, as on a loaded machine: the wait is
# made short instead of the machine slow. The process closes the library at a moment inside
# the load and exits.
CLOSE_WHILE_LOADING = textwrap.dedent("""
    import sys, threading, time
    from pathlib import Path
    from desktop_kb.embed.manager import ModelManager
    from desktop_kb.index.worker import IndexWorker
    from desktop_kb.library import Library

    IndexWorker.stop.__defaults__ = (0.05,)
    entered = threading.Event()
    real = ModelManager.load_engine

    def load_engine(self, *args, **kwargs):
        entered.set()
        return real(self, *args, **kwargs)

    ModelManager.load_engine = load_engine
    lib = Library(Path(sys.argv[1]), models_dir=Path(sys.argv[2]))
    assert entered.wait(120)
    time.sleep(float(sys.argv[3]))
    lib.close()
    print("closed", lib.model_ready.done(), flush=True)
""")


def test_a_command_that_ends_while_its_model_loads_exits_cleanly(data_dir: Path, default_model_root: Path) -> None:
    models = default_model_root / "models"
    with Library(data_dir, models_dir=models, load_model=False) as lib:
        lib.add_note("所有权", "Rust 的所有权规则")
        assert lib.drain(60)
    for delay in ("0", "0.3", "0.6", "1.0", "1.5"):
        done = subprocess.run([sys.executable, "-c", CLOSE_WHILE_LOADING, str(data_dir), str(models), delay],
                              capture_output=True, text=True, timeout=300, cwd=Path(__file__).parents[1])
        assert done.returncode == 0, (delay, done.returncode, done.stderr[-2000:])
        assert "terminate called" not in done.stderr
        assert done.stdout.strip() == "closed True", (delay, done.stdout, done.stderr[-2000:])
