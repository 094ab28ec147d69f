"""UI language: Qt translators loaded from committed ``.qm`` files.

Installing a translator makes Qt send ``QEvent.LanguageChange`` to every
widget, and each window answers with ``retranslateUi()`` — so switching the
language needs no restart. English is the source language: its file (desktop_kb_en) holds
only the singular and plural forms of counts, written by tools/english_plurals.py.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from desktop_kb.assets import RESOURCES, TRANSLATIONS  # noqa: F401 - re-exported for ui modules
from desktop_kb.store.settings import UI_LANGUAGES

LANGUAGES = UI_LANGUAGES
SYSTEM = "system"

_installed: list[QTranslator] = []
_current = "en"


def resolve_language(choice: str | None) -> str:
    """``None``/``"system"`` follow the system locale; anything unknown falls back to English."""
    if choice in LANGUAGES:
        return choice
    for name in QLocale.system().uiLanguages():
        name = name.replace("-", "_")
        if name.startswith("zh"):
            return "zh_CN"  # Traditional script readers still get Chinese over English
        if name.startswith("en"):
            return "en"
    return "en"


def current_language() -> str:
    return _current


def install_language(choice: str | None) -> str:
    """Swap the app's translators; returns the language now in effect."""
    global _current
    app = QCoreApplication.instance()
    language = resolve_language(choice)
    if app is None:
        return language
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    # English is the source language, but its plurals need a file too: without it a count
    # read "%n source(s)" as "1 source(s)".
    stems = ["desktop_kb_en"] if language == "en" else [f"desktop_kb_{language}", f"qtbase_{language}"]
    for stem in stems:
        translator = QTranslator(app)
        if _load(translator, stem):
            app.installTranslator(translator)
            _installed.append(translator)
    _current = language
    return language


def _load(translator: QTranslator, stem: str) -> bool:
    if translator.load(stem, str(TRANSLATIONS)):
        return True
    from PySide6.QtCore import QLibraryInfo

    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    return translator.load(stem, qt_dir)

