"""A library whose passages share a long note's rare words only by chance.

Twenty made-up words, each in twelve of 300 passages spread by arithmetic, so about one
passage in five holds two of them with nothing else in common; one more passage is about
them all (it holds eight). A long note that lists all twenty shares two words with dozens of
passages — what the welcome note did with the Rust book ("ctrl" and "标签" in a passage on
loops) — and only the one passage shares what the note is about.
"""

from __future__ import annotations

from pathlib import Path

RARE = ["Quorvex", "Blintham", "Zeltrap", "Mervane", "Dostrel", "Fannick", "Gorblin", "Hestovar",
        "Jiplock", "Korventa", "Lumbrake", "Nostrav", "Pendrill", "Qualtorn", "Rivvet", "Sarnobel",
        "Tibbrook", "Ulvanter", "Wexmoor", "Yarrowind"]
PASSAGES = 300
PER_WORD = 12
ABOUT = "About them all"  # the heading of the one passage that shares eight of the words


def scattered_words_book(folder: Path) -> Path:
    """One Markdown file: 300 short sections plus the one about the words."""
    holds: dict[int, list[str]] = {}
    for i, word in enumerate(RARE):
        for j in range(PER_WORD):
            holds.setdefault((i * 7 + j * 23) % PASSAGES, []).append(word)
    parts = ["# Scattered words\n"]
    for p in range(PASSAGES):
        words = " ".join(holds.get(p, []))
        parts.append(f"## Section {p}\n\nSection {p} counts parcel {p * 13 % 97} twice. {words}\n")
    parts.append(f"## {ABOUT}\n\n" + ", ".join(RARE[:8]) + " belong together in one list.\n")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "scattered.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def long_note() -> tuple[str, str]:
    """A note that names all twenty words, as the person wrote them."""
    return "Word list", "Today I wrote down " + ", ".join(RARE) + "."
