"""One rule for when two titles name the same note: ``[[docker 安装]]`` finds "Docker  安装"."""

from __future__ import annotations

import unicodedata


def title_key(title: str) -> str:
    """NFKC, case-folded, inner whitespace collapsed: full-width letters and stray spaces match."""
    return " ".join(unicodedata.normalize("NFKC", title).casefold().split())
