"""Programs whose plans nest deep: a block's fresh allocations nest one `Alloc` per allocation
around its body, so a model's main block nests one level per intermediate tensor (425 in the
light DenseNet-121). Every walk of the plan (simplification, the emitters, the C printer) must
reach that depth instead of dying with a RecursionError.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper  # noqa: E402

from plaidc.backends.loopnest.depth import nesting_depth  # noqa: E402
from plaidc.backends.loopnest.plan import Alloc, Comment, IConst, Loop, Stmt, walk_stmts  # noqa: E402
from plaidc.onnx.runner import run_onnx  # noqa: E402
from plaidc.stripe.ir import DType  # noqa: E402

from .support.onnx_models import model_of  # noqa: E402

STEPS = 120  # 360 nested allocations: past what a 1000-frame recursion limit walked


def concat_chain(path: Path, steps: int) -> Path:
    """DenseNet's pattern: each step concatenates a function of the last result with an
    earlier tensor, so every step leaves intermediate tensors."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3])
    nodes = []
    last = "x"
    for i in range(steps):
        nodes.append(helper.make_node("Relu", [last], [f"r{i}"]))
        nodes.append(helper.make_node("Concat", [f"r{i}", "x"], [f"c{i}"], axis=1))
        last = f"c{i}"
    width = 3 * (steps + 1) if steps else 3
    y = helper.make_tensor_value_info(last, TensorProto.FLOAT, [1, width])
    onnx.save(model_of(helper.make_graph(nodes, "chain", [x], [y]), 17), str(path))
    return path


def expected(x: np.ndarray, steps: int) -> np.ndarray:
    last = x
    for _ in range(steps):
        last = np.concatenate([np.maximum(last, 0), x], axis=1)
    return last


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_concat_chain_compiles_and_matches_numpy(tmp_path: Path, target: str) -> None:
    path = concat_chain(tmp_path / "chain.onnx", STEPS)
    x = np.array([[-1.5, 0.25, 2.0]], np.float32)
    got = run_onnx(str(path), {"x": x}, target)[f"c{STEPS - 1}"]
    np.testing.assert_array_equal(got, expected(x, STEPS))


def test_plan_walks_are_iterative() -> None:
    """Deeper than any recursion limit `allow_nesting` sets in this process."""
    body: tuple[Stmt, ...] = (Comment("leaf"),)
    for i in range(20000):
        body = (Alloc(f"t{i}", DType.FP32, 4, body),)
    assert nesting_depth(body) == 20001
    walked = list(walk_stmts(body))
    assert len(walked) == 20001 and walked[0] is body[0] and walked[-1] == Comment("leaf")
    loop = Loop("i", IConst(0), IConst(4), (Comment("x"),))
    assert nesting_depth((loop, Comment("y"))) == 2
    assert nesting_depth(()) == 0
