"""The LLVM backend against the interpreter: the same programs as `test_backend_c.py`
(every example, every PlaidML dump stage, every op-library program) on `-t llvm`, plus the
micro-kernel cases and LLVM-specific checks (the IR verifies, `--emit lib` links)."""

from __future__ import annotations

import re
from pathlib import Path

import llvmlite.binding as llvm
import numpy as np
import pytest

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.interp import program_io
from plaidc.stripe.parser import parse_stripe
from plaidc.targets import load_target, parse_config

from .support.backend_c import (
    GEMM_CASES,
    PIPELINED,
    PROGRAMS,
    check_program,
    compile_and_compare,
    load_program,
    pipelined,
    tiled_matmul,
)


@pytest.mark.parametrize("program_id", PROGRAMS + PIPELINED)
def test_llvm_matches_interpreter(program_id: str) -> None:
    check_program("llvm", program_id)


@pytest.mark.parametrize("case", GEMM_CASES, ids=lambda c: "x".join(map(str, c)))
def test_llvm_gemm_micro_kernel(case: tuple[int, int, int, int, int, str]) -> None:
    m, n, k, mt, kt, dtype = case
    program = parse_stripe(tiled_matmul(m, n, k, mt, kt, dtype), "tiled.stripe")
    inputs = driver.random_inputs(program_io(program).inputs, seed=1)
    got = compile_and_compare("llvm", program, inputs)
    np.testing.assert_allclose(got["C"], inputs["A"] @ inputs["B"], rtol=1e-4, atol=1e-4)


def test_llvm_ir_verifies_and_uses_vectors() -> None:
    artifact = get_backend("llvm").compile(
        parse_stripe(tiled_matmul(32, 64, 16, 2, 2), "tiled.stripe"), load_target("llvm")
    )
    module = llvm.parse_assembly(artifact.source)
    module.verify()
    assert "<16 x float>" in artifact.source, "the micro-kernel works on 64-byte vectors"
    assert "GOMP_parallel" in artifact.source, "the #cpu_thread block runs on threads"


def test_llvm_reductions_are_reassociable() -> None:
    source = (
        get_backend("llvm")
        .compile(load_program("softmax/15_prune_refs"), load_target("llvm"))
        .source
    )
    assert "fadd reassoc float" in source


def test_llvm_save_library(tmp_path: Path) -> None:
    artifact = get_backend("llvm").compile(
        load_program("softmax/15_prune_refs"), load_target("llvm")
    )
    target = tmp_path / "softmax.so"
    artifact.save_library(target)
    assert target.read_bytes()[:4] == b"\x7fELF"


def test_llvm_vector_loops_stay_unit_stride() -> None:
    """Plan loops marked `vector` carry loop metadata that keeps LLVM from fully unrolling a
    short innermost loop before vectorising: without it, a tiled convolution's 16-lane
    channel loop was unrolled and the loop around it vectorised with gathers (10x slower)."""
    from plaidc.backends.llvm.jit import optimised_ir

    program = pipelined(load_program("tile/conv2d_bias_relu"), "llvm")
    # the generic loops, not the GEMM micro-kernel (whose A packing is a transpose that LLVM
    # may well gather)
    text = load_target("llvm").source
    generic = parse_config(re.sub(r"(?m)^gemm_tags = .*$", "gemm_tags = []", text), "llvm.toml")
    source = get_backend("llvm").compile(program, generic).source
    assert "micro-kernel" not in source
    assert '!"llvm.loop.vectorize.enable"' in source
    optimised = optimised_ir(source)
    assert "llvm.masked.gather" not in optimised
    assert "load <" in optimised, "the channel loop is vectorised"


def test_llvm_backend_compiles_without_importing_the_c_backend() -> None:
    """Importing the C backend (its syntax tree, emitter, exp code) cost every LLVM compile
    ~20 ms; the toolchain facts they share live in `plaidc.backends.toolchain`."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from plaidc import driver\n"
        "from plaidc.backends import get_backend\n"
        "from plaidc.targets import load_target\n"
        "text = driver.ProgramText('t', 'function (A[N]) -> (B) { B = exp(A); }', 'tile')\n"
        "program = driver.build_program(driver.Session(), text, driver.Bindings(dims={'N': 40}))\n"
        "cfg = load_target('llvm')\n"
        "steps = driver.resolve_steps(cfg.stage('default'))\n"
        "get_backend('llvm').compile(driver.run_pipeline(program, steps), cfg)\n"
        "print(sorted(m for m in sys.modules if m.startswith('plaidc.backends.c')))\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[]"
