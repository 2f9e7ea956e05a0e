"""The machine `make bench` runs on: CPU model, cores used, SIMD width and the measured fp32 peak.

The peak is measured, not looked up: `fma_probe` compiles a small C program with the C target's
compiler and plaidc's code-generation flags (-O3 -march=native -fopenmp) that runs independent
chains of vector FMAs on every OpenMP thread for about 0.2 s and reports GFLOP/s. The vector
width is the widest the compiler enables for this machine (-march=native), read from its
predefined macros, so the probe peaks where plaidc's generated code could.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

PROBE_SOURCE = r"""
#include <omp.h>
#include <stdio.h>

#if defined(__AVX512F__)
#define WIDTH 16
#elif defined(__AVX__)
#define WIDTH 8
#else
#define WIDTH 4 /* SSE, NEON */
#endif
#define ROUNDS 5
#define CHUNK 2048 /* iterations between clock reads */
#define CHAINS 12 /* independent accumulators: enough to cover FMA latency x FMA ports */

typedef float vec __attribute__((vector_size(WIDTH * sizeof(float))));

/* One round: every thread runs its chains in chunks until `seconds` have passed on its clock;
   returns the FLOP/s of all threads together over the round. */
static double round_flops(double seconds, int *threads, float *sink) {
    double start = omp_get_wtime(), total_flops = 0;
    float total = 0;
#pragma omp parallel reduction(+ : total, total_flops)
    {
        vec acc[CHAINS], scale, add;
        for (int j = 0; j < WIDTH; j++) {
            scale[j] = 0.9999999f;
            add[j] = 1e-3f * (1 + omp_get_thread_num());
        }
        for (int c = 0; c < CHAINS; c++)
            for (int j = 0; j < WIDTH; j++)
                acc[c][j] = (float)(c + j);
        long chunks = 0;
        do {
            for (long i = 0; i < CHUNK; i++) {
#pragma GCC unroll 16
                for (int c = 0; c < CHAINS; c++)
                    acc[c] = acc[c] * scale + add;
            }
            chunks++;
        } while (omp_get_wtime() - start < seconds);
        for (int c = 0; c < CHAINS; c++)
            for (int j = 0; j < WIDTH; j++)
                total += acc[c][j];
        total_flops += 2.0 * WIDTH * CHAINS * CHUNK * (double)chunks;
#pragma omp single
        *threads = omp_get_num_threads();
    }
    *sink += total;
    return total_flops / (omp_get_wtime() - start);
}

int main(void) {
    int threads = 0;
    float sink = 0;
    round_flops(0.005, &threads, &sink); /* start the thread pool */
    /* ~0.2 s in all, as ROUNDS rounds: the best is the peak (a round that another process
       preempted on a shared machine only reads low). */
    double best = 0;
    for (int round = 0; round < ROUNDS; round++) {
        double flops = round_flops(0.2 / ROUNDS, &threads, &sink);
        if (flops > best)
            best = flops;
    }
    printf("{\"gflops\": %.3f, \"seconds\": %.3f, \"threads\": %d, \"simd_floats\": %d,"
           " \"chains\": %d, \"sink\": %g}\n",
           best / 1e9, 0.2, threads, WIDTH, CHAINS, (double)sink);
    return 0;
}
"""


def probe_flags() -> list[str]:
    """plaidc's C flags for an executable: without -shared/-fPIC, and with a * b + c fused (as
    plaidc's GEMM micro-kernel has it; the rest of plaidc's code keeps contraction off)."""
    from plaidc.backends.c.build import DEFAULT_FLAGS

    drop = {"-shared", "-fPIC", "-ffp-contract=off"}
    return [flag for flag in DEFAULT_FLAGS if flag not in drop] + ["-ffp-contract=fast"]


class FmaProbe:
    """The probe, compiled once; `measure()` runs it (about 0.2 s). A shared machine's noise only
    lowers a reading, so the run reads it between workloads and keeps the best as the peak."""

    def __init__(self, folder: Path) -> None:
        from plaidc.backends.toolchain import find_compiler
        from plaidc.targets import load_target

        self.binary = folder / "fma_probe"
        self.error = ""
        self.readings: list[float] = []
        try:
            compiler = find_compiler(load_target("c").codegen.get("cc"))
        except Exception as err:
            self.error = str(err)
            return
        source = folder / "fma_probe.c"
        source.write_text(PROBE_SOURCE)
        command = [compiler, *probe_flags(), str(source), "-o", str(self.binary)]
        self.command = " ".join([Path(compiler).name, *probe_flags()])
        built = subprocess.run(command, capture_output=True, text=True)
        if built.returncode != 0:
            self.error = f"{' '.join(command)}: {built.stderr.strip()}"

    def measure(self) -> None:
        if self.error:
            return
        ran = subprocess.run([str(self.binary)], capture_output=True, text=True, timeout=60)
        if ran.returncode != 0:
            self.error = f"the FMA probe failed: {ran.stderr.strip()}"
            return
        reading = json.loads(ran.stdout)
        self.simd_floats, self.threads = reading["simd_floats"], reading["threads"]
        self.readings.append(float(reading["gflops"]))

    @property
    def peak_gflops(self) -> float:
        return max(self.readings, default=0.0)

    def summary(self) -> dict[str, Any]:
        if self.error or not self.readings:
            return {"error": self.error or "not run"}
        return {
            "peak_gflops": self.peak_gflops,
            "readings_gflops": self.readings,
            "threads": self.threads,
            "simd_floats": self.simd_floats,
            "command": self.command,
        }


def cpu_model() -> str:
    """The CPU model plaidc's host detection reads (`/proc/cpuinfo`), else the architecture."""
    from plaidc.targets.host import host_fingerprint

    model = str(host_fingerprint()["cpu"])
    return model if model != "unknown" else platform.processor() or platform.machine()


def describe() -> dict[str, Any]:
    return {
        "cpu": cpu_model(),
        "cores_used": len(os.sched_getaffinity(0)),
        "cpus_online": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
    }


def library_versions() -> dict[str, str]:
    """Versions of what the runners use; absent optional ones say "not installed"."""
    from importlib import metadata

    versions = {}
    for name in ("numpy", "llvmlite", "pyopencl", "onnxruntime", "onnx", "torch", "threadpoolctl"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    cc = subprocess.run(["cc", "--version"], capture_output=True, text=True)
    if cc.returncode == 0:
        versions["cc"] = cc.stdout.splitlines()[0]
    return versions
