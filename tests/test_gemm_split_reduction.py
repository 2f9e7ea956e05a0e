"""A GEMM-like leaf under a block that steps its reduction (`split_reduction`): the kernel's
calls take run-time flags, the first writing C (no zeroed C box before them) and the last
applying the fused bias and relu on its registers (no second pass).

Each case runs twice with different inputs (the hidden layers and packing scratch are kept
between calls, so a first call that added to C instead of writing it would add the previous
call's sums) and is compared with float64 numpy and, bitwise, with the same program compiled
without the flags (`gemm_split_flags = false`: zeroed C, `C += A B` per call, the epilogue as
a second pass): `0 + x` is `x`, and the epilogue applies the same operations to the same sums.
A relu applied to a partial sum (an epilogue in a call other than the last) or a bias added per
call changes many outputs: the biases are drawn so that the relu cuts about half of them.

Hand-written Stripe programs (checked against the interpreter) cover calls whose constraints
leave them an empty reduction and a box of C that moves with the reduction (no flags).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import TargetConfig, load_target
from plaidc.tile import compile_tile

from .support import EXAMPLES

BACKENDS = ["c", "llvm"]
MLP = (EXAMPLES / "mlp_3layer.tile").read_text()
CONV = (EXAMPLES / "conv2d_bias_relu.tile").read_text()
SPLIT = "C = A B in a split reduction's first call"


def _config(backend: str, split: bool) -> TargetConfig:
    cfg = load_target(backend)
    return dataclasses.replace(cfg, codegen={**cfg.codegen, "gemm_split_flags": split})


def _build(backend: str, source: str, dims: dict[str, int], split: bool = True):
    cfg = _config(backend, split)
    program = compile_tile(source, "p.tile", dims=dims).program
    program = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    return program, get_backend(backend).compile(program, cfg)


def _mlp_reference(x: dict[str, np.ndarray]) -> np.ndarray:
    h = x["X"].astype(np.float64)
    for layer in (1, 2, 3):
        h = np.maximum(h @ x[f"W{layer}"].astype(np.float64) + x[f"B{layer}"], 0)
    return h


def _mlp_inputs(program, seed: int) -> dict[str, np.ndarray]:
    """Random inputs, weights scaled to keep each layer's outputs near 1, biases of that
    scale (relu cuts about half of every layer's outputs)."""
    inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
    rng = np.random.default_rng(seed)
    for layer in (1, 2, 3):
        w = inputs[f"W{layer}"]
        inputs[f"W{layer}"] = (w / np.sqrt(w.shape[0])).astype(np.float32)
        inputs[f"B{layer}"] = rng.standard_normal(inputs[f"B{layer}"].shape).astype(np.float32)
    return inputs


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "dims",
    [
        {"B": 128, "D0": 1024, "D1": 1024, "D2": 1024, "D3": 1024},
        {"B": 64, "D0": 512, "D1": 768, "D2": 1024, "D3": 256},
        # ragged k blocks (784 = 6 x 128 + 16, 1000 = 3 x 256 + 232: a run-time reduction
        # length), partial column panels (250 columns) through the C tile, fused epilogues
        {"B": 100, "D0": 784, "D1": 1000, "D2": 1000, "D3": 10},
        {"B": 37, "D0": 1000, "D1": 300, "D2": 513, "D3": 77},
        # 999 output columns in tiles of 250: the last tile's columns cut (a run-time width)
        {"B": 128, "D0": 1024, "D1": 1000, "D2": 1024, "D3": 999},
    ],
    ids=[
        "mlp1024",
        "mlp512-768-1024-256",
        "mlp784-1000-1000-10",
        "mlp1000-300-513-77",
        "mlp1024-1000-1024-999",
    ],
)
def test_mlp_layers_split_their_reductions_with_flags(backend: str, dims: dict[str, int]) -> None:
    program, split = _build(backend, MLP, dims)
    _, plain = _build(backend, MLP, dims, split=False)
    assert SPLIT in split.source
    assert "initialise what" in plain.source and SPLIT not in plain.source
    for seed in (0, 1):
        inputs = _mlp_inputs(program, seed)
        got = split.run(inputs)["Y"]
        want = _mlp_reference(inputs)
        assert (want == 0).mean() > 0.2 and (want > 0).mean() > 0.2
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
        np.testing.assert_array_equal(got, plain.run(inputs)["Y"])


