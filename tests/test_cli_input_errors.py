"""Malformed user input through the CLI: exit 1 (2 for usage) with a located message, never
an internal error (found by fuzzing the command line)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from plaidc.cli import plaidc_main, plaidc_opt_main

from .support.cli import MATMUL_STRIPE, run_cli

MM_TILE = "function (A[M, K], B[K, N]) -> (C) {\n  C[m, n : M, N] = +(A[m, k] * B[k, n]);\n}\n"
DIMS = ["-D", "M=3", "-D", "K=4", "-D", "N=5"]


def test_invalid_utf8_is_located_at_the_bad_byte(tmp_path: Path) -> None:
    (tmp_path / "bad.tile").write_bytes(MM_TILE.encode().replace(b"+(A", b"+(\xc3\xa9\xff"))
    code, _, err = run_cli(plaidc_main, ["compile", "bad.tile", *DIMS], tmp_path)
    assert code == 1, err
    lines = err.splitlines()
    assert (
        lines[0] == "bad.tile:2:23: error: not valid UTF-8 (byte 0xff); source files must be UTF-8"
    )
    assert lines[2] == " " * 22 + "^"


def test_invalid_utf8_in_stripe_and_config(tmp_path: Path) -> None:
    (tmp_path / "bad.stripe").write_bytes(b"\xfe" + MATMUL_STRIPE.read_bytes())
    code, _, err = run_cli(plaidc_opt_main, ["bad.stripe"], tmp_path)
    assert code == 1 and err.startswith("bad.stripe:1:1: error: not valid UTF-8 (byte 0xfe)")
    (tmp_path / "chip.toml").write_bytes(b'[target]\nname = "c\x80"\nbackend = "interp"\n')
    code, _, err = run_cli(plaidc_opt_main, [str(MATMUL_STRIPE), "--config", "chip.toml"], tmp_path)
    assert code == 1 and err.startswith("chip.toml:2:10: error: not valid UTF-8 (byte 0x80)")


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "bom.tile").write_bytes(b"\xef\xbb\xbf" + MM_TILE.encode())
    code, out, err = run_cli(
        plaidc_main, ["compile", "bom.tile", *DIMS, "--emit", "stripe"], tmp_path
    )
    assert code == 0, err
    assert "block" in out


def _tile(expr: str) -> str:
    return f"function (A[N]) -> (C) {{\n  C = {expr};\n}}\n"


def test_deeply_nested_expressions_are_a_located_error(tmp_path: Path) -> None:
    """Every stage walks expressions recursively: nesting is limited, not a RecursionError."""
    from plaidc.tile.parser import MAX_NESTING

    cases = {
        "neg": "-" * 5000 + "A",
        "call": "exp(" * 3000 + "A" + ")" * 3000,
        "chain": " + ".join(["A"] * 20000),
        "cond": "A > 0 ? " * (MAX_NESTING + 1) + "A" + " : A" * (MAX_NESTING + 1),
    }
    for name, expr in cases.items():
        (tmp_path / f"{name}.tile").write_text(_tile(expr))
        code, _, err = run_cli(plaidc_main, ["compile", f"{name}.tile", "-D", "N=4"], tmp_path)
        assert code == 1, (name, err[:300])
        assert err.startswith(f"{name}.tile:2:") and "expression nested too deeply" in err
    # the first operator past the limit: the 101st unary minus
    code, _, err = run_cli(plaidc_main, ["compile", "neg.tile", "-D", "N=4"], tmp_path)
    assert err.startswith(f"neg.tile:2:{6 + MAX_NESTING + 1}: error:")


def test_nesting_up_to_the_limit_compiles_and_runs(tmp_path: Path) -> None:
    from plaidc.tile.parser import MAX_NESTING

    (tmp_path / "deep.tile").write_text(
        _tile("exp(" * (MAX_NESTING - 1) + "-A" + ")" * (MAX_NESTING - 1))
    )
    args = ["run", "deep.tile", "-t", "c", "--shape", "A=fp32[4]", "--random-inputs", "1"]
    code, _, err = run_cli(plaidc_main, [*args, "--check"], tmp_path)
    assert code == 0, err[:500]


@pytest.mark.parametrize(
    ("main", "args", "path"),
    [
        (plaidc_main, ["compile", "mm.tile", *DIMS, "-o", "afile/x.stripe"], "afile/x.stripe"),
        (plaidc_main, ["compile", "mm.tile", *DIMS, "-o", "adir"], "adir"),
        (plaidc_main, ["compile", "mm.tile", *DIMS, "-t", "c", "-o", "adir"], "adir"),
        (plaidc_main, ["compile", "mm.tile", *DIMS, "--dump-dir", "afile/d"], "afile/d"),
        (
            plaidc_main,
            ["compile", "mm.tile", *DIMS, "-t", "c", "--emit", "lib", "-o", "afile/x.so"],
            "afile/x.so",
        ),
        (plaidc_opt_main, [str(MATMUL_STRIPE), "-o", "afile/x.stripe"], "afile/x.stripe"),
        (plaidc_opt_main, [str(MATMUL_STRIPE), "--dump-dir", "afile/d"], "afile/d"),
        (
            plaidc_main,
            ["run", "mm.tile", *DIMS, "--random-inputs", "1", "--output-dir", "afile/o"],
            "afile/o",
        ),
        (
            plaidc_main,
            ["run", "mm.tile", *DIMS, "-t", "npu", "--random-inputs", "1", "--report", "adir"],
            "adir",
        ),
    ],
)
def test_unwritable_outputs_are_user_errors(
    main: object, args: list[str], path: str, tmp_path: Path
) -> None:
    (tmp_path / "mm.tile").write_text(MM_TILE)
    (tmp_path / "afile").write_text("not a directory\n")
    (tmp_path / "adir").mkdir()
    code, _, err = run_cli(main, args, tmp_path)
    assert code == 1, err
    assert err.startswith(f"error: cannot write '{path}': "), err


def test_bad_npy_inputs_name_the_file(tmp_path: Path) -> None:
    (tmp_path / "mm.tile").write_text(MM_TILE)
    (tmp_path / "empty.npy").write_bytes(b"")
    np.savez(tmp_path / "arch.npz", A=np.zeros((3, 4), np.float32))
    (tmp_path / "arch.npz").rename(tmp_path / "arch.npy")
    np.save(tmp_path / "b.npy", np.zeros((4, 5), np.float32))
    for name, why in [
        ("empty.npy", "the file is empty or truncated"),
        ("arch.npy", "it is an .npz archive, not a .npy array"),
    ]:
        args = ["run", "mm.tile", "--input", f"A={name}", "--input", "B=b.npy"]
        code, _, err = run_cli(plaidc_main, args, tmp_path)
        assert code == 1, err
        assert err.strip() == f"error: cannot read input 'A' from '{name}': {why}"


def test_an_enumerated_pass_option_is_checked_before_any_pass_runs(tmp_path: Path) -> None:
    args = [str(MATMUL_STRIPE), "--pass", "transpose{hot=frob}"]
    code, out, err = run_cli(plaidc_opt_main, args, tmp_path)
    assert code == 2 and not out, err
    assert 'pass \'transpose\': option \'hot\': expected "output" or "largest", got "frob"' in err


LIMIT = "(sizes, ranges, strides and element counts must be below 2^40)"


def test_huge_tile_sizes_are_located_errors(tmp_path: Path) -> None:
    (tmp_path / "mm.tile").write_text(MM_TILE)
    (tmp_path / "lit.tile").write_text(
        "function (A[99999999999999999999999999]) -> (C) {\n  C = A;\n}\n"
    )
    big = "-D", "M=" + "9" * 40
    cases = [
        (["lit.tile"], "lit.tile:1:13: error: size 0 of A is out of range: " + "9" * 26),
        (["mm.tile", *big, "-D", "K=4", "-D", "N=5"], "mm.tile:1:13: error: size 0 of A (M)"),
        (
            ["mm.tile", "--shape", "A=fp32[1048576,1048576]", "-D", "K=1048576", "-D", "N=5"],
            "mm.tile:1:11: error: the element count of A [1048576, 1048576] is out of range",
        ),
    ]
    for args, start in cases:
        code, _, err = run_cli(plaidc_main, ["compile", *args, "-t", "c", "--emit", "c"], tmp_path)
        assert code == 1, err
        assert err.startswith(start) and LIMIT in err.splitlines()[0], err


def test_a_negative_size_from_d_is_a_located_error(tmp_path: Path) -> None:
    """`-D N=-3` used to compile to Stripe with `I(-3)` and crash `run` (numpy refused the
    input); it is an error at the dimension, for every command."""
    (tmp_path / "id.tile").write_text("function (A[N]) -> (O) { O = A; }\n")
    for args in (
        ["compile", "id.tile", "--emit", "stripe"],
        ["run", "id.tile", "--random-inputs", "0"],
    ):
        code, _, err = run_cli(plaidc_main, [*args, "-D", "N=-3"], tmp_path)
        assert code == 1, err
        assert err.startswith("id.tile:1:13: error: size 0 of A (N) is negative: -3\n"), err
        assert "Traceback" not in err


def test_huge_stripe_ranges_are_located_errors(tmp_path: Path) -> None:
    text = MATMUL_STRIPE.read_text()
    (tmp_path / "k.stripe").write_text(text.replace("k:48", "k:" + "9" * 29, 1))
    assert (tmp_path / "k.stripe").read_text() != text
    code, _, err = run_cli(plaidc_opt_main, ["k.stripe"], tmp_path)
    assert code == 1, err
    assert "error: range of index 'k' is out of range: " + "9" * 29 in err and LIMIT in err
    assert err.splitlines()[0].startswith("k.stripe:") and err.splitlines()[2].endswith("^")


def test_autotile_searches_a_huge_range_without_listing_it(tmp_path: Path) -> None:
    from plaidc.passes.autotile_cost import AutotileOptions, _sizes_for

    sizes = _sizes_for(10**12, AutotileOptions(), output=False)
    assert len(sizes) == 10**12 and sizes[-1] == 10**12
    divisors = _sizes_for(10**12, AutotileOptions(only_even=True), output=False)
    assert len(divisors) == 169 and divisors[:4] == [1, 2, 4, 5] and divisors[-1] == 10**12


def test_an_allocation_too_big_for_memory_is_a_user_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        np.empty((2**20, 2**30), np.float32)  # 4 PiB: numpy refuses

    monkeypatch.setattr("plaidc.interp.run_program", refuse)
    (tmp_path / "mm.tile").write_text(MM_TILE)
    code, _, err = run_cli(plaidc_main, ["run", "mm.tile", *DIMS, "--random-inputs", "1"], tmp_path)
    assert code == 1, err
    assert err.strip() == (
        "error: not enough memory: an array of shape (1048576, 1073741824) (float32) needs "
        "4194304.0 GiB"
    )


def test_parameters_larger_than_the_memory_are_refused_before_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inputs and outputs that cannot fit are an error before any is filled (the process was
    killed with exit 137 while drawing random 100000 x 100000 inputs)."""
    monkeypatch.setattr("plaidc.driver.available_memory", lambda: 2**19)
    (tmp_path / "mm.tile").write_text(MM_TILE)
    dims = ["-D", "M=256", "-D", "K=256", "-D", "N=256"]  # three 256 KiB parameters
    code, _, err = run_cli(plaidc_main, ["run", "mm.tile", *dims, "--random-inputs", "1"], tmp_path)
    assert code == 1, err
    assert err.strip() == (
        "error: the program's inputs and outputs take 768 KiB and this machine has 512 KiB of "
        "memory available"
    )
    small = ["-D", "M=128", "-D", "K=256", "-D", "N=256"]  # 128 + 256 + 128 KiB: they fit
    code, _, err = run_cli(
        plaidc_main, ["run", "mm.tile", *small, "--random-inputs", "1"], tmp_path
    )
    assert code == 0, err


