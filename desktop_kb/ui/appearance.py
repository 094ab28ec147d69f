"""Appearance: light or dark (following the system unless chosen), the writing font and size,
and a readable line width — View → Appearance, remembered per library in ui.ini.

Dark mode sets a dark palette on the application (Fusion draws from it on every
platform, whatever the desktop offers) plus a few stylesheet colours that were
chosen for light backgrounds; the editor's Markdown colours switch with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QKeySequence,
    QPalette,
)
from PySide6.QtWidgets import QApplication, QFontDialog, QMenu

from desktop_kb.ui import icons

if TYPE_CHECKING:
    from desktop_kb.ui.main_window import MainWindow

THEMES = ("system", "light", "dark")
DEFAULT_MAX_CHARS = 80  # Latin characters per line; CJK text runs about half as many, as it should
MIN_SIZE, MAX_SIZE = 8.0, 28.0

DARK_QSS = """
QFrame#undoBar { background: #4a3f1e; border: 1px solid #7a6a2e; }
QLabel#degradedNotice { color: #e0c060; }
QLabel#suggestionReason { color: #b0b0b0; }
QLabel#paneHeader, QLabel#emptyHint, QLabel#searchEmpty { color: #a8a8a8; }
QLabel#meaningSearchOn, QLabel#keyringStatusOk { color: #6fbf73; }
QLabel#meaningSearchOn[loading="true"] { color: palette(window-text); }
QLabel#keyringStatusBad { color: #ff8a80; }
QLabel#localOnlyReason { color: #e0b050; }
QToolButton:focus { border: 1px solid #7fb0ea; border-radius: 3px; }
QListWidget#searchResults::item:selected { background: #2d4a6b; }
QLineEdit#findQuery[notFound="true"] { background: #5a2a2a; }
QFrame#nearDuplicate { border-color: #8a7430; }
"""


_SYSTEM_PALETTE: QPalette | None = None


@dataclass
class Appearance:
    theme: str = "system"
    font_family: str = ""  # "" = the system's font
    font_size: float = 0.0  # points; 0 = a little larger than the system's
    max_chars: int = DEFAULT_MAX_CHARS  # 0 = lines as wide as the window


def system_prefers_dark() -> bool:
    hints = QGuiApplication.styleHints()
    if hints.colorScheme() != Qt.ColorScheme.Unknown:
        return hints.colorScheme() == Qt.ColorScheme.Dark
    # The desktop's own palette, not the application's: after View → Appearance → Dark the
    # application's palette is ours, and "Follow the system" read it and stayed dark.
    palette = _SYSTEM_PALETTE if _SYSTEM_PALETTE is not None else QApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def dark_palette() -> QPalette:
    p = QPalette()
    colours = {
        QPalette.ColorRole.Window: "#2b2b2b", QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1f1f1f", QPalette.ColorRole.AlternateBase: "#292929",
        QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#333333",
        QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.ToolTipBase: "#333333",
        QPalette.ColorRole.ToolTipText: "#e6e6e6", QPalette.ColorRole.Highlight: "#3d6ea8",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.Link: "#7fb0ea",
        QPalette.ColorRole.PlaceholderText: "#8c8c8c", QPalette.ColorRole.Mid: "#4a4a4a",
        QPalette.ColorRole.Midlight: "#3a3a3a", QPalette.ColorRole.Dark: "#a0a0a0",
        QPalette.ColorRole.Light: "#505050", QPalette.ColorRole.Shadow: "#000000",
        QPalette.ColorRole.BrightText: "#ff6b6b",
    }
    for role, colour in colours.items():
        p.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return p


class AppearanceController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.appearance = self._load()
        global _SYSTEM_PALETTE
        if _SYSTEM_PALETTE is None:  # the desktop's own palette, before any theme of ours
            _SYSTEM_PALETTE = QPalette(QApplication.palette())
        self._light_palette = _SYSTEM_PALETTE
        self.menu = QMenu(window)
        self.theme_group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        for theme in THEMES:
            act = QAction(self.menu, checkable=True)
            act.triggered.connect(lambda _c=False, t=theme: self.set_theme(t))
            self.theme_group.addAction(act)
            self.menu.addAction(act)
            self.theme_actions[theme] = act
        self.menu.addSeparator()
        self.act_font = QAction(self.menu)
        self.act_font.triggered.connect(self.choose_font)
        self.act_bigger = QAction(self.menu)
        self.act_bigger.setShortcuts([QKeySequence(QKeySequence.StandardKey.ZoomIn), QKeySequence("Ctrl+=")])
        self.act_bigger.triggered.connect(lambda: self.step_size(1))
        self.act_smaller = QAction(self.menu)
        self.act_smaller.setShortcuts([QKeySequence(QKeySequence.StandardKey.ZoomOut)])
        self.act_smaller.triggered.connect(lambda: self.step_size(-1))
        self.act_reset = QAction(self.menu)
        self.act_reset.setShortcut(QKeySequence("Ctrl+0"))
        self.act_reset.triggered.connect(self.reset_font)
        self.act_width = QAction(self.menu, checkable=True)
        self.act_width.toggled.connect(self.set_readable_width)
        for act in (self.act_font, self.act_bigger, self.act_smaller, self.act_reset, None, self.act_width):
            self.menu.addSeparator() if act is None else self.menu.addAction(act)
        for act in (self.act_bigger, self.act_smaller, self.act_reset):
            window.addAction(act)
        QGuiApplication.styleHints().colorSchemeChanged.connect(lambda _s: self.apply())
        self.apply()
        self.retranslateUi()

    # ----- state ----------------------------------------------------------------------------

    def _load(self) -> Appearance:
        state = self.window.state
        theme = state.text("appearance/theme", "system")
        try:
            size = float(state.text("appearance/font_size", "0") or 0)
        except ValueError:
            size = 0.0
        max_chars = state.int("appearance/max_chars")
        return Appearance(theme if theme in THEMES else "system", state.text("appearance/font_family", ""),
                          size, DEFAULT_MAX_CHARS if max_chars is None else max(0, max_chars))

    def _save(self) -> None:
        a, state = self.appearance, self.window.state
        state.set("appearance/theme", a.theme)
        state.set("appearance/font_family", a.font_family)
        state.set("appearance/font_size", a.font_size)
        state.set("appearance/max_chars", a.max_chars)

    @property
    def dark(self) -> bool:
        theme = self.appearance.theme
        return theme == "dark" or (theme == "system" and system_prefers_dark())

    def font(self) -> QFont:
        font = QFont(QApplication.font())
        if self.appearance.font_family:
            font.setFamily(self.appearance.font_family)
        base = max(font.pointSizeF(), 10.5) + 1
        font.setPointSizeF(self.appearance.font_size or base)
        return font

    # ----- applying -------------------------------------------------------------------------

    def apply(self) -> None:
        window, dark = self.window, self.dark
        app = QApplication.instance()
        if isinstance(app, QApplication):
            if self.appearance.theme != "system":
                QGuiApplication.styleHints().setColorScheme(Qt.ColorScheme.Dark if dark else Qt.ColorScheme.Light)
            else:
                QGuiApplication.styleHints().unsetColorScheme()
            app.setPalette(dark_palette() if dark else self._light_palette)
        window.setStyleSheet(icons.stylesheet() + (DARK_QSS if dark else ""))
        window.editor.highlighter.set_dark(dark)
        window.editor.rehighlight()
        font = self.font()
        width = QFontMetricsF(font).averageCharWidth() * self.appearance.max_chars
        window.editor.set_typography(font, round(width))
        for theme, act in self.theme_actions.items():
            act.setChecked(theme == self.appearance.theme)
        self.act_width.blockSignals(True)
        self.act_width.setChecked(self.appearance.max_chars > 0)
        self.act_width.blockSignals(False)

    def set_theme(self, theme: str) -> None:
        self.appearance.theme = theme if theme in THEMES else "system"
        self._save()
        self.apply()

    def step_size(self, step: int) -> None:
        size = self.font().pointSizeF() + step
        self.appearance.font_size = min(MAX_SIZE, max(MIN_SIZE, size))
        self._save()
        self.apply()

    def reset_font(self) -> None:
        self.appearance.font_size = 0.0
        self.appearance.font_family = ""
        self._save()
        self.apply()

    def choose_font(self) -> None:
        ok, font = QFontDialog.getFont(self.font(), self.window, self.tr("Editor font"))
        if isinstance(ok, QFont):  # PySide returns (font, ok) on some versions
            ok, font = font, ok
        if ok:
            self.appearance.font_family = font.family()
            self.appearance.font_size = font.pointSizeF()
            self._save()
            self.apply()

    def set_readable_width(self, on: bool) -> None:
        self.appearance.max_chars = DEFAULT_MAX_CHARS if on else 0
        self._save()
        self.apply()

    def retranslateUi(self) -> None:  # noqa: N802
        self.menu.setTitle(self.tr("A&ppearance"))
        texts = {"system": self.tr("Follow the &system (light or dark)"), "light": self.tr("&Light"),
                 "dark": self.tr("&Dark")}
        for theme, act in self.theme_actions.items():
            act.setText(texts[theme])
        self.act_font.setText(self.tr("Editor &font…"))
        self.act_bigger.setText(self.tr("&Bigger text"))
        self.act_smaller.setText(self.tr("S&maller text"))
        self.act_reset.setText(self.tr("Default te&xt size"))
        self.act_width.setText(self.tr("Readable line &width"))


def install_appearance(window: MainWindow) -> AppearanceController:
    return AppearanceController(window)