def _conv_reference(x: dict[str, np.ndarray]) -> np.ndarray:
    image, kernel = x["I"].astype(np.float64), x["K"].astype(np.float64)
    kh, kw = kernel.shape[:2]
    oh, ow = image.shape[1] - kh + 1, image.shape[2] - kw + 1
    out = np.zeros((image.shape[0], oh, ow, kernel.shape[3]))
    for i in range(kh):
        for j in range(kw):
            out += image[:, i : i + oh, j : j + ow, :] @ kernel[i, j]
    return np.maximum(out + x["B"], 0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "channels", [(128, 128), (192, 128), (128, 80)], ids=["128-128", "192-128", "128-80"]
)
def test_conv_channel_blocks_split_with_flags(backend: str, channels: tuple[int, int]) -> None:
    ci, co = channels
    dims = {"N": 1, "H": 30, "W": 30, "CI": ci, "CO": co, "KH": 3, "KW": 3}
    program, split = _build(backend, CONV, dims)
    _, plain = _build(backend, CONV, dims, split=False)
    assert SPLIT in split.source and SPLIT not in plain.source
    for seed in (0, 1):
        inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
        scale = float(np.std(_conv_reference({**inputs, "B": np.zeros(co)})))
        rng = np.random.default_rng(seed)
        inputs["B"] = (rng.standard_normal(co) * scale).astype(np.float32)
        got = split.run(inputs)["R"]
        want = _conv_reference(inputs)
        assert (want == 0).mean() > 0.2 and (want > 0).mean() > 0.2
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
        np.testing.assert_array_equal(got, plain.run(inputs)["R"])


def test_a_reduction_split_without_an_epilogue_writes_then_adds() -> None:
    """A product followed by a residual add, which reads another matrix per element (no
    epilogue on the registers): the flags still replace the zeroed C, the add runs after."""
    source = """function (X[B, D0], W[D0, D1], R[B, D1]) -> (Y) {
  Z[b, j : B, D1] = +(X[b, i] * W[i, j]);
  Y = Z + R;
}"""
    dims = {"B": 128, "D0": 1024, "D1": 1024}
    for backend in BACKENDS:
        program, split = _build(backend, source, dims)
        _, plain = _build(backend, source, dims, split=False)
        assert SPLIT in split.source and "initialise what" not in split.source
        for seed in (0, 1):
            inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
            want = inputs["X"].astype(np.float64) @ inputs["W"] + inputs["R"]
            got = split.run(inputs)["Y"]
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
            np.testing.assert_array_equal(got, plain.run(inputs)["Y"])


TMM = (EXAMPLES / "tc_tmm.tile").read_text()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "dims",
    [{"M": 128, "N": 1024, "K": 1024}, {"M": 100, "N": 768, "K": 1000}],
    ids=["128-1024-1024", "100-768-1000"],
)
def test_tiles_of_c_beside_the_reduction_steps(backend: str, dims: dict[str, int]) -> None:
    """A transposed product's `[kk, n]` block: `n` tiles C (run on threads), `kk` steps the
    reduction. Per tile of C the first `kk` writes it, where C was zeroed whole before the
    parallel loop; the kernel inside the parallel loop opens no threads of its own."""
    program, split = _build(backend, TMM, dims)
    _, plain = _build(backend, TMM, dims, split=False)
    assert SPLIT in split.source and "initialise what" not in split.source
    assert "chunks of" not in split.source  # no threaded kernel inside the parallel loop
    for seed in (0, 1):
        inputs = driver.random_inputs(program_io(program).inputs, seed=seed)
        want = inputs["A"].astype(np.float64) @ inputs["B"].T
        got = split.run(inputs)["C"]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
        np.testing.assert_array_equal(got, plain.run(inputs)["C"])