def test_random_fp32_inputs_are_drawn_as_fp32() -> None:
    from plaidc.driver import random_inputs
    from plaidc.stripe.ir import DType, TensorShape

    shapes = {"A": TensorShape(DType.FP32, (1000,), (1,)), "B": TensorShape(DType.I8, (9,), (1,))}
    inputs = random_inputs(shapes, 3)
    assert inputs["A"].dtype == np.float32 and inputs["B"].dtype == np.int8
    assert -1 <= inputs["A"].min() < -0.9 and 0.9 < inputs["A"].max() < 1
    assert set(inputs["B"].tolist()) <= {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "partition-compute{num_parts=-3}",
            "pass 'partition-compute': option 'num_parts': expected an integer >= 1, got -3",
        ),
        (
            "partition-memory{num_parts=0}",
            "pass 'partition-memory': option 'num_parts': expected an integer >= 1, got 0",
        ),
        (
            "thread-inner{threads=-2}",
            "pass 'thread-inner': option 'threads': expected an integer >= 0, got -2",
        ),
        (
            "unroll{max_copies=-1}",
            "pass 'unroll': option 'max_copies': expected an integer >= 0, got -1",
        ),
        (
            "autotile{reqs=[contraction}",
            "pass spec 'autotile{reqs=[contraction}': '[' without a matching ']'",
        ),
        ("autotile{reqs=contraction]}", "']' without a matching '['"),
        ("autotile{reqs='contraction}", "unterminated ' quote"),
        (
            "autotile{max_total_size=64,max_total_size=128}",
            "pass 'autotile': option 'max_total_size' is given twice",
        ),
    ],
)
def test_bad_pass_options_are_rejected(spec: str, message: str, tmp_path: Path) -> None:
    """A malformed --pass is a usage error (ARCHITECTURE.md): exit 2, click's usage message."""
    code, _, err = run_cli(plaidc_opt_main, [str(MATMUL_STRIPE), "--pass", spec], tmp_path)
    assert code == 2, err
    assert err.startswith("Usage: plaidc-opt ")
    last = err.splitlines()[-1]
    assert last.startswith("Error: Invalid value for '--pass': ") and message in last


