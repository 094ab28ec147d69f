"""One controller per window surface; :mod:`desktop_kb.ui.main_window` composes them.

A controller connects its widgets' signals, hands work to ``tasks/`` (the ordered note
queue or the task runner) and updates the widgets when results come back by signal.
It never touches the library on the GUI thread.
"""