def _dense_stripe(k_tiles: int, constraint: str) -> str:
    """`Y = relu(X W1 + B1)`, X 20 x 40, W1 40 x 128, tiled as autotile does: per 64 columns of
    Y, a block over `k_tiles` k blocks of 16 (`i`) around the `#contract_inner` leaf, whose
    constraints are `39 - i - io >= 0` and `constraint`; the bias and relu follow."""
    span = 16 * k_tiles
    return f"""0: #program
block []:1 (
    #user none new@0x00000000 B1[0] fp32:I(128):(1):1 B
    #user none new@0x00000000 W1[0, 0] fp32:I(40, 128):(128, 1):1 B
    #user none new@0x00000000 X[0, 0] fp32:I(20, 40):(40, 1):1 B
    #user none new@0x00000000 Y[0, 0] fp32:I(20, 128):(128, 1):1 B
) {{
  0: #main
  block []:1 (
      in B1[0] fp32:I(128):(1):1 B
      in W1[0, 0] fp32:I(40, 128):(128, 1):1 B
      in X[0, 0] fp32:I(20, 40):(40, 1):1 B
      out Y[0, 0] fp32:I(20, 128):(128, 1):1 B
  ) {{
    0: #contract_outer #kernel
    block [j:2] (
        in B1[64*j] fp32:I(64):(1):1 B
        in W1[0, 64*j] fp32:I({span}, 64):(128, 1):1 B
        in X[0, 0] fp32:I(20, {span}):(40, 1):1 B
        out Y[0, 64*j] fp32:I(20, 64):(128, 1):1 B
    ) {{
      0: #contract_outer #kernel
      block [i:{k_tiles}] (
          in W1[16*i, 0] fp32:I(16, 64):(128, 1):1 B
          in X[0, 16*i] fp32:I(20, 16):(40, 1):1 B
          out Z1 = Y[0, 0]:add fp32:I(20, 64):(128, 1):1 B
      ) {{
        0: #contract_inner
        block [b:20, i:16, j:64, io = 16*i] (
            39 - i - io >= 0
            {constraint}
            in W1[i, j] fp32:I(1, 1):(128, 1):1 B
            in X[b, i] fp32:I(1, 1):(40, 1):1 B
            out Z1[b, j]:add fp32:I(1, 1):(128, 1):1 B
        ) {{
          0: $X = load(X)
          1: $W1 = load(W1)
          2: $Z1 = mul($X, $W1)
          3: Z1 = store($Z1)
        }}
      }}
      1: #eltwise #kernel
      block [i1:20, i2:64] (
          in B1[i2] fp32:I(1):(1):1 B
          inout Y[i1, i2] fp32:I(1, 1):(128, 1):1 B
      ) {{
        0: $Z1 = load(Y)
        1: $B1 = load(B1)
        2: $t0 = add($Z1, $B1)
        3: $Y = relu($t0)
        4: Y = store($Y)
      }}
    }}
  }}
}}
"""


def _batched_stripe(constraint: str) -> str:
    """`Y[g] = X[g] W1[g]` for 2 batches `g`, X 20 x 40, W1 40 x 32, after a block that fills Y
    with X's first columns: a block over 3 k blocks of 16 (`i`) around the `#contract_inner`
    leaf, whose constraints are `39 - i - io >= 0` and `constraint`."""
    return f"""0: #program
block []:1 (
    #user none new@0x00000000 W1[0, 0, 0] fp32:I(2, 40, 32):(1280, 32, 1):1 B
    #user none new@0x00000000 X[0, 0, 0] fp32:I(2, 20, 40):(800, 40, 1):1 B
    #user none new@0x00000000 Y[0, 0, 0] fp32:I(2, 20, 32):(640, 32, 1):1 B
) {{
  0: #main
  block []:1 (
      in W1[0, 0, 0] fp32:I(2, 40, 32):(1280, 32, 1):1 B
      in X[0, 0, 0] fp32:I(2, 20, 40):(800, 40, 1):1 B
      out Y[0, 0, 0] fp32:I(2, 20, 32):(640, 32, 1):1 B
  ) {{
    0: #eltwise #kernel
    block [g:2, i1:20, i2:32] (
        in X[g, i1, i2] fp32:I(1, 1, 1):(800, 40, 1):1 B
        out Y[g, i1, i2] fp32:I(1, 1, 1):(640, 32, 1):1 B
    ) {{
      0: $x = load(X)
      1: Y = store($x)
    }}
    1: #contract_outer #kernel
    block [i:3] (
        in W1[0, 16*i, 0] fp32:I(2, 16, 32):(1280, 32, 1):1 B
        in X[0, 0, 16*i] fp32:I(2, 20, 16):(800, 40, 1):1 B
        out Z1 = Y[0, 0, 0]:add fp32:I(2, 20, 32):(640, 32, 1):1 B
    ) {{
      0: #contract_inner
      block [g:2, b:20, i:16, j:32, io = 16*i] (
          39 - i - io >= 0
          {constraint}
          in W1[g, i, j] fp32:I(1, 1, 1):(1280, 32, 1):1 B
          in X[g, b, i] fp32:I(1, 1, 1):(800, 40, 1):1 B
          out Z1[g, b, j]:add fp32:I(1, 1, 1):(640, 32, 1):1 B
      ) {{
        0: $X = load(X)
        1: $W1 = load(W1)
        2: $Z1 = mul($X, $W1)
        3: Z1 = store($Z1)
      }}
    }}
  }}
}}
"""


