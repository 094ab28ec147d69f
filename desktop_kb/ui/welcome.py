"""The note a new library opens with, in the UI language (created once: ``ui.welcome_created``)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def welcome_note() -> tuple[str, str]:
    title = QCoreApplication.translate("Welcome", "Welcome to Desktop KB")
    body = QCoreApplication.translate("Welcome", """# Welcome to Desktop KB

Everything stays on this computer. Write in Chinese, English or both — 中英文混写也可以。

## The three panes

1. **Notes** — this editor. Notes save themselves about a second after you stop typing; Ctrl+S saves at once.
2. **Ask the library** (View menu, Ctrl+Shift+A) — ask questions about your notes and imported material and get answers with numbered citations; nothing leaves this computer unless you switch cloud answering on and approve what is sent.
3. **Related material** — beside the editor: related notes and passages with the reason for each; nothing is linked until you click ✓.

## Try this

- **Ctrl+K** searches everything as you type; Enter opens the hit, highlighted.
- Type **[[** to link to another note (Ctrl+click follows it); write **#tags** to group notes in the tag pane.
- **File → Import folder…** (or drop files on the window) brings in Markdown and text, PDF, Word, EPUB, saved web pages and source code.
- The lock button marks a note *local only*: it never leaves this computer.
- The status bar shows whether the search index is up to date; click it for details.
""")
    return title, body