def test_a_dimension_bound_twice_differently_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "mm.tile").write_text(MM_TILE)
    args = ["compile", "mm.tile", *DIMS, "--emit", "stripe"]
    code, _, err = run_cli(plaidc_main, [*args, "-D", "M=4"], tmp_path)
    assert code == 2 and "M is bound twice, to 3 and to 4" in err
    code, _, err = run_cli(plaidc_main, [*args, "-D", "M=3"], tmp_path)  # the same value: fine
    assert code == 0, err


def test_an_empty_target_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "mm.tile").write_text(MM_TILE)
    args = ["run", "mm.tile", *DIMS, "-t", "", "--random-inputs", "1"]
    code, _, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 2 and "Invalid value for '-t' / '--target': must not be empty" in err
    code, _, err = run_cli(plaidc_opt_main, [str(MATMUL_STRIPE), "-t", " "], tmp_path)
    assert code == 2 and "must not be empty" in err


def test_config_errors_show_the_line_and_caret(tmp_path: Path) -> None:
    """In `compile` and `run` too (only plaidc-opt rendered the config's line), and for the
    errors a backend finds in [codegen]."""
    from plaidc.targets import load_target

    (tmp_path / "mm.tile").write_text(MM_TILE)
    c_toml = load_target("c").source
    (tmp_path / "syntax.toml").write_text(c_toml.replace("[hardware]\n", "[hardware]\nx = = 1\n"))
    code, _, err = run_cli(
        plaidc_main, ["compile", "mm.tile", *DIMS, "--config", "syntax.toml"], tmp_path
    )
    assert code == 1
    line = c_toml.splitlines().index("[hardware]") + 2
    assert err.splitlines() == [
        f"syntax.toml:{line}:5: error: invalid TOML: Invalid value",
        "x = = 1",
        "    ^",
    ]
    lines = c_toml.splitlines()
    number = lines.index("[codegen]") + 1
    lines.insert(number, "threads = 0")
    (tmp_path / "threads.toml").write_text("\n".join(lines))
    args = ["run", "mm.tile", *DIMS, "--config", "threads.toml", "--random-inputs", "1"]
    code, _, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 1
    assert err.splitlines()[0].startswith(f"threads.toml:{number + 1}:1: error: ")
    assert "[codegen] 'threads' must be an integer >= 1, not 0" in err
    assert err.splitlines()[1:] == ["threads = 0", "^"]
    lines = c_toml.splitlines()
    number = max(i for i, line in enumerate(lines) if line.startswith("vector_bytes ="))
    lines[number] = "vector_bytes = 24"  # six fp32 lanes: not a C or OpenCL vector type
    (tmp_path / "vec.toml").write_text("\n".join(lines))
    args = ["run", "mm.tile", *DIMS, "--config", "vec.toml", "--random-inputs", "1"]
    code, _, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 1, err
    assert "[codegen] 'vector_bytes' must be a power of two, not 24" in err


