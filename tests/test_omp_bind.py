"""libgomp's thread binding from the c/llvm configs (`[codegen] omp_proc_bind`, `openmp_bind`)."""

from __future__ import annotations

import os

import pytest

from plaidc.backends.loopnest import spin
from plaidc.backends.mpi.launch import launch_env
from plaidc.diagnostics import CompileError
from plaidc.targets import load_target


def _unplaced(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("target", ["c", "llvm"])
def test_the_cpu_configs_leave_threads_unbound(target: str) -> None:
    # bound, every process's calling thread is pinned to the mask's first CPU
    assert load_target(target).codegen["omp_proc_bind"] is False


def test_binding_is_set_unless_the_user_placed_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    _unplaced(monkeypatch)
    spin.openmp_bind(None)
    assert "OMP_PROC_BIND" not in os.environ
    spin.openmp_bind(True)
    assert os.environ["OMP_PROC_BIND"] == "true" and spin.placement_set_here()
    # MPI ranks share the CPUs: they do not inherit the binding plaidc chose
    assert "OMP_PROC_BIND" not in launch_env(2, 2, 60)
    for name, value in (
        ("OMP_PROC_BIND", "spread"),
        ("OMP_PLACES", "cores"),
        ("GOMP_CPU_AFFINITY", "0-1"),
    ):
        _unplaced(monkeypatch)
        monkeypatch.setenv(name, value)
        spin.openmp_bind(True)
        assert os.environ[name] == value
        assert os.environ.get("OMP_PROC_BIND") in (None, value) and not spin.placement_set_here()
    # the user's binding reaches the ranks
    assert launch_env(2, 2, 60).get("GOMP_CPU_AFFINITY") == "0-1"


@pytest.mark.parametrize("value", ["yes", 1])
def test_a_bad_binding_is_a_config_error(value: object) -> None:
    with pytest.raises(CompileError, match="'omp_proc_bind' must be true or false"):
        spin.openmp_bind(value)
