"""Side panes that share the right-hand dock area as tabs."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDockWidget


def raise_when_shown(dock: QDockWidget) -> None:
    """Shown from the View menu, a pane tabbed with others comes to the front.

    Its tab is added when the main window lays the dock out, after the toggle: raising
    at once left it behind the tab in front (View → Outline added an "Outline" tab
    and kept showing Ask the library).
    """
    dock.toggleViewAction().toggled.connect(lambda on: on and QTimer.singleShot(0, dock.raise_))