def _run_stripe(
    backend: str, text: str, codegen: dict | None = None
) -> tuple[dict[str, np.ndarray], np.ndarray, str]:
    """(inputs, Y, the generated code) of a Stripe program compiled with `codegen` settings,
    Y checked against the interpreter (`B1`, if any, drawn so that the relu cuts about half
    of Y)."""
    program = parse_stripe(text, "split.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=0)
    if "B1" in inputs:
        bias = np.random.default_rng(1).standard_normal(inputs["B1"].shape) * 2
        inputs["B1"] = bias.astype(np.float32)
    cfg = load_target(backend)
    cfg = dataclasses.replace(cfg, codegen={**cfg.codegen, **(codegen or {})})
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    mismatches = driver.compare_outputs(run_program(program, inputs), got)
    assert not mismatches, mismatches[0].message
    return inputs, got["Y"], artifact.source


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("blocked", [False, True], ids=["unblocked", "blocked"])
def test_split_calls_with_an_empty_reduction_still_write_and_finish_c(
    backend: str, blocked: bool
) -> None:
    """Calls of a split reduction whose constraints leave them no k still run, their
    run-time length clamped to 0 (`gemm.lower_gemm`): with `i + io - 20 >= 0` the first call
    (k from 20 to 16) writes C's zeros, and the last (its k block at 48, past K = 40) applies
    the fused bias and relu; a kernel blocked over k (a 2 KiB B block: k blocks of 8) runs
    one empty k block (`Kernel._blocked`). Skipping such calls or blocks, or reading a row
    of k in them, changes Y."""
    codegen = {"gemm_block_bytes": 2048} if blocked else {}
    text = _dense_stripe(4, "i + io - 20 >= 0")
    inputs, got, source = _run_stripe(backend, text, codegen)
    assert SPLIT in source and "initialise what" not in source
    assert ("B packed in blocks of" in source) == blocked
    x, w = inputs["X"].astype(np.float64), inputs["W1"].astype(np.float64)
    want = np.maximum(x[:, 20:] @ w[20:] + inputs["B1"], 0)
    assert (want == 0).mean() > 0.2 and (want > 0).mean() > 0.2
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("moving", ["rows", "batches"])
def test_a_box_of_c_that_moves_with_the_reduction_is_no_split(backend: str, moving: str) -> None:
    """`io - b >= 0` (rows `b <= io`) or `io - g >= 0` (batches, a loop around the calls):
    the k block at `io` adds into a box of C that grows with it, so the first call's box is
    not the others' (`split_reduction._box_moves`). C is zeroed before the calls, which add
    to it; flags would leave the values of the block before (Y filled with X) in the rest."""
    var = "b" if moving == "rows" else "g"
    inputs, got, source = _run_stripe(backend, _batched_stripe(f"io - {var} >= 0"))
    assert "micro-kernel" in source and SPLIT not in source and "initialise what" in source
    x, w = inputs["X"].astype(np.float64), inputs["W1"].astype(np.float64)
    want = np.zeros((2, 20, 32))
    for g in range(2):
        for io in (0, 16, 32):
            rows = np.arange(20) <= io if moving == "rows" else np.full(20, g <= io)
            ks = slice(io, io + 16)
            want[g][rows] += x[g][rows, ks] @ w[g][ks]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
