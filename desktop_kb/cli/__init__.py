"""``desktop-kb`` command line. Shares the core with the GUI; no command opens the GUI.

Layout: :mod:`.entry` builds the parser from a registry of command modules (one per
command group: :mod:`.notes`, :mod:`.imports`, :mod:`.search`, :mod:`.ask`, …);
:mod:`.common` opens the library and maps errors to one line on stderr;
:mod:`.output` is the only module that prints, and strips terminal control
sequences from everything that came from the library, a file or a provider.
"""

from desktop_kb.cli.entry import build_parser, main

__all__ = ["build_parser", "main"]