def _stripe_error(text: str) -> str:
    from plaidc.diagnostics import CompileError
    from plaidc.stripe.parser import parse_stripe

    with pytest.raises(CompileError) as info:
        parse_stripe(text, "x.stripe")
    return str(info.value)


def test_intrinsic_arity_is_a_located_verifier_error(tmp_path: Path) -> None:
    text = MATMUL_STRIPE.read_text()
    assert "mul($X_I_0, $X_I_1)" in text
    line = text[: text.index("mul($X_I_0, $X_I_1)")].count("\n") + 1
    (tmp_path / "x.stripe").write_text(text.replace("mul($X_I_0, $X_I_1)", "mul($X_I_0)"))
    code, _, err = run_cli(plaidc_main, ["run", "x.stripe", "--random-inputs", "1"], tmp_path)
    assert code == 1, err
    assert err.startswith(f"x.stripe:{line}:10: error: ")
    assert "intrinsic 'mul' takes 2 inputs, got 1" in err.splitlines()[0]
    assert err.splitlines()[2] == " " * 9 + "^"


def test_syntax_errors_name_tokens_not_lark_terminals() -> None:
    text = MATMUL_STRIPE.read_text()
    cut = text.replace(":I(", ":I", 1)
    err = _stripe_error(cut)
    assert "expected '(', ':I('" in err and "anon" not in err
    skewed = _stripe_error(text.replace("in X_I_0[m, k]", "in X_I_0[m, 3k]", 1))
    assert "expected ')', '*', '+', ',', '-', '>=', ..." in skewed
    assert not any(w in skewed for w in ("anon", "minus", "plus"))


