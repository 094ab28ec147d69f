"""Memory a one-off load frees goes back to the system (desktop_kb/freed_memory.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")

# A child process frees 40 MB of 1 kB blocks (from the C heap, as onnxruntime's parse of a
# model file is) while one block allocated after them keeps the heap's top in use, so
# glibc's own trimming at the top cannot return them.
_CHILD = textwrap.dedent("""
    import sys

    from desktop_kb.freed_memory import release_freed_memory

    def rss_mb():
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) / 1024

    blocks = [bytearray(1000) for _ in range(40_000)]
    pin = bytearray(1000)
    del blocks
    before = rss_mb()
    if sys.argv[1] == "release":
        release_freed_memory()
    print(before - rss_mb())
""")


def _returned_mb(how: str) -> float:
    out = subprocess.run([sys.executable, "-c", _CHILD, how], capture_output=True, text=True,
                         check=True, timeout=120)
    return float(out.stdout)


def test_memory_freed_inside_the_heap_goes_back_to_the_system() -> None:
    assert _returned_mb("keep") < 5  # glibc alone keeps it
    assert _returned_mb("release") > 30

