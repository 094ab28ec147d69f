"""Build a SentencePiece ``precompiled_charsmap`` from a code-point table.

The Hugging Face ``Precompiled`` normalizer (the one XLM-R's own
``tokenizer.json`` uses) reads this binary format: a little-endian u32 with
the trie's size in bytes, the trie as a darts-clone double array of u32
units, then the replacement strings, each ending in NUL. A trie key is the
UTF-8 of a code point; its value is the byte offset of its replacement.

Unit layout (darts-clone): bits 0-7 label, bit 8 "has a leaf child", bit 9
"offset is shifted by 8", bits 10-31 offset; a leaf unit has bit 31 set and
the value in bits 0-30. A child of the node at ``p`` with label ``c`` lives at
``p ^ offset(unit[p]) ^ c``; the leaf (label 0) at ``p ^ offset(unit[p])``.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Mapping

import numpy as np

_LEAF = 1 << 31
_HAS_LEAF = 1 << 8
_MAX_OFFSET = 1 << 21
_GROW = 1 << 16
_WINDOW = 1024


class _Node:
    __slots__ = ("children", "value")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.value: int | None = None


def build_charsmap(table: Mapping[int, str]) -> bytes:
    """The raw charsmap for ``code point -> replacement`` (empty deletes it)."""
    root = _Node()
    normalized = bytearray()
    for code_point in sorted(table):
        node = root
        for byte in chr(code_point).encode("utf-8"):
            node = node.children.setdefault(byte, _Node())
        node.value = len(normalized)
        normalized += table[code_point].encode("utf-8") + b"\0"
    units = _DoubleArray().build(root)
    trie = np.asarray(units, dtype="<u4").tobytes()
    return struct.pack("<I", len(trie)) + trie + bytes(normalized)


def charsmap_base64(table: Mapping[int, str]) -> str:
    """The form ``tokenizer.json`` stores (``precompiled_charsmap``)."""
    return base64.b64encode(build_charsmap(table)).decode("ascii")


class _DoubleArray:
    """First-fit placement: each node gets a unique base whose child slots are free.

    Unique bases are what keep lookups exact: a unit's label only names its
    byte, so two nodes sharing a base could read each other's children.
    """

    def __init__(self) -> None:
        self.units = np.zeros(_GROW, dtype=np.uint32)
        self.used = np.zeros(_GROW, dtype=bool)
        self.used[0] = True  # the root
        self.base_used = np.zeros(_GROW, dtype=bool)
        self.first_free = 1
        self.end = 1
        self.resume: dict[int, int] = {}

    def build(self, root: _Node) -> list[int]:
        pending = [(0, root)]
        while pending:
            position, node = pending.pop()
            labels = sorted(node.children)
            if node.value is not None:
                labels = [0, *labels]
            if not labels:
                continue
            base = self._place(np.array(labels, dtype=np.int64))
            offset = position ^ base
            if offset >= _MAX_OFFSET:
                raise ValueError("charsmap too large for unshifted darts offsets")
            self.units[position] |= offset << 10
            if node.value is not None:
                self.units[position] |= _HAS_LEAF
                self.units[base] = _LEAF | node.value
            for label, child in node.children.items():
                self.units[base ^ label] = label
                pending.append((base ^ label, child))
        # Lookups index ``base ^ byte`` for any byte without a bounds check
        # (spm_precompiled), so every 256-slot block a base touches must exist.
        size = self.end + (-self.end % 256)
        return [int(u) for u in self.units[:size]]

    def _place(self, labels: np.ndarray) -> int:
        """The smallest free base, searched a window of candidates at a time."""
        # Nodes with many children rarely fit where small ones left gaps: each
        # size class resumes where its last placement was (darts does similar).
        size_class = min(len(labels).bit_length(), 6)
        start = max(self.first_free, self.resume.get(size_class, 0))
        low = start ^ int(labels[0])
        while True:
            candidates = np.arange(max(low & ~255, 0), (low & ~255) + _WINDOW)
            self._ensure(int(candidates[-1]) | 255)
            slots = candidates[:, None] ^ labels[None, :]
            fits = ~self.used[slots].any(axis=1) & ~self.base_used[candidates]
            fits &= (slots != 0).all(axis=1)
            hits = np.flatnonzero(fits)
            if hits.size:
                base = int(candidates[hits[0]])
                break
            low = int(candidates[-1]) + 1
        self.base_used[base] = True
        self.resume[size_class] = base & ~255
        claimed = base ^ labels
        self.used[claimed] = True
        self.end = max(self.end, int(claimed.max()) + 1)
        while self.used[self.first_free]:
            self.first_free += 1
            self._ensure(self.first_free)
        return base

    def _ensure(self, position: int) -> None:
        if position < len(self.used):
            return
        grow = max(_GROW, position + 1 - len(self.used))
        self.used = np.concatenate([self.used, np.zeros(grow, dtype=bool)])
        self.base_used = np.concatenate([self.base_used, np.zeros(grow, dtype=bool)])
        self.units = np.concatenate([self.units, np.zeros(grow, dtype=np.uint32)])
