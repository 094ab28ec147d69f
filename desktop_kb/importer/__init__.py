"""Importing study material: finding files, reading them, splitting them into fragments.

This half is pure (no store access), so it can be tested and benchmarked alone.
"""

from desktop_kb.importer.files import (
    Candidate,
    Skipped,
    UnreadableFile,
    iter_candidates,
    read_text,
    sha256_bytes,
)
from desktop_kb.importer.formats import (
    DEFAULT_FORMATS,
    FragmentSpec,
    SplitResult,
    format_of,
    split_document,
)

__all__ = [
    "DEFAULT_FORMATS", "Candidate", "FragmentSpec", "Skipped", "SplitResult", "UnreadableFile",
    "format_of", "iter_candidates", "read_text", "sha256_bytes", "split_document",
]
