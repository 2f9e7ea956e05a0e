"""The programs every backend is checked on (examples, the oplib manifest, pipelines) and
comparing a compiled backend with the interpreter."""

from __future__ import annotations

from functools import cache

import numpy as np

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import Block, DType
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import TargetConfig, load_target

from ..oplib_reference import REFERENCES, load_manifest, make_inputs
from .paths import EXAMPLES, REFERENCE_DUMPS

STRIPE_FILES = {
    **{f"{p.parent.parent.name}/{p.stem}": p for p in REFERENCE_DUMPS},
    **{f"examples/{p.stem}": p for p in EXAMPLES.glob("*.stripe")},
}


MANIFEST = load_manifest()


PROGRAMS = sorted(STRIPE_FILES) + [f"tile/{name}" for name in sorted(MANIFEST)]


# Programs also run through the target pipeline (`+pipeline`); tile programs always are.
PIPELINED = [
    f"{p}+pipeline"
    for p in sorted(STRIPE_FILES)
    if p.endswith("15_prune_refs") or p.startswith("examples/")
]


@cache
def load_program(program_id: str) -> Block:
    """A test program by id: `<dump>/<stage>`, `examples/<name>` or `tile/<manifest entry>`."""
    if program_id.startswith("tile/"):
        from plaidc.tile import compile_tile

        spec = MANIFEST[program_id.removeprefix("tile/")]
        shapes = {name: (DType(i.dtype), i.shape) for name, i in spec.inputs.items()}
        return compile_tile(
            spec.path.read_text(), str(spec.path), dims=spec.defines, shapes=shapes
        ).program
    path = STRIPE_FILES[program_id]
    return parse_stripe(path.read_text(), str(path))


def program_inputs(program_id: str, program: Block) -> dict[str, np.ndarray]:
    if program_id.startswith("tile/"):
        return make_inputs(MANIFEST[program_id.removeprefix("tile/")])
    return driver.random_inputs(program_io(program).inputs, seed=7)


def compile_and_compare(
    backend: str, program: Block, inputs: dict[str, np.ndarray], target: TargetConfig | None = None
) -> dict[str, np.ndarray]:
    """Run `program` on `backend` and on the interpreter; assert the outputs agree."""
    cfg = target if target is not None else load_target(backend)
    artifact = get_backend(backend).compile(program, cfg)
    got = artifact.run(inputs)
    want = run_program(program, inputs)
    mismatches = driver.compare_outputs(want, got)
    assert not mismatches, mismatches[0].message
    for name, value in want.items():
        assert got[name].dtype == value.dtype, f"{name}: dtype {got[name].dtype} != {value.dtype}"
    return got


def pipelined(program: Block, target: str) -> Block:
    """`program` after the target's default pipeline (what `plaidc run -t <target>` runs)."""
    steps = driver.resolve_steps(load_target(target).stage("default"))
    return driver.run_pipeline(program, steps)


def check_program(backend: str, program_id: str) -> None:
    base = program_id.removesuffix("+pipeline")
    program = load_program(base)
    inputs = program_inputs(base, program)
    if base.startswith("tile/") or program_id.endswith("+pipeline"):
        program = pipelined(program, backend)
    got = compile_and_compare(backend, program, inputs)
    program_id = base
    if program_id.startswith("tile/"):
        name = program_id.removeprefix("tile/")
        spec = MANIFEST[name]
        for out, value in REFERENCES[name](inputs).items():
            np.testing.assert_allclose(
                got[out].astype(np.float64),
                value.astype(np.float64),
                rtol=spec.rtol,
                atol=spec.atol,
                err_msg=f"{name}: output {out} differs from the numpy reference",
            )


def tiled_matmul(
    m: int, n: int, k: int, mt: int, kt: int, dtype: str = "fp32", swap: bool = False
) -> str:
    """A matmul in PlaidML's final form: `#cpu_thread` over `mt` row tiles, a k-tile block of
    `kt`, and a `#mac_inner` stencil block (`swap` loads and multiplies B before A)."""
    rows, depth = m // mt, k // kt
    loads = ["$b = load(B)", "$a = load(A)"] if swap else ["$a = load(A)", "$b = load(B)"]
    product = "$c = mul($b, $a)" if swap else "$c = mul($a, $b)"
    body = "\n".join(
        f"          {i}: {s}" for i, s in enumerate([*loads, product, "C = store($c)"])
    )
    kernel = f"""\
    0: #cpu_thread #kernel
    block [mt:{mt}] (
        in A[{rows}*mt, 0] {dtype}:I({rows}, {k}):({k}, 1):1 B
        in B[0, 0] {dtype}:I({k}, {n}):({n}, 1):1 B
        out C[{rows}*mt, 0]:add {dtype}:I({rows}, {n}):({n}, 1):1 B
    ) {{
      0: block [ko:{kt}] (
          in A[0, {depth}*ko] {dtype}:I({rows}, {depth}):({k}, 1):1 B
          in B[{depth}*ko, 0] {dtype}:I({depth}, {n}):({n}, 1):1 B
          out C[0, 0]:add {dtype}:I({rows}, {n}):({n}, 1):1 B
      ) {{
        0: #mac_inner
        block [k:{depth}, m:{rows}, n:{n}] (
            in A[m, k] {dtype}:I(1, 1):({k}, 1):1 B
            in B[k, n] {dtype}:I(1, 1):({n}, 1):1 B
            out C[m, n]:add {dtype}:I(1, 1):({n}, 1):1 B
        ) {{
{body}
        }}
      }}
    }}
"""
    return matmul_program(m, n, k, dtype, kernel)


