"""img2col_cbuf_to_ca (the load3d of NPU.md): the simulator against `isa.img2col`, its cost,
and the misuse it rejects."""

from __future__ import annotations

import numpy as np
import pytest

from plaidc.backends.npu_sim import NpuSimError
from plaidc.backends.npu_sim.isa import IMG2COL_PARAMS, img2col, intrinsic

from .support.npu_sim import default_machine, error_line, run

RNG = np.random.default_rng(21)
F = 16  # the default machine's fractal side (cube_m = cube_k)

# (parameters, pad value): each case a convolution's window with a feature map of its own
CASES = {
    # 3x3 "same" padding, 20 channels (two channel blocks, the second partly padding), a map
    # starting 3 elements into its buffer, rows wider than the map
    "padded": (
        dict(
            base=3,
            imgStride=0,
            rowStride=150,
            pixStride=24,
            fmH=5,
            fmW=6,
            channels=20,
            hStart=-1,
            wStart=-1,
            strideH=1,
            strideW=1,
            dilH=1,
            dilW=1,
            outH=5,
            outW=6,
            mCount=30,
            kW=2,
            c1=2,
            mFractals=2,
            kFractals=8,
        ),
        0.0,
    ),
    # stride 2 and dilation 2, a pad value that shows, rows past mCount
    "strided_dilated": (
        dict(
            base=0,
            imgStride=0,
            rowStride=112,
            pixStride=16,
            fmH=9,
            fmW=7,
            channels=16,
            hStart=0,
            wStart=0,
            strideH=2,
            strideW=2,
            dilH=2,
            dilW=2,
            outH=3,
            outW=2,
            mCount=5,
            kW=3,
            c1=1,
            mFractals=1,
            kFractals=6,
        ),
        -1.5,
    ),
    # a window starting inside the map (a later K step), a ragged last row of outputs
    "offset": (
        dict(
            base=16,
            imgStride=0,
            rowStride=64,
            pixStride=16,
            fmH=6,
            fmW=4,
            channels=16,
            hStart=1,
            wStart=-1,
            strideH=1,
            strideW=1,
            dilH=1,
            dilW=1,
            outH=5,
            outW=3,
            mCount=13,
            kW=3,
            c1=1,
            mFractals=1,
            kFractals=7,
        ),
        0.0,
    ),
    # three images of 3x4 outputs, 8 channels, "same" padding: rows cross images mid-fractal
    "batched": (
        dict(
            base=5,
            imgStride=200,
            rowStride=40,
            pixStride=8,
            fmH=3,
            fmW=4,
            channels=8,
            hStart=-1,
            wStart=-1,
            strideH=1,
            strideW=1,
            dilH=1,
            dilW=1,
            outH=3,
            outW=4,
            mCount=36,
            kW=3,
            c1=1,
            mFractals=3,
            kFractals=6,
        ),
        0.5,
    ),
}


def _identity(kf: int) -> np.ndarray:
    """An identity of kf*16 rows in L0B's [Ko][No][16][16] fractal order."""
    e = np.zeros((kf, kf, F, F), np.float16)
    for k in range(kf):
        e[k, k] = np.eye(F, dtype=np.float16)
    return e.reshape(-1)


