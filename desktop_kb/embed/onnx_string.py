"""Engine for graphs that take raw strings and tokenize inside the graph.

The default model (multilingual Universal Sentence Encoder v3, quantized) is
such a graph: its first node is a ``SentencepieceTokenizer`` from the
``ai.onnx.contrib`` domain, so the onnxruntime-extensions op library must be
registered before the session is created.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from desktop_kb.embed.engine import (
    DEFAULT_BATCH_SIZE,
    ManifestEngine,
    ModelManifest,
    arena_release,
    batches,
    empty_result,
    l2_normalize,
    length_order,
    session_options,
)


class OnnxStringEngine(ManifestEngine):
    """Runs a ``string[n] -> float[n, dim]`` graph in batches.

    No lock around ``run``: onnxruntime documents concurrent ``run`` calls on
    one session as safe, and the sentencepiece op was checked under four
    threads. A lock would make a query wait behind a whole indexing batch.
    """

    def __init__(
        self,
        model_path: Path,
        manifest: ModelManifest,
        *,
        threads: int | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
    ) -> None:
        import onnxruntime as ort
        from onnxruntime_extensions import get_library_path

        options = session_options(threads)
        options.register_custom_ops_library(get_library_path())
        self._session = ort.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        inputs = self._session.get_inputs()
        if len(inputs) != 1 or inputs[0].type != "tensor(string)":
            raise ValueError(f"{model_path.name} does not take a single string tensor input")
        self._input = inputs[0].name
        self._output = self._session.get_outputs()[0].name
        super().__init__(manifest)
        self._batch_size = max(1, batch_size)

    def _embed(self, texts: Sequence[str], prefix: str, release: bool = False) -> np.ndarray:
        if not texts:
            return empty_result(self.dim)
        # Cost grows faster than linearly with length (10k chars: ~0.18 s vs
        # 2k: ~0.02 s), and chunks are capped well below the limit anyway.
        limit = self._manifest.max_length
        prepared = [(prefix + text)[:limit] for text in texts]
        out = np.empty((len(prepared), self.dim), dtype=np.float32)
        runs = list(batches(length_order(prepared), self._batch_size))
        for n, idx in enumerate(runs, start=1):
            feed = np.array([prepared[i] for i in idx], dtype=object)
            options = arena_release() if release and n == len(runs) else None
            (vectors,) = self._session.run([self._output], {self._input: feed}, options)
            if vectors.shape != (len(idx), self.dim):
                raise ValueError(
                    f"{self.model_id}: model gave {vectors.shape}, manifest dim is {self.dim}"
                )
            out[list(idx)] = vectors
        return l2_normalize(out)