def test_check_mismatch_prints_plain_numbers() -> None:
    from plaidc.driver import compare_outputs

    got = {"C": np.array([[np.nan, 1.0]], np.float32)}
    want = {"C": np.array([[4000000.0, 1.0]], np.float32)}
    (mismatch,) = compare_outputs(want, got)
    assert mismatch.message == (
        "output 'C' differs at 1 of 2 elements; worst at (0, 0): got nan, expected 4000000 "
        "(rtol 0.0001, atol 1e-05)"
    )


def test_a_negative_shape_size_says_so(tmp_path: Path) -> None:
    (tmp_path / "mm.tile").write_text(MM_TILE)
    for shape, why in [
        ("A=fp32[-3,4]", "size -3 is negative"),
        ("A=fp32[3-,4]", "integers"),
        ("A=fp32[3,,4]", "integers"),  # an empty size was dropped: A bound as fp32[3, 4]
    ]:
        args = ["compile", "mm.tile", *DIMS, "--shape", shape]
        code, _, err = run_cli(plaidc_main, args, tmp_path)
        assert code == 2, err  # a malformed option value: a usage error
        assert err.splitlines()[-1].startswith(f"Error: Invalid value for '--shape': '{shape}': ")
        assert why in err


@pytest.mark.parametrize("define", ["=3", "M=٣", "M N=3", "M=3.0"])
def test_a_define_needs_a_name_and_ascii_digits(define: str, tmp_path: Path) -> None:
    """`-D =3` bound an empty name; `-D M=٣` (an Arabic-Indic three) bound M = 3."""
    (tmp_path / "mm.tile").write_text(MM_TILE)
    code, _, err = run_cli(plaidc_main, ["compile", "mm.tile", "-D", define], tmp_path)
    assert code == 2 and f"'{define}' should be NAME=INT" in err


def test_an_empty_interior_shape_is_located_at_the_refinement(tmp_path: Path) -> None:
    """`I():(48, 1)` has no first size to point at: the error points at the refinement's name."""
    text = MATMUL_STRIPE.read_text()
    assert "X_I_0[0, 0] fp32:I(64, 48):(48, 1)" in text.splitlines()[2]
    (tmp_path / "x.stripe").write_text(text.replace("fp32:I(64, 48)", "fp32:I()", 1))
    code, _, err = run_cli(plaidc_opt_main, ["x.stripe"], tmp_path)
    assert code == 1, err
    lines = err.splitlines()
    assert lines[0] == "x.stripe:3:31: error: refinement 'X_I_0': 0 sizes but 2 strides"
    assert lines[2] == " " * 30 + "^"


