"""An elementwise kernel on a Cube contraction's result fused as its epilogue (issue 21): run on
each output tile in UB before the store, however the pass pipeline tiled the two kernels. The
analysis (`reexpressed`) moves the consumer into the contraction's indices when the two only
correspond point by point through the result's elements."""

from __future__ import annotations

import dataclasses

import pytest

from plaidc import driver
from plaidc.analysis.ranges import IndexSpace, reexpressed
from plaidc.stripe.ir import Affine, Block
from plaidc.targets import TargetConfig, load_target

from .support.backend_npu_units import run_checked, tile_program
from .test_backend_npu_small_memory import small_chip

CONV_BIAS_RELU = """function (I[N, H, W, CI], K[KH, KW, CI, CO], B[CO]) -> (R) {
  O[n, x, y, co : N, H - KH + 1, W - KW + 1, CO] = +(I[n, x + i, y + j, ci] * K[i, j, ci, co]);
  R = relu(O + B);
}"""
MLP = """function (X[M, K], W[K, N], B[N]) -> (Y) {
  Z[m, n : M, N] = +(X[m, k] * W[k, n]);
  Y = relu(Z + B);
}"""


def box(sizes: dict[str, int]) -> IndexSpace:
    bounds = [
        b for v, n in sizes.items() for b in (Affine.var(v), Affine.const_(n - 1) - Affine.var(v))
    ]
    return IndexSpace(tuple(sizes), tuple(bounds))


def aff(const: int = 0, **terms: int) -> Affine:
    return Affine.of(terms, const)


# the producer writes O[x, y] (12 x 5) as 5*x + y; the consumer split x as 4*x0 + x1
PRODUCER = box({"x": 12, "y": 5})
WRITTEN = aff(x=5, y=1)
SPLIT = box({"x0": 3, "x1": 4, "y": 5})
READ = aff(x0=20, x1=5, y=1)


def test_a_split_consumer_is_reexpressed_in_the_producers_indices() -> None:
    forms = reexpressed(PRODUCER, WRITTEN, SPLIT, READ, [READ, aff(y=1), aff(7, x0=40, x1=10, y=2)])
    assert forms == [aff(x=5, y=1), aff(y=1), aff(7, x=10, y=2)]


def test_a_form_not_affine_in_the_producers_indices_is_refused() -> None:
    # x1 is x mod 4: not an affine form of (x, y)
    assert reexpressed(PRODUCER, WRITTEN, SPLIT, READ, [aff(x1=1)]) is None


def test_points_that_do_not_correspond_one_to_one_are_refused() -> None:
    # the consumer reads only half of the result
    half = box({"x0": 3, "x1": 2, "y": 5})
    assert reexpressed(PRODUCER, WRITTEN, half, READ, [READ]) is None
    # two consumer points read one element
    twice = box({"x0": 3, "x1": 4, "y": 5, "r": 2})
    assert reexpressed(PRODUCER, WRITTEN, twice, READ, [READ]) is None
    # the consumer reads past the result (x1 up to 5: elements the producer never writes)
    past = box({"x0": 3, "x1": 6, "y": 5})
    assert reexpressed(PRODUCER, WRITTEN, past, READ, [READ]) is None


def pipelined(text: str, shapes: dict[str, tuple[str, tuple[int, ...]]]) -> Block:
    steps = driver.resolve_steps(load_target("npu").stage())
    return driver.run_pipeline(tile_program(text, shapes), steps)


def on_cores(cores: int) -> TargetConfig:
    base = load_target("npu")
    return dataclasses.replace(base, hardware={**base.hardware, "cores": cores})


def conv_shapes(
    dtype: str, h: int, w: int, ci: int, co: int
) -> dict[str, tuple[str, tuple[int, ...]]]:
    return {"I": (dtype, (1, h, w, ci)), "K": (dtype, (3, 3, ci, co)), "B": (dtype, (co,))}


def assert_one_cube_kernel(source: str) -> None:
    titles = [line for line in source.splitlines() if " -- on " in line]
    assert len(titles) == 1, titles
    assert "on its result in UB -- on the Cube" in titles[0]


@pytest.mark.parametrize(
    ("h", "w", "ci", "co"),
    [(58, 58, 64, 64), (13, 11, 5, 7), (20, 20, 16, 24)],
)
def test_fp16_conv_bias_relu_is_one_cube_kernel(h: int, w: int, ci: int, co: int) -> None:
    """The fp16 conv's result rounded as it leaves L0C, then bias and relu on it in UB: the
    pipeline tiles the 58x58 conv's rows and the bias kernel's differently, and the 20x20
    conv's last row of tiles is ragged (a constraint on the conv's output indices)."""
    program = pipelined(CONV_BIAS_RELU, conv_shapes("fp16", h, w, ci, co))
    assert_one_cube_kernel(run_checked(program, load_target("npu")).source)


@pytest.mark.parametrize("target", [on_cores(2), small_chip()], ids=["cores2", "small"])
def test_fused_conv_matches_on_other_chips(target: TargetConfig) -> None:
    program = pipelined(CONV_BIAS_RELU, conv_shapes("fp16", 30, 30, 32, 48))
    assert_one_cube_kernel(run_checked(program, target).source)


@pytest.mark.parametrize(
    ("dtype", "m", "k", "n"),
    [("fp16", 256, 128, 64), ("fp16", 37, 29, 53), ("fp32", 64, 48, 40)],
)
def test_mlp_layer_is_one_cube_kernel(dtype: str, m: int, k: int, n: int) -> None:
    shapes = {"X": (dtype, (m, k)), "W": (dtype, (k, n)), "B": (dtype, (n,))}
    program = pipelined(MLP, shapes)
    assert_one_cube_kernel(run_checked(program, load_target("npu")).source)


def test_an_epilogue_that_would_cost_finer_tiles_stays_a_kernel_of_its_own() -> None:
    """256x128x192 fp16: the 128x128 output tiles the matmul gets alone leave no room in UB
    for `relu(Z - B) * Z` (its result read twice, so laid out as rows first, beside the
    operations' values); fused, the matmul would take twice the tiles (and loads of X), so the
    epilogue stays a vector kernel (the rounding to fp16 still leaves L0C with the result)."""
    shapes = {"X": ("fp16", (256, 128)), "W": ("fp16", (128, 192)), "B": ("fp16", (192,))}
    twice = MLP.replace("relu(Z + B)", "relu(Z - B) * Z")
    source = run_checked(pipelined(twice, shapes), load_target("npu")).source
    titles = [line for line in source.splitlines() if " -- on " in line]
    assert len(titles) == 2, titles
    assert titles[0].endswith("as the result leaves L0C -- on the Cube */")
    assert titles[1].endswith("-- on the vector unit */")
