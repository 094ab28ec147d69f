"""What the benchmarks measure the same way: percentiles, CPU time, memory, a plain
onnxruntime session, and the time the app spends inside onnxruntime.

Shared by ``bench_embed.py`` and ``bench_retrieval.py`` so both measure "raw
onnxruntime" and "the indexer's own share" alike.
"""

from __future__ import annotations

import resource
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile, ``q`` in [0, 100]; NaN for no values."""
    if not values:
        return float("nan")
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def cpu_seconds() -> float:
    """User + system CPU seconds of this process (every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def proc_memory(pid: str = "self") -> dict[str, float]:
    """VmRSS and VmHWM (peak) of a process in MB, from /proc/<pid>/status."""
    out: dict[str, float] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = round(int(rest.split()[0]) / 1024, 1)
    except OSError:
        pass
    return out


def raw_session(model_file: Path, threads: int, kind: str = "transformer") -> Any:
    """A plain onnxruntime session with the app's session options (threads,
    no spinning), so "raw" differs from the app only by what the app adds."""
    import onnxruntime as ort

    from desktop_kb.embed.engine import session_options

    options = session_options(threads)
    if kind == "string":  # USE tokenizes inside the graph with onnxruntime-extensions ops
        from onnxruntime_extensions import get_library_path

        options.register_custom_ops_library(get_library_path())
    return ort.InferenceSession(
        str(model_file), sess_options=options, providers=["CPUExecutionProvider"]
    )


class SessionRunTimer:
    """Wall seconds spent inside ``InferenceSession.run`` by any session, any thread.

    Instrumentation only: while the ``with`` block runs, ``run`` is wrapped, and
    calls are counted once ``counting`` is set (a benchmark sets it when the
    indexer reports that its model is loaded, so the model's warm-up is left out).
    """

    def __init__(self) -> None:
        self.seconds = 0.0
        self.counting = False
        self._lock = threading.Lock()
        self._real_run: Any = None

    def __enter__(self) -> SessionRunTimer:
        import onnxruntime as ort

        real_run = self._real_run = ort.InferenceSession.run
        timer = self

        def timed_run(session: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return real_run(session, *args, **kwargs)
            finally:
                if timer.counting:
                    with timer._lock:
                        timer.seconds += time.perf_counter() - started

        ort.InferenceSession.run = timed_run  # type: ignore[method-assign]
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        import onnxruntime as ort

        ort.InferenceSession.run = self._real_run  # type: ignore[method-assign]
