"""The interpreter evaluates a block in chunks that fit its working set (plaidc.interp.chunks):
results equal the whole-block evaluation for every aggregation, and a program whose buffers
cannot fit is refused before anything is allocated."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from plaidc.cli import plaidc_main
from plaidc.interp import InterpError, run_program
from plaidc.interp.chunks import plan_chunks
from plaidc.interp.memory import WORKING_SET_ENV, point_bytes
from plaidc.stripe.ir import Block, DType, sub_blocks
from plaidc.tile import compile_tile

from .support.cli import run_cli
from .support.interp import aff, copy_kernel, idx, param, program, ref

RNG = np.random.default_rng(18)
_DTYPES = {np.dtype(np.float32): DType.FP32, np.dtype(np.int8): DType.I8}


def _compile(src: str, inputs: dict[str, np.ndarray]) -> Block:
    shapes = {k: (_DTYPES[v.dtype], v.shape) for k, v in inputs.items()}
    return compile_tile(src, "t.tile", shapes=shapes).program


def _kernels(block: Block) -> Iterator[Block]:
    for child in sub_blocks(block):
        if child.idxs:
            yield child
        yield from _kernels(child)


def _chunked(
    monkeypatch: pytest.MonkeyPatch, program: Block, inputs: dict[str, np.ndarray], points: int
) -> dict[str, np.ndarray]:
    """Run with a working set of about `points` points of the program's largest kernel."""
    per_point = max(point_bytes(k) for k in _kernels(program))
    with monkeypatch.context() as patch:
        patch.setenv(WORKING_SET_ENV, str(points * per_point))
        return run_program(program, inputs)


