"""Entry script of the PyInstaller bundle (packaging/desktop-kb.spec).

``freeze_support`` comes first: the index worker's ``spawn`` pool re-runs this
executable for each worker process, and those runs must become workers, not a
second app.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from desktop_kb.cli import main

    sys.exit(main())
