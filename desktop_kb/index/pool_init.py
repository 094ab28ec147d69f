"""Start-up of the rebuild's segmentation processes.

Kept tiny on purpose: a spawned process imports this module first, so it can
lower its own priority *before* the heavy imports (numpy, jieba's dictionary)
that would otherwise compete with the app's window for the CPU.
"""

from __future__ import annotations

import contextlib
import os


def lower_priority_and_warm_up() -> None:
    with contextlib.suppress(AttributeError, OSError):  # os.nice is not on every platform
        os.nice(10)
    from desktop_kb.index.segment import segment_for_index

    segment_for_index("预热")  # load jieba's dictionary now, not inside the first batch
