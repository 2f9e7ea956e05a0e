"""Parallel loops fall back to one thread while their threads share a CPU (`shared_cpu_backoff`,
`backends/c/threads.py`, `backends/llvm/threads.py`), and libgomp's spin is set from a time
(`omp_spin_us`, `backends/loopnest/spin.py`)."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from plaidc.backends.c.build import DEFAULT_FLAGS, build_library
from plaidc.backends.toolchain import find_compiler
from plaidc.diagnostics import CompileError

from .support import EXAMPLES, REPO

BACKOFF = 8
CALLS = 60
SWITCH = 45  # from this call on, the team's threads run on different CPUs


def expected_decisions() -> list[int]:
    """What the specification says: after a threaded call whose threads shared a CPU, the next
    1, 2, 4, ... (at most BACKOFF) calls run on one thread (0); after one whose threads did not,
    every call runs on threads (1)."""
    decisions, left, stretch = [], 0, 0
    for call in range(CALLS):
        if left > 0:
            left -= 1
            decisions.append(0)
            continue
        decisions.append(1)
        shared = call < SWITCH
        stretch = 0 if not shared else 1 if stretch == 0 else min(2 * stretch, BACKOFF)
        left = stretch
    return decisions


Scenario = Callable[[ctypes.Array[ctypes.c_int32]], None]

_C_SCENARIO = """
void scenario(int *decisions, int calls, int switch_at, int backoff) {
  static int state[2];
  for (int call = 0; call < calls; call++) {
    int wanted = plaidc_team_wanted(state);
    decisions[call] = wanted;
    if (wanted) {
      plaidc_team team = {2, {5, call < switch_at ? 5 : 6}};
      plaidc_team_check(state, &team, backoff);
    }
  }
}
"""


def _c_scenario() -> Scenario:
    from plaidc.backends.c.threads import RUNTIME

    try:
        compiler = find_compiler(None)
    except Exception as err:  # no C compiler here
        pytest.skip(str(err))
    library = build_library(RUNTIME + _C_SCENARIO, compiler, DEFAULT_FLAGS)
    fn = ctypes.CDLL(str(library)).scenario
    return lambda out: fn(out, CALLS, SWITCH, BACKOFF)


def _llvm_scenario() -> Scenario:
    import llvmlite.binding as llvm
    from llvmlite import ir

    from plaidc.backends.llvm import threads

    module = ir.Module(name="t")
    for make in (threads.wanted_function, threads.check_function):
        make(module).linkage = ""  # exported, to be called from here
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_triple(llvm.get_process_triple()).create_target_machine()
    parsed = llvm.parse_assembly(str(module))
    parsed.verify()
    engine = llvm.create_mcjit_compiler(parsed, machine)
    engine.finalize_object()
    wanted = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)(
        engine.get_function_address(threads.WANTED)
    )
    check = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32)(
        engine.get_function_address(threads.CHECK)
    )

    def run(out: ctypes.Array[ctypes.c_int32]) -> None:
        _ = engine  # the code lives as long as this function
        state = (ctypes.c_int32 * 2)()
        for call in range(CALLS):
            out[call] = wanted(state)
            if out[call]:
                team = (ctypes.c_int32 * threads.TEAM_WORDS)(2, 5, 5 if call < SWITCH else 6)
                check(state, team, BACKOFF)

    return run


@pytest.mark.parametrize("make", [_c_scenario, _llvm_scenario], ids=["c", "llvm"])
def test_a_team_sharing_a_cpu_backs_off_doubling_and_comes_back(
    make: Callable[[], Scenario],
) -> None:
    out = (ctypes.c_int32 * CALLS)()
    make()(out)
    assert list(out) == expected_decisions()
    # the stretches seen: 1, 2, 4, 8, 8, ... calls on one thread, then threads every call
    assert list(out)[:16] == [1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    assert all(list(out)[SWITCH + BACKOFF + 1 :])


_ONE_CPU = textwrap.dedent(
    """
    import os, sys
    import numpy as np
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    from plaidc import driver
    from plaidc.backends import get_backend
    from plaidc.interp.program import program_io
    from plaidc.targets import load_target
    target = load_target(sys.argv[1])
    program = driver.load_program(
        driver.Session(), sys.argv[2], driver.Bindings({"B": 64, "N": 1024})
    )
    program = driver.run_pipeline(program, driver.resolve_steps(target.stage()))
    inputs = driver.random_inputs(program_io(program).inputs, seed=0)
    artifact = get_backend(target.backend).compile(program, target)
    x = inputs["X"].astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    me = os.getpid()
    calls = 200
    for _ in range(calls):
        (y,) = artifact.run(inputs).values()
        np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-7)
    # how often each thread but this one was put on a CPU (`schedstat`'s third field)
    runs = []
    for task in os.listdir("/proc/self/task"):
        if int(task) != me:
            with open(f"/proc/self/task/{task}/schedstat") as f:
                runs.append(int(f.read().split()[2]))
    print(calls, max(runs))
    """
)


@pytest.mark.parametrize("backend", ["c", "llvm"])
@pytest.mark.skipif(
    not Path("/proc/self/task").exists() or not hasattr(os, "sched_setaffinity"),
    reason="Linux: sets the affinity mask, reads schedstat",
)
def test_two_threads_on_one_cpu_run_the_loop_on_one_thread_and_stay_correct(
    backend: str,
) -> None:
    """Two threads (OMP_NUM_THREADS=2) on one CPU: every threaded call finds them sharing it, so
    the worker is woken only for the probes (~calls / 64 + 7 of them; without the fallback
    it runs in every call), and every result is right on both paths."""
    env = {**os.environ, "OMP_NUM_THREADS": "2"}
    args = [sys.executable, "-c", _ONE_CPU, backend, str(EXAMPLES / "softmax.tile")]
    result = subprocess.run(args, capture_output=True, text=True, env=env, cwd=REPO)
    assert result.returncode == 0, result.stderr
    calls, worker_runs = map(int, result.stdout.split()[-2:])
    assert worker_runs < calls // 4, result.stdout


def test_the_spin_is_a_time_converted_with_the_measured_cost_of_the_loop(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from plaidc.backends.loopnest import spin

    monkeypatch.setenv("PLAIDC_CACHE_DIR", str(tmp_path))
    for name in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT"):
        monkeypatch.setenv(name, "")  # restored (or removed) after the test
        monkeypatch.delenv(name)
    spin.spin_count.cache_clear()
    short, long = spin.spin_count(5.0), spin.spin_count(200.0)
    assert 1 <= short < long
    # the count runs for about the time asked (fastest of a few: a shared, loaded machine)
    seconds = min(spin._spinner()(long) for _ in range(5))
    assert 40e-6 < seconds < 10e-3, seconds
    # measured once per CPU model: a later process reads the count from the cache directory
    assert len(list((tmp_path / "spin").iterdir())) == 2
    spin.spin_count.cache_clear()

    def unmeasured(_: float) -> int:
        raise AssertionError("measured again")

    monkeypatch.setattr(spin, "measure_spin_count", unmeasured)
    assert spin.spin_count(200.0) == long
    spin.openmp_wait("passive", 200)
    assert os.environ["OMP_WAIT_POLICY"] == "passive"
    assert int(os.environ["GOMP_SPINCOUNT"]) == long
    # the user's choice wins
    monkeypatch.setenv("GOMP_SPINCOUNT", "7")
    monkeypatch.delenv("OMP_WAIT_POLICY")
    spin.openmp_wait("passive", 50)
    assert os.environ["GOMP_SPINCOUNT"] == "7" and "OMP_WAIT_POLICY" not in os.environ
    assert spin.spin_count(0) == 0
    spin.spin_count.cache_clear()


@pytest.mark.parametrize("value", [-1, "fast", True])
def test_a_bad_spin_time_is_a_config_error(value: object) -> None:
    from plaidc.backends.loopnest import spin

    with pytest.raises(CompileError, match="'omp_spin_us' must be a number >= 0"):
        spin.openmp_wait(None, value)
