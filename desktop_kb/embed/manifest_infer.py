"""Sensible defaults for a model folder whose manifest leaves fields out.

A person who exports a model the app does not know should not have to learn
our manifest: ``kind`` follows from the graph's inputs and ``dim`` from its
output shape. When a field cannot be read from the files, the error names it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_kb.embed.errors import ModelInstallError

_TOKEN_OUTPUTS = ("last_hidden_state", "token_embeddings")


def complete_manifest(folder: Path, model_file: str, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with ``kind`` and ``dim`` filled in from the model when absent."""
    if "kind" in data and "dim" in data:
        return data
    graph = _load_graph(folder / model_file)
    missing = []
    completed = dict(data)
    if "kind" not in completed:
        kind = _kind_from_inputs(graph)
        if kind is None:
            missing.append("kind ('transformer' or 'string')")
        else:
            completed["kind"] = kind
    if "dim" not in completed:
        dim = _dim_from_outputs(graph)
        if dim is None:
            missing.append("dim (the vector width, e.g. 384)")
        else:
            completed["dim"] = dim
    if missing:
        raise ModelInstallError(
            f"{folder / 'manifest.json'} needs {' and '.join(missing)}: "
            f"they cannot be read from {model_file}"
        )
    return completed


def _load_graph(path: Path) -> Any:
    import onnx

    try:
        return onnx.load(str(path), load_external_data=False).graph
    except Exception as exc:  # protobuf raises its own DecodeError types
        raise ModelInstallError(f"{path} is not a readable ONNX model: {exc}") from exc


def _kind_from_inputs(graph: Any) -> str | None:
    from onnx import TensorProto

    initializers = {t.name for t in graph.initializer}
    inputs = [i for i in graph.input if i.name not in initializers]
    names = {i.name for i in inputs}
    if {"input_ids", "attention_mask"} <= names:
        return "transformer"
    if len(inputs) == 1 and inputs[0].type.tensor_type.elem_type == TensorProto.STRING:
        return "string"
    return None


def _dim_from_outputs(graph: Any) -> int | None:
    """Same choice of output as the engines: per-token states first, else the first."""
    outputs = list(graph.output)
    by_name = {o.name: o for o in outputs}
    ranked = [by_name[n] for n in _TOKEN_OUTPUTS if n in by_name]
    ranked += [o for o in outputs if len(o.type.tensor_type.shape.dim) == 3]
    ranked += outputs[:1]
    for output in ranked:
        dims = output.type.tensor_type.shape.dim
        if dims and dims[-1].HasField("dim_value") and dims[-1].dim_value > 0:
            return int(dims[-1].dim_value)
        return None
    return None
