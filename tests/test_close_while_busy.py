"""What a command says when it ends while its index worker is busy.

`desktop-kb index status` (or any command) printed 'the index worker did not stop within 10.0 s'
on a loaded machine: once while a model load it then waited for ended cleanly (nothing to say),
and whenever a step that cannot be cut short outlasted the wait (a person is owed what that
means: nothing is lost, the rest is done next time). Real processes; the worker's stop wait is
made short instead of the machine slow.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from desktop_kb.library import WORKER_LEFT_MESSAGE, Library

SHORT_STOP = "from desktop_kb.index.worker import IndexWorker\nIndexWorker.stop.__defaults__ = (0.05,)\n"

CLOSE_WHILE_LOADING = SHORT_STOP + textwrap.dedent("""
    import sys, threading
    from pathlib import Path
    from desktop_kb.embed.manager import ModelManager
    from desktop_kb.library import Library

    entered = threading.Event()
    real = ModelManager.load_engine

    def load_engine(self, *args, **kwargs):
        entered.set()
        return real(self, *args, **kwargs)

    ModelManager.load_engine = load_engine
    lib = Library(Path(sys.argv[1]), models_dir=Path(sys.argv[2]))
    assert entered.wait(120)
    lib.close()
    print("closed", lib.model_ready.done(), flush=True)
""")

CLOSE_WHILE_STEPPING = SHORT_STOP + textwrap.dedent("""
    import sys, threading, time
    from pathlib import Path
    from desktop_kb.library import Library

    lib = Library(Path(sys.argv[1]), load_model=False)
    inside = threading.Event()

    def long_step(_conn):  # a step the worker cannot cut short (a whole-index check)
        inside.set()
        time.sleep(5)

    lib.worker.call(long_step)
    assert inside.wait(60)
    lib.close()
    print("closed", flush=True)
""")


def run(script: str, *args: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True,
                          text=True, timeout=300, cwd=Path(__file__).parents[1])


def test_closing_while_the_model_loads_says_nothing_when_it_then_ends(
        data_dir: Path, default_model_root: Path) -> None:
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("所有权", "Rust 的所有权规则")
        assert lib.drain(60)
    done = run(CLOSE_WHILE_LOADING, data_dir, default_model_root / "models")
    assert done.returncode == 0 and done.stdout.strip() == "closed True", done.stderr[-2000:]
    assert "did not stop" not in done.stderr and WORKER_LEFT_MESSAGE not in done.stderr, done.stderr


def test_closing_inside_a_step_that_outlasts_the_wait_says_what_it_means(data_dir: Path) -> None:
    done = run(CLOSE_WHILE_STEPPING, data_dir)
    assert done.returncode == 0 and done.stdout.strip() == "closed", done.stderr[-2000:]
    assert "did not stop" not in done.stderr, done.stderr
    assert done.stderr.strip() == WORKER_LEFT_MESSAGE, done.stderr