def _whole(program: Block, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return run_program(program, inputs)


def _kernel_chunks(program: Block, points: int) -> list[tuple[int, ...]]:
    """Each chunk of the program's (only) kernel as the sizes of its axes."""
    (kernel,) = _kernels(program)
    return [tuple(a.size for a in c.axes) for c in plan_chunks(kernel, 1, points, "k")]


MATMUL = "function (A[M, K], B[K, N]) -> (C) { C[m, n : M, N] = +(A[m, k] * B[k, n]); }"


def test_chunks_keep_reductions_whole_and_give_identical_floats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """k is declared first (indices are sorted), yet chunks split m and n and keep each
    32-term sum whole, so every rounding is the same as in one evaluation."""
    inputs = {"A": RNG.standard_normal((8, 32), np.float32)}
    inputs["B"] = RNG.standard_normal((32, 6), np.float32)
    program = _compile(MATMUL, inputs)
    assert _kernel_chunks(program, 100) == [(1, 1, 3, 32), (1, 1, 3, 32)] * 8
    whole = _whole(program, inputs)["C"]
    np.testing.assert_array_equal(_chunked(monkeypatch, program, inputs, 100)["C"], whole)
    np.testing.assert_allclose(whole, inputs["A"] @ inputs["B"], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("agg", ["+", "*", ">", "<"])
def test_a_reduction_split_across_chunks_matches_one_evaluation(
    agg: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chunks of 5 points cut each 40-term reduction into 8 partials that are combined."""
    # small integers in fp32: every sum and product is exact, so any order gives one answer
    a = RNG.integers(-2, 3, (3, 40)).astype(np.float32)
    b = RNG.choice(np.array([-1.0, 1.0], np.float32), (40, 2))
    program = _compile(MATMUL.replace("+(", f"{agg}("), {"A": a, "B": b})
    assert _kernel_chunks(program, 5)[:2] == [(1, 1, 1, 5), (1, 1, 1, 5)]
    whole = _whole(program, {"A": a, "B": b})["C"]
    chunked = _chunked(monkeypatch, program, {"A": a, "B": b}, 5)["C"]
    np.testing.assert_array_equal(chunked, whole)
    products = a[:, :, None] * b[None, :, :]
    expected = {"+": np.sum, "*": np.prod, ">": np.max, "<": np.min}[agg](products, axis=1)
    np.testing.assert_array_equal(whole, expected)


def test_a_long_fp32_sum_split_across_chunks_stays_accurate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """200000 terms in chunks of 4096: pairwise within a chunk, 49 partials in order."""
    a = RNG.standard_normal((1, 200_000)).astype(np.float32) + np.float32(1)
    program = _compile("function (A[M, K]) -> (C) { C[m : M] = +(A[m, k]); }", {"A": a})
    chunked = _chunked(monkeypatch, program, {"A": a}, 4096)["C"]
    exact = a.astype(np.float64).sum(axis=1)
    np.testing.assert_allclose(chunked, exact, rtol=2e-7)
    np.testing.assert_allclose(chunked, _whole(program, {"A": a})["C"], rtol=2e-7)


def test_conv_with_constraints_in_chunks_matches_one_evaluation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Padding constraints drop points differently in every chunk."""
    x = RNG.standard_normal((2, 7, 3)).astype(np.float32)
    w = RNG.standard_normal((3, 3, 4)).astype(np.float32)
    src = """function (I[N, X, CI], K[KX, CI, CO]) -> (O) {
      O[n, x, co : N, X, CO] = +(I[n, x + kx - 1, ci] * K[kx, ci, co]);
    }"""
    program = _compile(src, {"I": x, "K": w})
    (kernel,) = _kernels(program)
    assert kernel.constraints
    whole = _whole(program, {"I": x, "K": w})["O"]
    for points in (9, 4, 1):  # whole reductions of 9 terms, then split ones
        chunked = _chunked(monkeypatch, program, {"I": x, "K": w}, points)["O"]
        np.testing.assert_allclose(chunked, whole, rtol=1e-6, atol=1e-6)
    padded = np.pad(x, ((0, 0), (1, 1), (0, 0)))
    expected = sum(np.einsum("nxc,cd->nxd", padded[:, i : i + 7], w[i]) for i in range(3))
    np.testing.assert_allclose(whole, expected, rtol=1e-5, atol=1e-5)


def test_an_i8_sum_wraps_the_same_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    a = RNG.integers(60, 127, (4, 30)).astype(np.int8)
    program = _compile("function (A[M, K]) -> (C) { C[m : M] = +(A[m, k]); }", {"A": a})
    whole = _whole(program, {"A": a})["C"]
    assert whole.dtype == np.int8
    np.testing.assert_array_equal(whole, a.astype(np.int64).sum(axis=1).astype(np.int8))
    for points in (7, 2):
        np.testing.assert_array_equal(_chunked(monkeypatch, program, {"A": a}, points)["C"], whole)


def test_several_kernels_and_temporaries_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """TILE.md's softmax: max, exp, sum and a division through temporaries, in chunks."""
    x = RNG.standard_normal((5, 33)).astype(np.float32)
    src = """function (X[B, N]) -> (Y) {
      M[b, 0 : B, 1] = >(X[b, n]);  E = exp(X - M);  S[b, 0 : B, 1] = +(E[b, n]);  Y = E / S;
    }"""
    program = _compile(src, {"X": x})
    whole = _whole(program, {"X": x})["Y"]
    for points in (40, 3):
        chunked = _chunked(monkeypatch, program, {"X": x}, points)["Y"]
        np.testing.assert_allclose(chunked, whole, rtol=1e-6)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(whole, e / e.sum(axis=1, keepdims=True), rtol=1e-5)


def test_assign_in_chunks_keeps_its_conflict_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """Distinct elements assigned from different chunks are fine; one element assigned from
    two chunks is a clash, found when the chunks' results are combined."""
    data = np.arange(6, dtype=np.float32)
    reverse = copy_kernel(
        "reverse", [idx("i", 6)], ref("in", "I", ["i"], [1]), ref("out", "O", [aff(5, i=-1)], [1])
    )
    prog = program([param("in", "I", [6]), param("out", "O", [6])], [reverse])
    np.testing.assert_array_equal(_chunked(monkeypatch, prog, {"I": data}, 1)["O"], data[::-1])
    clash = copy_kernel(
        "clash", [idx("i", 6)], ref("in", "I", ["i"], [1]), ref("out", "O", [0], [1], agg="assign")
    )
    prog = program([param("in", "I", [6]), param("out", "O", [1])], [clash])
    with pytest.raises(InterpError, match=r"clash: refinement 'O' \(assign\) is stored by more"):
        _chunked(monkeypatch, prog, {"I": data}, 1)


def test_a_bad_working_set_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    a = np.ones((2, 2), np.float32)
    program = _compile(MATMUL, {"A": a, "B": a})
    for good in ("64M", "1k", "4096", "2GiB"):
        monkeypatch.setenv(WORKING_SET_ENV, good)
        np.testing.assert_array_equal(run_program(program, {"A": a, "B": a})["C"], a + a)
    monkeypatch.setenv(WORKING_SET_ENV, "lots")
    with pytest.raises(InterpError, match=rf"{WORKING_SET_ENV}='lots': expected a positive size"):
        run_program(program, {"A": a, "B": a})


def test_buffers_larger_than_memory_are_refused_before_a_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    a = np.ones((256, 256), np.float32)  # A, B and C: 256 KiB each
    program = _compile(MATMUL, {"A": a, "B": a})
    monkeypatch.setattr("plaidc.interp.memory.available_memory", lambda: 700 * 1024)
    with pytest.raises(InterpError) as err:
        run_program(program, {"A": a, "B": a})
    assert str(err.value) == (
        "the program's buffers need 768 KiB (buffer 'C' alone takes 256 KiB) and this machine"
        " has 700 KiB of memory available"
    )
    monkeypatch.setattr("plaidc.interp.memory.available_memory", lambda: 768 * 1024)
    assert run_program(program, {"A": a, "B": a})["C"][0, 0] == 256


def test_the_refusal_exits_1_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver's own check passes (its parameters fit); the interpreter's refuses."""
    monkeypatch.setattr("plaidc.interp.memory.available_memory", lambda: 2**19)
    (tmp_path / "mm.tile").write_text(MATMUL)
    dims = ["-D", "M=256", "-D", "K=256", "-D", "N=256"]
    code, _, err = run_cli(plaidc_main, ["run", "mm.tile", *dims, "--random-inputs", "1"], tmp_path)
    assert code == 1, err
    assert "error: the program's buffers need 768 KiB" in err
    assert "Traceback" not in err


def test_chunk_results_are_combined_as_they_come() -> None:
    """Partial sums of the same 100 elements from 50 chunks are combined along the way, so
    what is kept stays near one copy of the elements (the 1024^3 matmul kept every batch's)."""
    from plaidc.interp.aggregate import Partials
    from plaidc.interp.frames import Buffer, View, Writes

    from .support.interp import ref as make_ref

    out = make_ref("out", "O", [0], [100], agg="add")
    view = View(out, Buffer("O", DType.FP32, np.zeros(100, np.float32)), np.zeros(1, np.int64))
    partials = Partials("p", out, view, max_rows=150)
    addr = np.arange(100, dtype=np.int64)
    for _ in range(50):
        partials.add(Writes(np.zeros(100, np.int64), addr, np.full(100, 0.5, np.float32)))
        assert sum(part.addr.size for part in partials._parts) <= 300
    np.testing.assert_array_equal(partials.combined().value, np.full(100, 25.0, np.float32))
