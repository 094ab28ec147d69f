"""Keep Python's full garbage collections short, so the GUI thread never waits on them.

A full (generation 2) collection walks every tracked object while holding the
GIL. Once jieba's dictionary and the app's modules are loaded that is several
hundred thousand objects — about 80 ms during which no thread, including the
GUI thread, runs. ``gc.freeze()`` moves what exists now into a permanent
generation that collections skip; these objects live as long as the app anyway.
"""

from __future__ import annotations

import gc

_frozen_times = 0
MAX_FREEZES = 3  # long-lived data is loaded in a few steps; more would only pin garbage


def freeze_long_lived_objects() -> bool:
    global _frozen_times
    if _frozen_times >= MAX_FREEZES:
        return False
    _frozen_times += 1
    gc.freeze()
    return True
