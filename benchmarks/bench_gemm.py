"""What this CPU sustains for the products a BERT encoder is made of, and what that
allows for multilingual-e5-small.

Run from the repository root::

    .venv/bin/python benchmarks/bench_gemm.py [--tokens 512] [--rounds 7]

One single-node onnxruntime graph per kernel, one thread, an FFN-sized product
(``[4096 x 384] x [384 x 1536]``: 8 rows of 512 tokens): float32 ``MatMul``,
int8 ``DynamicQuantizeMatMul`` (what the int8 graph runs) and numpy's BLAS for
comparison. Figures are GFLOP per CPU-second of this process (the median of
``--rounds``), so other work on a shared machine slows them less than wall time.

Then the arithmetic for one chunk of ``--tokens`` tokens: e5-small's linear
layers (int8) and attention products (float32), the fewest CPU seconds the
measured rates allow, and the chunks/s that bounds on two cores.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import cpu_seconds  # noqa: E402

ROWS, HIDDEN, FFN = 4096, 384, 1536
LAYERS = 12
CORES = 2


def single_node_session(node: object, weights: dict[str, np.ndarray]) -> Callable[[np.ndarray], object]:
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    graph = helper.make_graph(
        [node], "gemm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [ROWS, HIDDEN])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(value, name) for name, value in weights.items()],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    return lambda x: session.run(None, {"x": x})


def gflops_per_cpu_s(run: Callable[[], object], flop: float, rounds: int) -> float:
    run()
    spent = []
    for _ in range(rounds):
        start = cpu_seconds()
        run()
        spent.append(cpu_seconds() - start)
    return flop / statistics.median(spent) / 1e9


def main() -> int:
    from onnx import helper

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((ROWS, HIDDEN)).astype(np.float32)
    w = rng.standard_normal((HIDDEN, FFN)).astype(np.float32)
    scale = (np.abs(w).max(axis=0) / 63).astype(np.float32)  # 7-bit weights, as reduce_range
    w8 = np.clip(np.round(w / scale), -64, 63).astype(np.int8)
    float_mm = single_node_session(helper.make_node("MatMul", ["x", "w"], ["y"]), {"w": w})
    int8_mm = single_node_session(
        helper.make_node("DynamicQuantizeMatMul", ["x", "w8", "s"], ["y"], domain="com.microsoft"),
        {"w8": w8, "s": scale},
    )
    flop = 2.0 * ROWS * HIDDEN * FFN
    rates = {
        "onnxruntime float32 MatMul": gflops_per_cpu_s(lambda: float_mm(x), flop, args.rounds),
        "onnxruntime int8 DynamicQuantizeMatMul": gflops_per_cpu_s(lambda: int8_mm(x), flop,
                                                                   args.rounds),
        "numpy float32 (BLAS)": gflops_per_cpu_s(lambda: x @ w, flop, args.rounds),
    }
    print(f"[{ROWS} x {HIDDEN}] x [{HIDDEN} x {FFN}], one thread, GFLOP per CPU-second "
          f"(median of {args.rounds}):")
    for name, rate in rates.items():
        print(f"  {name:40s} {rate:6.1f}")

    t = args.tokens
    linear = LAYERS * 2.0 * t * (4 * HIDDEN * HIDDEN + 2 * HIDDEN * FFN)  # Q, K, V, out; FFN in/out
    attention = LAYERS * 2.0 * 2 * t * t * HIDDEN  # scores and weighted sum, all heads
    int8_rate = rates["onnxruntime int8 DynamicQuantizeMatMul"] * 1e9
    float_rate = rates["onnxruntime float32 MatMul"] * 1e9
    fewest = linear / int8_rate + attention / float_rate
    print(f"e5-small, one chunk of {t} tokens: {linear / 1e9:.1f} GFLOP in linear layers (int8) + "
          f"{attention / 1e9:.1f} GFLOP in attention (float32) = {(linear + attention) / 1e9:.1f} GFLOP")
    print(f"  at the rates above: at least {fewest:.3f} CPU s per chunk -> at most "
          f"{CORES / fewest:.1f} chunks/s on {CORES} idle cores (products only, nothing else)")
    need = CORES / 25
    print(f"  25 chunks/s on {CORES} cores leaves {need:.3f} CPU s per chunk: "
          f"{(linear + attention) / need / 1e9:.0f} GFLOP per CPU-second needed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