def test_a_negative_seed_is_a_usage_error(tmp_path: Path) -> None:
    """numpy takes only non-negative seeds (a ValueError, reported as an internal error)."""
    (tmp_path / "mm.tile").write_text(MM_TILE)
    code, _, err = run_cli(
        plaidc_main, ["run", "mm.tile", *DIMS, "--random-inputs", "-1"], tmp_path
    )
    assert code == 2, err
    assert err.splitlines()[-1] == (
        "Error: Invalid value for '--random-inputs': -1 is not in the range x>=0."
    )
    code, _, err = run_cli(
        plaidc_opt_main, [str(MATMUL_STRIPE), "--check", "--seed", "-1"], tmp_path
    )
    assert code == 2, err
    assert err.splitlines()[-1] == "Error: Invalid value for '--seed': -1 is not in the range x>=0."


def _npy_with_header(path: Path, header: str) -> None:
    """A version 1.0 .npy file with `header` (padded as numpy pads it) and a few data bytes."""
    text = header.encode("latin1")
    pad = -(10 + len(text) + 1) % 64
    text += b" " * pad + b"\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text + b"\0" * 16)


@pytest.mark.parametrize(
    ("shape", "why"),
    [
        ("(3, 4), ", "its .npy header is malformed (not a complete dictionary literal)"),
        ("(-3, 4), }", "its header declares shape (-3, 4), with a negative size"),
        (
            "(100000000000, 100000000000), }",
            "the element count of its shape (100000000000, 100000000000) is out of range: "
            "10000000000000000000000 (sizes, ranges, strides and element counts must be below "
            "2^40)",
        ),
        ("(True, 4), }", "an integer is required"),
    ],
)
def test_malformed_npy_headers_are_user_errors(shape: str, why: str, tmp_path: Path) -> None:
    """numpy's header parser raised TokenError / TypeError (internal errors), and multiplied a
    huge shape into an overflowed element count before failing to allocate it."""
    _npy_with_header(
        tmp_path / "a.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape
    )
    np.save(tmp_path / "b.npy", np.ones((4, 5), np.float32))
    (tmp_path / "mm.tile").write_text(MM_TILE)
    args = ["run", "mm.tile", "--input", "A=a.npy", "--input", "B=b.npy"]
    code, _, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 1, err
    assert err.splitlines()[0] == f"error: cannot read input 'A' from 'a.npy': {why}"


@pytest.mark.parametrize(
    ("target", "setting", "message"),
    [
        ("c", "omp_wait_policy = 3", '\'omp_wait_policy\' must be "active" or "passive", not 3'),
        (
            "llvm",
            'omp_wait_policy = "x"',
            "'omp_wait_policy' must be \"active\" or \"passive\", not 'x'",
        ),
        ("c", "cc = 3", "'cc' must be a program name, not 3"),
    ],
)
def test_c_and_llvm_codegen_strings_are_checked(
    target: str, setting: str, message: str, tmp_path: Path
) -> None:
    """A non-string omp_wait_policy or cc was a TypeError (an internal error)."""
    from plaidc.targets import load_target

    lines = load_target(target).source.splitlines()
    key = setting.split(" =")[0]
    same = [i for i, line in enumerate(lines) if line.startswith(f"{key} =")]
    at = same[0] if same else lines.index("[codegen]") + 1
    lines[at : at + bool(same)] = [setting]
    (tmp_path / "t.toml").write_text("\n".join(lines) + "\n")
    (tmp_path / "mm.tile").write_text(MM_TILE)
    args = ["run", "mm.tile", *DIMS, "--config", "t.toml", "--random-inputs", "1"]
    code, _, err = run_cli(plaidc_main, args, tmp_path)
    assert code == 1, err
    assert err.splitlines()[0] == f"t.toml:{at + 1}:1: error: [codegen] {message}"