def matmul_program(m: int, n: int, k: int, dtype: str, kernel: str) -> str:
    """A program computing `C[m, n]` from `A[m, k]` and `B[k, n]` by `kernel`, the Stripe text of
    `main`'s one statement (indented by four spaces, numbered 0)."""
    return f"""0: #program
block []:1 (
    #user none new@0x00000000 A[0, 0] {dtype}:I({m}, {k}):({k}, 1):1 B
    #user none new@0x00000000 B[0, 0] {dtype}:I({k}, {n}):({n}, 1):1 B
    #user none new@0x00000000 C[0, 0] {dtype}:I({m}, {n}):({n}, 1):1 B
) {{
  0: #main
  block []:1 (
      in A[0, 0] {dtype}:I({m}, {k}):({k}, 1):1 B
      in B[0, 0] {dtype}:I({k}, {n}):({n}, 1):1 B
      out C[0, 0] {dtype}:I({m}, {n}):({n}, 1):1 B
  ) {{
{kernel}  }}
}}
"""


# Sizes that exercise every path of the micro-kernel: full and partial register blocks and
# panels, packing on and off, the k loop split over tiles (accumulate) or not (overwrite).
GEMM_CASES = [
    (64, 64, 32, 2, 2, "fp32"),
    (37, 50, 19, 1, 1, "fp32"),
    (16, 96, 8, 2, 1, "fp32"),
    (8, 7, 3, 1, 3, "fp32"),
    (5, 33, 12, 1, 2, "fp64"),
    (24, 40, 16, 3, 4, "fp64"),
]


# Contractions whose output rows overlap (`O[2*i + j]` with 3 columns): not GEMM micro-kernels
# (a row's register tile overwrote or lost another row's sums on c, llvm and opencl).
OVERLAPPING_ROWS = {
    "transposed_conv": (
        "function (A[N], W[K]) -> (O) { O[2 * i + k : 2 * N + K - 2] = +(A[i] * W[k]); }",
        {"A": (2,), "W": (3,)},
    ),
    "strided_rows": (
        "function (A[N, K], B[K, M]) -> (O) "
        "{ O[2 * i + j : 2 * N + M - 2] = +(A[i, k] * B[k, j]); }",
        {"A": (4, 5), "B": (5, 3)},
    ),
    "reversed_rows": (
        "function (A[N], B[M]) -> (O) { O[i - j + M - 1 : N + M - 1] = +(A[i] * B[j]); }",
        {"A": (2,), "B": (2,)},
    ),
    "wide_overlap": (
        "function (A[N, K], B[K, M]) -> (O) "
        "{ O[4 * i + j : 4 * N + M - 4] = +(A[i, k] * B[k, j]); }",
        {"A": (37, 9), "B": (9, 40)},
    ),
}


def check_overlapping_rows(backend: str, case: str) -> None:
    from plaidc.tile import compile_tile

    text, shapes = OVERLAPPING_ROWS[case]
    typed = {name: (DType.FP32, dims) for name, dims in shapes.items()}
    program = compile_tile(text, f"{case}.tile", shapes=typed).program
    inputs = driver.random_inputs(program_io(program).inputs, seed=5)
    compile_and_compare(backend, pipelined(program, backend), inputs)


# PlaidML's stages before its `pad` pass give a `#zero` block's output view unit strides
# (`dst = X_T2[d0, d1] ...:(1, 1)`), so its points store along diagonals of the flat buffer;
# the NPU refuses such a store, naming it (the interpreter and the CPU targets run it).
NPU_REFUSED = {
    f"{dump}/{stage}": "sends several points to one element along a diagonal"
    for dump in ("padassign", "tile_no_defract")
    for stage in ("00_initial", "01_localize_tmps", "02_prune_refs")
}
