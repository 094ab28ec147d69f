"""Engine for transformer exports that come with a Hugging Face ``tokenizer.json``.

Covers the models people bring themselves (bge-small-zh-v1.5,
multilingual-e5-small, MiniLM exports): token ids in, per-token hidden states
out, pooled and normalised here so every export behaves the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from tokenizers import Encoding

from desktop_kb.embed.engine import (
    DEFAULT_BATCH_SIZE,
    ManifestEngine,
    ModelManifest,
    arena_release,
    empty_result,
    l2_normalize,
    session_options,
    token_batches,
)

_TOKEN_OUTPUTS = ("last_hidden_state", "token_embeddings")
_PAD_TOKENS = ("[PAD]", "<pad>", "<PAD>")

BATCH_TOKENS = 4096
"""Padded cells per batch (rows x longest row). Measured on multilingual-e5-small
int8, 2 threads, 800-character Chinese chunks: 2048-8192 are within noise of
each other; 4096 keeps the attention scores of a batch of 512-token rows
(8 x 12 heads x 512^2 floats) near 100 MB."""


class OnnxTransformerEngine(ManifestEngine):
    """Tokenizes with ``tokenizers``, runs onnxruntime, pools and normalises.

    Safe to call from two threads: ``run`` is thread-safe in onnxruntime and
    the tokenizer is configured once here and only read afterwards.
    """

    def __init__(
        self,
        model_path: Path,
        tokenizer_path: Path,
        manifest: ModelManifest,
        *,
        threads: int | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
    ) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        super().__init__(manifest)
        self._batch_size = max(1, batch_size)
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._configure_tokenizer()
        self._session = ort.InferenceSession(
            str(model_path),
            sess_options=session_options(threads),
            providers=["CPUExecutionProvider"],
        )
        self._inputs = {i.name: i.type for i in self._session.get_inputs()}
        for required in ("input_ids", "attention_mask"):
            if required not in self._inputs:
                raise ValueError(f"{model_path.name} has no {required!r} input")
        self._output, self._output_is_pooled = self._pick_output()
        if not self._output_is_pooled and manifest.pooling == "none":
            raise ValueError(f"{manifest.id}: per-token output needs pooling 'mean' or 'cls'")

    def _configure_tokenizer(self) -> None:
        """Override whatever the export saved: padding is done per batch here
        (many exports ship fixed-length padding, which would make every short
        query cost a full 512-token pass), and inputs are capped at the
        manifest's ``max_length``."""
        saved = self._tokenizer.padding or {}
        pad_id = saved.get("pad_id")
        if pad_id is None:
            pad_id = 0
            for candidate in _PAD_TOKENS:
                token_id = self._tokenizer.token_to_id(candidate)
                if token_id is not None:
                    pad_id = token_id
                    break
        self._pad_id = int(pad_id)
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=self._manifest.max_length)

    def _pick_output(self) -> tuple[str, bool]:
        """Prefer per-token states (pooled here, per the manifest); fall back
        to an already pooled ``(batch, dim)`` output such as sentence-transformers'
        ``sentence_embedding``."""
        outputs = self._session.get_outputs()
        by_name = {o.name: o for o in outputs}
        for name in _TOKEN_OUTPUTS:
            if name in by_name:
                return name, False
        for output in outputs:
            if len(output.shape) == 3:
                return output.name, False
        return outputs[0].name, True

    def _embed(self, texts: Sequence[str], prefix: str, release: bool = False) -> np.ndarray:
        if not texts:
            return empty_result(self.dim)
        encodings = self._tokenizer.encode_batch([prefix + text for text in texts])
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        lengths = [len(e.ids) for e in encodings]
        # Batches of similar token counts pad little; results are unchanged
        # because padding is masked out both in attention and in pooling.
        runs = list(token_batches(lengths, BATCH_TOKENS, self._batch_size))
        for n, idx in enumerate(runs, start=1):
            out[idx] = self._run([encodings[i] for i in idx], release and n == len(runs))
        return l2_normalize(out)

    def _run(self, encodings: list[Encoding], release: bool = False) -> np.ndarray:
        # A tokenizer without special tokens gives nothing for "": such a row
        # gets one masked pad token rather than a zero-length axis.
        longest = max(1, max(len(e.ids) for e in encodings))
        ids = np.full((len(encodings), longest), self._pad_id, dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for row, encoding in enumerate(encodings):
            n = len(encoding.ids)
            ids[row, :n] = encoding.ids
            mask[row, :n] = 1
            types[row, :n] = encoding.type_ids
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = types
        feed = {
            name: value.astype(np.int32) if self._inputs[name] == "tensor(int32)" else value
            for name, value in feed.items()
        }
        (hidden,) = self._session.run([self._output], feed, arena_release() if release else None)
        vectors = hidden if self._output_is_pooled else self._pool(hidden, mask)
        if vectors.shape != (len(encodings), self.dim):
            raise ValueError(
                f"{self.model_id}: model gave {vectors.shape}, manifest dim is {self.dim}"
            )
        return vectors

    def _pool(self, hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if self._manifest.pooling == "cls":
            return hidden[:, 0, :]
        weights = mask[:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        return summed / np.maximum(weights.sum(axis=1), 1e-9)