def _run(params: dict[str, int], pad: float):
    mf, kf = params["mFractals"], params["kFractals"]
    images = (params["mCount"] - 1) // (params["outH"] * params["outW"])
    extent = (
        params["base"] + images * params["imgStride"] + (params["fmH"] - 1) * params["rowStride"]
    )
    extent += (params["fmW"] - 1) * params["pixStride"] + params["channels"]
    n = -(-extent // F) * F
    fmap = RNG.uniform(-4, 4, n).astype(np.float16)
    short = dict(
        imgStride="IMG",
        rowStride="ROW",
        pixStride="PIX",
        strideH="SH",
        strideW="SW",
        dilH="DH",
        dilW="DW",
        mFractals="MF",
        kFractals="KF",
        mCount="MCOUNT",
        kW="KW",
    )
    defines = [f"{short.get(k, k.upper())}={v}" for k, v in params.items()]
    defines += [f"PAD={pad}", f"F_BLOCKS={n * 2 // 32}", f"L1_END={default_machine().l1_bytes}"]
    buffers = {"F": fmap, "E": _identity(kf), "C": np.zeros(kf * mf * F * F, np.float32)}
    out = run("img2col.c", "img2col_identity", buffers, *defines)
    got = out.buffers["C"].reshape(kf, mf, F, F).transpose(1, 0, 2, 3)
    return fmap, got, out.report


@pytest.mark.parametrize("case", sorted(CASES))
def test_img2col_matches_the_isa_semantics(case: str) -> None:
    params, pad = CASES[case]
    fmap, got, report = _run(params, pad)
    want = img2col(fmap, params, pad, F, F)
    assert np.array_equal(got, want.astype(np.float32))
    # and the semantics are a convolution's window: spot-check one element by hand
    assert report.bytes_moved["L1->L0A"] == params["mFractals"] * params["kFractals"] * 512


def test_img2col_padded_window_by_hand() -> None:
    params, pad = CASES["padded"]
    fmap, got, _ = _run(params, pad)
    # row m = 7 is output (1, 1); fractal 3 is window (u, v) = (0, 1), channels 16..31
    h, w = -1 + 1 + 0, -1 + 1 + 1
    at = 3 + h * 150 + w * 24 + 16
    assert np.array_equal(got[0, 3, 7, :4], fmap[at : at + 4].astype(np.float32))
    assert not got[0, 3, 7, 4:].any()  # channels 20..31 are padding
    # row 0 is output (0, 0): window (0, 0) reads h = -1, the padding row
    assert not got[0, 0, 0].any()
    assert not got[1, :, 30 - 16 :].any()  # rows past mCount


def test_img2col_cost_comes_from_the_config() -> None:
    params, pad = CASES["strided_dilated"]
    machine = default_machine()
    *_, report = _run(params, pad)
    nbytes = params["mFractals"] * params["kFractals"] * 512
    img2col_cycles = machine.img2col_latency + -(-nbytes // machine.img2col_bytes_per_cycle)
    fractal_load = machine.l1_l0_latency + -(-(params["kFractals"] ** 2) * 512 // 256)
    assert report.busy_cycles["PIPE_MTE1"] == img2col_cycles + fractal_load
    assert report.instructions["PIPE_MTE1"] == 2


def test_img2col_is_declared_with_its_parameters() -> None:
    intr = intrinsic("img2col_cbuf_to_ca")
    assert intr.params == ("dst", "src", *IMG2COL_PARAMS, "padValue")
    assert (intr.pipe, intr.reads, intr.writes) == ("PIPE_MTE1", ("L1",), ("L0A",))


ERRORS = {
    "img2col_war": ("write-after-read hazard", "still being read by mad"),
    "img2col_past_l1": ("the feature map L1 bytes", "is outside L1"),
    "img2col_to_l0b": ("illegal data path", "writes only L0A"),
    "img2col_no_fractals": ("kFractals = 0 is outside [1, ",),
}


@pytest.mark.parametrize("kernel", sorted(ERRORS))
def test_img2col_misuse_is_an_error_at_its_line(kernel: str) -> None:
    buffers = {
        "F": np.zeros(256, np.float16),
        "E": np.zeros(256, np.float16),
        "C": np.zeros(16, np.float32),
    }
    l1_end = f"L1_END={default_machine().l1_bytes}"
    with pytest.raises(NpuSimError) as caught:
        run("img2col.c", kernel, buffers, "F_BLOCKS=1", "KF=1", l1_end, *_dummy_defines())
    err = caught.value
    assert err.instruction == "img2col_cbuf_to_ca"
    assert err.line == error_line("img2col.c", kernel)
    for fragment in ERRORS[kernel]:
        assert fragment in str(err), str(err)


def _dummy_defines() -> list[str]:
    """The identity kernel's parameters, which the error kernels' file also compiles."""
    names = ("BASE", "IMG", "ROW", "PIX", "FMH", "FMW", "CHANNELS", "HSTART", "WSTART", "SH", "SW")
    more = ("DH", "DW", "OUTH", "OUTW", "MCOUNT", "KW", "C1", "MF", "PAD")
    return [f"{n}=1" for n in (*names, *more)]
