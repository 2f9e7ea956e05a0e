"""Every Cube tiling the NPU backend ranks for a matmul, forced in turn and simulated: does any
beat the one it chooses? (docs/tune.md, "The NPU": the question `plaidc tune -t npu` cannot
settle when a tiling is outside its knobs.)

The backend ranks its own tilings of a GEMM by estimated cycles (`cube_cost.ranked`) and takes
the first that plans. This script lowers the program once per ranked tiling with only that one
offered (the pass pipeline's tiles are the fallback when it does not fit: such rows say
"pipeline"), runs the simulator, and checks each result against numpy. Last, how well the
estimate ranks the tilings: Spearman's rank correlation of estimate and cycles, and the
simulated best beside the first.

Usage: python bench/npu_tilings.py M K N [--dtype fp16] [--limit 128] [--cores 1]
    [--chip default|small] [--codegen KEY=VALUE ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import tomllib
from typing import Any

import numpy as np
from workloads import ROOT

from plaidc import driver
from plaidc.backends import get_backend
from plaidc.backends.npu import cube, cube_cost
from plaidc.interp import program_io
from plaidc.stripe.ir import DType
from plaidc.targets import load_target


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("sizes", nargs=3, type=int, metavar="M K N")
    parser.add_argument("--dtype", default="fp16")
    parser.add_argument("--limit", type=int, default=128, help="the first LIMIT of the ranking")
    parser.add_argument("--cores", type=int, default=1)
    parser.add_argument("--chip", choices=("default", "small"), default="default")
    parser.add_argument("--codegen", nargs="*", default=[], help="[codegen] KEY=VALUE (TOML)")
    args = parser.parse_args()
    m, k, n = args.sizes
    dtype = DType(args.dtype)
    program = driver.load_program(
        driver.Session(),
        str(ROOT / "examples" / "matmul.tile"),
        driver.Bindings(shapes={"A": (dtype, (m, k)), "B": (dtype, (k, n))}),
    )
    base = load_target("npu")
    extra = dict(_assignment(a) for a in args.codegen)
    hardware = {**dict(base.hardware), "cores": args.cores}
    if args.chip == "small":  # as bench/npu_ragged.py's
        hardware |= {"ub_bytes": 64 * 1024, "l1_bytes": 256 * 1024}
    cfg = dataclasses.replace(base, hardware=hardware, codegen={**base.codegen, **extra})
    final = driver.run_pipeline(program, driver.resolve_steps(cfg.stage("default")))
    inputs = driver.random_inputs(program_io(program).inputs, seed=0)
    a, b = (np.asarray(v, np.float64) for v in inputs.values())
    want = a @ b

    ranking: list[Any] = []
    pick: list[int] = []
    ranked, margin = cube.ranked, cube.ESTIMATE_MARGIN

    def forced(ctx: Any, con: Any, found: Any) -> list[Any]:
        order = ranked(ctx, con, found)
        ranking[:] = [(t, cube_cost.estimated_cycles(ctx, con, t)) for t in order]
        return order[pick[0] : pick[0] + 1] if pick else order

    def simulate() -> tuple[int, float, str]:
        artifact = get_backend("npu").compile(final, cfg)
        (got,) = artifact.run(inputs).values()
        error = float(np.max(np.abs(np.asarray(got, np.float64) - want), initial=0.0))
        report = artifact.report_json()
        assert report is not None
        source = "pipeline" if "tiles chosen by the pass pipeline" in artifact.source else "own"
        return report["total_cycles"], error / float(np.max(np.abs(want), initial=1.0)), source

    cube.ranked = forced
    try:
        cycles, error, source = simulate()
        print(f"the backend's choice: {cycles} cycles ({source} tiles), relative error {error:.1e}")
        cube.ESTIMATE_MARGIN = float("inf")  # the forced tiling first, never the pipeline's
        print(f"{'rank':>4} {'M tile x count':>15} {'N':>10} {'K':>10} {'est':>8} {'cycles':>8}")
        estimates, simulated = [], []
        for rank, (tiling, estimate) in enumerate(list(ranking)[: args.limit]):
            pick[:] = [rank]
            cycles, error, source = simulate()
            shape = [f"{_extent(t)}x{len(t)}" for t in (tiling.m, tiling.n, tiling.k)]
            flag = "" if error < 1e-2 else f" WRONG ({error:.1e})"
            note = "" if source == "own" else " (did not fit: pipeline tiles)"
            if source == "own" and error < 1e-2:
                estimates.append(estimate)
                simulated.append(cycles)
            print(
                f"{rank:4d} {shape[0]:>15} {shape[1]:>10} {shape[2]:>10} {estimate:8d} "
                f"{cycles:8d}{note}{flag}",
                flush=True,
            )
        if len(simulated) > 1:
            rho = _spearman(estimates, simulated)
            best = int(np.argmin(simulated))
            print(
                f"rank correlation of estimate and cycles: {rho:.2f} ({len(simulated)} tilings); "
                f"simulated best: rank {best}, {simulated[best]} cycles; first: {simulated[0]}"
            )
    finally:
        cube.ranked, cube.ESTIMATE_MARGIN = ranked, margin


def _spearman(x: list[int], y: list[int]) -> float:
    """Spearman's rank correlation (tied values take their mean rank)."""

    def ranks(values: list[int]) -> np.ndarray:
        v = np.asarray(values, np.float64)
        return np.array([np.mean(np.flatnonzero(np.sort(v) == e)) for e in v])

    rx, ry = ranks(x), ranks(y)
    if rx.std() == 0 or ry.std() == 0:
        return float("nan")
    return float(np.corrcoef(rx, ry)[0, 1])


def _extent(tiles: list[Any]) -> int:
    first = tiles[0]
    return int(np.prod([size for _, size in first.values()]))


def _assignment(text: str) -> tuple[str, Any]:
    key, _, value = text.partition("=")
    return key, tomllib.loads(f"value = {value}")["value"]


if __name__ == "__main__":
    main()
