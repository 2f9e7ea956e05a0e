"""The shape of the Stripe the Tile frontend produces (STRIPE.md "Tile -> Stripe lowering"):
compared with what PlaidML 0.7 itself produced, and checked piece by piece (tags, refinements,
indices, constraints, initialisation kernels) and FileCheck-style on the printed text."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from plaidc.stripe.ir import Affine, Block, Constraint, DType, Index, RefDir, Special, sub_blocks
from plaidc.stripe.printer import print_stripe
from plaidc.stripe.verify import verify
from plaidc.tile import compile_tile

from .support import EXAMPLES, REFERENCE


def lower(src: str, **dims: int) -> Block:
    return compile_tile(src, "t.tile", dims=dims).program


def kernels(program: Block) -> list[Block | Special]:
    (main,) = sub_blocks(program)
    return [s for s in main.stmts if isinstance(s, (Block, Special))]


def only_kernel(program: Block) -> Block:
    (kernel,) = kernels(program)
    assert isinstance(kernel, Block)
    return kernel


# ---- against PlaidML's own lowering ---------------------------------------------------------


def _strip_comments(text: str) -> str:
    # Kernel names and comments differ by design (PlaidML prints its renamed temporaries).
    text = re.sub(r"\( // [^\n]*", "(", text)
    return re.sub(r"\n *// [^\n]*", "", text)


@pytest.mark.parametrize("name", ["matmul", "cumsum", "maxpool1d"])
def test_same_stripe_as_plaidml_up_to_names(name: str) -> None:
    folder = REFERENCE / name
    import numpy as np

    with np.load(folder / "inputs.npz") as data:
        shapes = {k: (DType.FP32, data[k].shape) for k in data.files}
    ours = compile_tile((folder / "program.tile").read_text(), "p.tile", shapes=shapes).program
    theirs = (folder / "stripe" / "00_initial.stripe").read_text()
    for tile_name, plaidml_name in json.loads((folder / "names.json").read_text()).items():
        theirs = re.sub(rf"\b{plaidml_name}\b", tile_name, theirs)
    assert _strip_comments(print_stripe(ours)).strip() == _strip_comments(theirs).strip()


# ---- structure ------------------------------------------------------------------------------


def test_program_main_and_refinements() -> None:
    program = lower("function (A[M], B[M]) -> (C) { T = A + B; C[i : M] = +(T[i]); }", M=3)
    assert program.name == "stripe_program"
    assert "program" in program.tags and program.tags.get("total_macs") == 0
    roots = {r.into: r for r in program.refs}
    assert {n: (r.dir, r.from_, r.offset, tuple(r.tags)) for n, r in roots.items()} == {
        "A": (RefDir.NONE, None, 0, ("user",)),
        "B": (RefDir.NONE, None, 0, ("user",)),
        "C": (RefDir.NONE, None, 0, ("user",)),
        "T": (RefDir.NONE, None, 0, ("tmp",)),
    }
    (main,) = sub_blocks(program)
    assert main.name == "main" and tuple(main.tags) == ("main",)
    dirs = {r.into: (r.dir, r.from_, tuple(r.tags)) for r in main.refs}
    assert dirs == {
        "A": (RefDir.IN, "A", ()),
        "B": (RefDir.IN, "B", ()),
        "C": (RefDir.OUT, "C", ()),
        "T": (RefDir.INOUT, "T", ("tmp",)),
    }
    names = [k.name for k in kernels(program) if isinstance(k, Block)]
    assert names == ["kernel_0(A,B)", "kernel_1(T)"]


def test_contraction_kernel() -> None:
    kernel = only_kernel(
        lower(
            "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }",
            M=4,
            K=3,
            N=2,
        )
    )
    assert set(kernel.tags) == {"agg_op_add", "comb_op_mul", "contraction", "kernel"}
    assert kernel.comments == ("C[m, n : M, N] = +(A[m, k] * B[k, n])",)
    assert kernel.idxs == (Index("k", 3), Index("m", 4), Index("n", 2))
    out = kernel.ref("C")
    assert out is not None and out.dir is RefDir.OUT and out.agg_op == "add"
    assert out.access == (Affine.var("m"), Affine.var("n"))
    assert out.shape.sizes == (1, 1) and out.shape.strides == (2, 1)
    a = kernel.ref("A")
    assert a is not None and a.dir is RefDir.IN and "contraction" in a.tags
    assert [type(s).__name__ for s in kernel.stmts] == ["Load", "Load", "Intrinsic", "Store"]


def test_single_input_contraction_uses_assign() -> None:
    src = "function (I[N]) -> (O) { O[i : N / 2] = >(I[2i + j]), j < 2; }"
    kernel = only_kernel(lower(src, N=8))
    assert set(kernel.tags) == {
        "agg_op_max",
        "agg_op_max_no_comb_op",
        "contraction",
        "kernel",
    }
    assert [getattr(s, "name", None) for s in kernel.stmts] == [None, "assign", None]
    # j < 2 and the bounds of I are implied by the box: no constraint is left.
    assert kernel.constraints == ()


def test_padding_constraints_and_index_shift() -> None:
    src = "function (I[N], K[KK]) -> (O) { O[x : N] = +(I[x + k - 1] * K[k]); }"
    kernel = only_kernel(lower(src, N=5, KK=3))
    assert kernel.constraints == (
        Constraint(Affine.of({"k": 1, "x": 1}, -1)),
        Constraint(Affine.of({"k": -1, "x": -1}, 5)),
    )
    shifted = only_kernel(lower("function (I[N]) -> (O) { O[i - 3 : N - 3] = +(I[i]); }", N=6))
    # i ranges over [3, 6): it is shifted to start at 0, the accesses absorb the offset.
    assert shifted.idxs == (Index("i", 3),)
    out, inp = shifted.ref("O"), shifted.ref("I")
    assert out is not None and out.access == (Affine.var("i"),)
    assert inp is not None and inp.access == (Affine.of({"i": 1}, 3),)


def test_zero_kernel_only_when_not_provably_covered() -> None:
    covered = lower("function (A[N]) -> (O) { O[i : N] = +(A[i]); }", N=4)
    assert len(kernels(covered)) == 1
    program = lower("function (A[N]) -> (O) { O[2 * i : 2 * N] = +(A[i]); }", N=4)
    zero, contraction = kernels(program)
    assert isinstance(zero, Block) and set(zero.tags) == {"kernel", "zero"}
    (special,) = zero.stmts
    assert isinstance(special, Special) and special.name == "zero"
    assert special.outputs == ("O",)
    assert isinstance(contraction, Block) and contraction.name == "kernel_1(A)"
    # Coverage is decided over the integers: 2i + j with j < 2 covers every element.
    pooled = lower("function (A[N]) -> (O) { O[2 * i + j : N] = +(A[i]), j < 2; }", N=4)
    assert len(kernels(pooled)) == 1


def test_default_copies_before_the_contraction() -> None:
    program = lower("function (A[N], D[M]) -> (O) { O[i + 1 : M] = +(A[i]) default D; }", N=3, M=5)
    copy, _ = kernels(program)
    assert isinstance(copy, Block) and set(copy.tags) == {"copy", "kernel"}
    (special,) = copy.stmts
    assert isinstance(special, Special) and special.name == "copy" and special.inputs == ("D",)


def test_eltwise_kernel_broadcasting() -> None:
    src = "function (A[X, Y], B[Y], C[X, 1]) -> (O) { O = A * B + C; }"
    kernel = only_kernel(lower(src, X=3, Y=4))
    assert set(kernel.tags) == {"eltwise", "eltwise_add", "eltwise_mul", "kernel"}
    assert kernel.idxs == (Index("i1", 3), Index("i2", 4))
    accesses = {r.into: r.access for r in kernel.refs}
    i1, i2 = Affine.var("i1"), Affine.var("i2")
    assert accesses == {"A": (i1, i2), "B": (i2,), "C": (i1, Affine()), "O": (i1, i2)}
    assert [type(s).__name__ for s in kernel.stmts] == [
        "Load",
        "Load",
        "Intrinsic",
        "Load",
        "Intrinsic",
        "Store",
    ]


def test_specials_are_statements_of_main() -> None:
    program = lower("function (A[N, M]) -> (R) { R = reshape(A, M, N); }", N=2, M=3)
    (special,) = kernels(program)
    assert isinstance(special, Special)
    assert (special.name, special.inputs, special.outputs) == ("reshape", ("A",), ("R",))


def test_pid_attribute_names_the_kernel_and_macs_are_counted() -> None:
    src = (
        "function (A[M, K], B[K, N]) -> (C) { [[pid(gemm)]] C[m, n : M, N] = +(A[m, k]*B[k, n]); }"
    )
    program = lower(src, M=4, K=3, N=2)
    assert only_kernel(program).name == "gemm"
    assert program.tags.get("total_macs") == 24


def test_lowering_is_deterministic() -> None:
    src = (
        (EXAMPLES / "conv2d_padded.tile").read_text()
        if (EXAMPLES / "conv2d_padded.tile").exists()
        else None
    )
    if src is None:
        pytest.skip("examples/conv2d_padded.tile absent")
    manifest = tomllib.loads((EXAMPLES / "examples.toml").read_text())
    dims = manifest["conv2d_padded"]["defines"]
    first = print_stripe(compile_tile(src, "c.tile", dims=dims).program)
    assert first == print_stripe(compile_tile(src, "c.tile", dims=dims).program)


def test_every_example_verifies() -> None:
    manifest = tomllib.loads((EXAMPLES / "examples.toml").read_text())
    assert manifest
    for name, spec in manifest.items():
        path = EXAMPLES / spec.get("file", f"{name}.tile")
        shapes = {
            k: (DType(v.get("dtype", "fp32")), tuple(v["shape"]))
            for k, v in spec.get("inputs", {}).items()
        }
        program = compile_tile(
            path.read_text(), str(path), dims=spec.get("defines", {}), shapes=shapes
        ).program
        assert [d.render() for d in verify(program)] == [], name


FILECHECK_CASES = {
    "conv_padding": (
        "function (I[N, H], K[KH]) -> (O) { O[n, x : N, H] = +(I[n, x + k - 1] * K[k]); }",
        {"N": 2, "H": 5, "KH": 3},
        """
        CHECK: #program #total_macs=30
        CHECK: #user none new@0x00000000 I[0, 0] fp32:I(2, 5):(5, 1)
        CHECK: #main
        CHECK: #agg_op_add #comb_op_mul #contraction #kernel
        CHECK-NEXT: block [k:3, n:2, x:5]:30 ( // kernel_0(I,K)
        CHECK-NEXT: // O[n, x : N, H] = +(I[n, x + k - 1] * K[k])
        CHECK-NEXT: -1 + k + x >= 0
        CHECK-NEXT: 5 - k - x >= 0
        CHECK-NEXT: #contraction in I[n, -1 + k + x] fp32:I(1, 1):(5, 1)
        CHECK-NEXT: #contraction in K[k] fp32:I(1):(1)
        CHECK-NEXT: out O[n, x]:add fp32:I(1, 1):(5, 1)
        CHECK: $O = mul($I, $K)
        CHECK-NEXT: O = store($O)
        """,
    ),
    "relu_eltwise": (
        "function (X[N]) -> (R) { R = X < 0 ? 0 : X; }",
        {"N": 4},
        """
        CHECK: #eltwise #eltwise_cmp_lt #eltwise_cond #kernel
        CHECK-NEXT: block [i1:4]:4 ( // kernel_0(X)
        CHECK-NEXT: // R = X < 0 ? 0 : X
        CHECK: $X = load(X)
        CHECK-NEXT: $c0 = (int)0
        CHECK-NEXT: $t1 = cmp_lt($X, $c0)
        CHECK-NEXT: $c2 = (int)0
        CHECK-NEXT: $R = cond($t1, $c2, $X)
        CHECK-NEXT: R = store($R)
        """,
    ),
    "zeroed_stride": (
        "function (A[N]) -> (O) { O[2 * i : 2 * N] = >(A[i]); }",
        {"N": 3},
        """
        CHECK: #kernel #zero
        CHECK-NEXT: block []:1 ( // zero(O)
        CHECK-NEXT: // Zero O
        CHECK-NEXT: out O[0] fp32:I(6):(1)
        CHECK: O = zero()
        CHECK: #agg_op_max #agg_op_max_no_comb_op #contraction #kernel
        CHECK-NEXT: block [i:3]:3 ( // kernel_1(A)
        CHECK: out O[2*i]:max
        """,
    ),
}


@pytest.mark.parametrize("case", sorted(FILECHECK_CASES))
def test_filecheck(case: str, tmp_path: Path) -> None:
    src, dims, checks = FILECHECK_CASES[case]
    text = print_stripe(lower(src, **dims))
    check_file = tmp_path / f"{case}.check"
    check_file.write_text("\n".join(line.strip() for line in checks.strip().splitlines()) + "\n")
    filecheck = shutil.which("filecheck", path=str(Path(sys.executable).parent)) or "filecheck"
    result = subprocess.run(
        [filecheck, str(check_file)], input=text, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr + "\n" + text
