"""The Qt binding keeps its references to None and True.

PySide6 6.12.0 returned None from every void call (``setText``, ``setVisible``,
``processEvents``) and True from every signal emit without taking a reference. From
Python 3.12 on those objects are immortal and nothing happens; on 3.11 each call
lowered their counts until the app died with "Fatal Python error: none_dealloc"
(or bool_dealloc) after about 20 minutes of ordinary use. pyproject.toml keeps that
binding off 3.11; this test says so if one comes back.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel
from test_gui_support import gui_marks

pytestmark = gui_marks()
CALLS = 2000


class _Emitter(QObject):
    fired = Signal(bool)


def test_void_calls_and_emits_leave_none_and_true_alone(qtbot) -> None:  # noqa: ANN001
    label = QLabel()
    qtbot.addWidget(label)
    emitter = _Emitter()
    seen: list[bool] = []
    emitter.fired.connect(seen.append)
    label.setText("warm")
    emitter.fired.emit(True)
    seen.clear()
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for i in range(CALLS):
        label.setText(str(i % 7))  # a void call
        emitter.fired.emit(True)  # an emit
    none_after, true_after = sys.getrefcount(None), sys.getrefcount(True)
    seen_true = len(seen)
    seen.clear()  # the list held a reference to True per emit
    true_after = sys.getrefcount(True)
    assert seen_true == CALLS
    # Other threads may take or drop a few references meanwhile; a binding that drops one
    # per call loses thousands.
    assert none_after >= none_before - CALLS // 10
    assert true_after >= true_before - CALLS // 10
