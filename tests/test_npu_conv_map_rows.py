"""A core's feature-map rows in L1 once (`conv_map_rows`) and the weights' last K step after the
first tile's window (`conv_weights.deferrable`): each conv runs on the simulator against the
interpreter (a window at a wrong place in the run, a transfer that skips rows or a flag too
few is a mismatch or a hazard), and the feature map's bytes moved into L1 say whether rows
were brought once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plaidc import driver
from plaidc.backends.npu import NpuArtifact
from plaidc.backends.npu.conv_map_rows import RowSlab, SlabMiss, plan

from .support.backend_npu_units import run_checked, with_changes

CONV = (
    "function (I[N, H, W, CI]: fp16, K[KH, KW, CI, CO]: fp16, B[CO]: fp16) -> (R) {{\n"
    "  O[n, x, y, co : N, (H + 2 * {p} - {d} * (KH - 1) - 1) / {s} + 1,"
    " (W + 2 * {p} - {d} * (KW - 1) - 1) / {s} + 1, CO] ="
    " +(I[n, {s} * x + {d} * i - {p}, {s} * y + {d} * j - {p}, ci] * K[i, j, ci, co]);\n"
    "  R = relu(O + B);\n}}\n"
)


def _run(
    tmp_path: Path, dims: dict[str, int], s: int = 1, d: int = 1, p: int = 0, **hardware: int
) -> NpuArtifact:
    path = tmp_path / "conv.tile"
    path.write_text(CONV.format(s=s, d=d, p=p))
    program = driver.load_program(driver.Session(), str(path), driver.Bindings(dims=dims))
    return run_checked(program, with_changes(dict(hardware)), seed=3, pipeline=True)


def _map_bytes(dims: dict[str, int]) -> int:
    return dims["N"] * dims["H"] * dims["W"] * dims["CI"] * 2


BASE = dict(N=1, H=34, W=32, CI=32, KH=3, KW=3, CO=32)


@pytest.mark.parametrize("cores", [1, 2, 4])
@pytest.mark.parametrize(
    ("dims", "s", "d", "p"),
    [
        (BASE, 1, 1, 0),
        (dict(BASE, H=35, W=29), 1, 1, 0),  # a ragged last tile, rows of 29 pixels
        (dict(BASE, H=43, W=29), 2, 1, 0),  # strided: one row shared between tiles
        (dict(BASE, H=36, W=30), 1, 2, 0),  # dilated
        (dict(BASE, H=33, W=27), 1, 1, 1),  # padded (the first and last tiles' windows)
        (dict(BASE, H=30, W=30, CI=64, CO=48), 1, 1, 0),  # four K steps, three N fractals
        (dict(BASE, H=30, W=30, CO=256), 1, 1, 0),  # two N blocks: tiles sharing a window
    ],
    ids=["3x3", "ragged", "stride2", "dilated", "padded", "ksteps", "nblocks"],
)
def test_rows_come_into_l1_once_per_core(
    tmp_path: Path, dims: dict[str, int], s: int, d: int, p: int, cores: int
) -> None:
    artifact = _run(tmp_path, dims, s=s, d=d, p=p, cores=cores)
    report = artifact.last_report
    assert report is not None and "img2col_cbuf_to_ca(" in artifact.source
    # every row at most once per core, and a halo of a few rows for each core after the
    # first (two alternating window slots brought the tiles' overlapping rows again: ~2x)
    row = dims["W"] * dims["CI"] * 2
    halo = (dims["KH"] - 1) * d * row
    assert report.bytes_moved["GM->L1"] <= _map_bytes(dims) + (cores - 1) * halo


@pytest.mark.parametrize("cores", [1, 2])
def test_windows_of_strided_rows_keep_their_slots(tmp_path: Path, cores: int) -> None:
    """Tiles along the map's columns read windows of strided rows, which the run does not
    hold: they keep the two alternating slots (and still match)."""
    source = _run(tmp_path, dict(BASE, H=50), cores=cores).source
    assert re.search(r"copy_gm_to_cbuf\([^;]*& 1\)\)\), I \+", source)


def test_rows_in_the_run_are_not_brought_twice(tmp_path: Path) -> None:
    """The C: the core's first tile brings its window and the second tile's new rows, the
    loop's tiles only their new rows (the window less the KH - 1 rows it shares with the
    tile before), each where the run holds it."""
    dims = dict(BASE, H=66, W=58)
    source = _run(tmp_path, dims).source
    row_blocks = dims["W"] * dims["CI"] * 2 // 32
    dmas = re.findall(r"copy_gm_to_cbuf\([^;]*\bI\b[^;]*?, 0, 1, (\d+),", source)
    bursts = [int(n) for n in dmas]
    assert len(bursts) == 3 and bursts[1] == bursts[2]
    assert bursts[0] - bursts[1] == (dims["KH"] - 1) * row_blocks


def test_weights_last_k_step_after_the_first_window(tmp_path: Path) -> None:
    """Four K steps: the first three's weights, then the first tile's window, then the last
    K step's; with a GM latency that the Cube's K steps do not cover, one transfer before
    the window (the machine's costs decide)."""
    dims = dict(BASE, H=30, W=30, CI=64, CO=64)

    def mte2_order(source: str) -> list[str]:
        found = re.findall(r"copy_gm_to_(?:ubuf|cbuf)\([^;]*?\b(I|K)\b", source)
        return found[:4]

    assert mte2_order(_run(tmp_path, dims).source) == ["K", "I", "K", "I"]
    slow = _run(tmp_path, dims, gm_latency=4000).source
    assert mte2_order(slow)[:3] == ["K", "I", "I"]


def _slab(windows: dict[int, tuple[int, int] | None], last: int, size: int = 4096) -> RowSlab:
    found = plan(windows.get, 0, last, 1024, size, 2, 32)
    assert found is not None
    return found


def test_loads_bring_only_new_rows() -> None:
    """Tiles of two output rows of a 3x3 conv, rows of 16 elements: the first tile its four
    rows and the second's two new ones, the second nothing, the others two each; a tile
    that reads by K steps (None) is left out, and the tile after it brings its window."""
    windows: dict[int, tuple[int, int] | None] = {t: (32 * t, 32 * t + 64) for t in range(6)}
    slab = _slab(windows, 5)
    assert slab.loads(0) == [(0, 64), (64, 96)]
    assert slab.loads(1) == []
    assert slab.loads(2) == [(96, 128)]
    assert slab.address(64) == 1024 + 128
    windows[3] = None
    slab = _slab(windows, 5)
    assert slab.loads(4) == [(128, 192)]
    slab.prefetch = False
    assert slab.loads(1) == [(64, 96)]


def test_windows_outside_the_run_are_misses() -> None:
    windows: dict[int, tuple[int, int] | None] = {0: (0, 64), 1: (8, 72), 2: (4000, 4064)}
    assert plan(windows.get, 0, 2, 1024, 4096, 2, 32) is None  # the last does not fit
    slab = _slab(windows, 1)
    with pytest.raises(SlabMiss):
        slab.window(1)  # 16 bytes into the run: not an L1-aligned place
    slab.known[1] = (-32, 32)
    with pytest.raises(SlabMiss):
        slab.window(1)  # before the run
