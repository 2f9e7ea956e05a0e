"""The NPU's instruction set as data: memories, pipes, data paths and every intrinsic.

This module is the one declaration of what `plaidc_npu.h` offers (docs/NPU.md): each memory with
its C qualifier and the `[hardware]` keys of its size and alignment, each data path with its pipe
and the keys of its latency and bandwidth, and each intrinsic with its C spelling (the macro's
name and parameters), its pipe, the memories it reads and writes, the element types it takes and
its semantics as a numpy function. The numbers themselves come from the target config
(`machine.NpuMachine`); a config may also remove intrinsics a chip lacks (`[hardware] lacks =
["vrsqrt"]`: any of `OPTIONAL_OPS`, the vector intrinsics and the byte-exact DMAs): the backend
then never emits them and the simulator rejects them.

The simulator (sim.c, sim_vector.c) implements these semantics; tests/test_npu_isa.py runs every
vector intrinsic on every element type listed here against `semantics`, checks the types not
listed are rejected, and checks the header declares exactly these macros with these parameters,
its enumerations in this order. The backend picks its instructions from these tables
(`backends/npu/valops.py`, `vtypes.py`) rather than from names of its own.

Semantics of the vector forms are written on lane values: fp16 lanes are computed in fp32 and
rounded to fp16 once (so are the simulator's), int32 arithmetic wraps.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

import numpy as np

# ---- Memories, pipes, data paths ----------------------------------------------------------


@dataclass(frozen=True)
class Memory:
    name: str
    qualifier: str  # the dialect's address-space qualifier
    base: str | None  # the macro of its address window (GM: the kernel's pointer arguments)
    size_key: str | None  # the [hardware] key of its capacity in bytes (GM: unbounded)
    align_key: str  # the [hardware] key of the alignment every operand in it needs


MEMORY_TABLE = (
    Memory("GM", "__gm__", None, None, "gm_align"),
    Memory("L1", "__cbuf__", "L1_BASE", "l1_bytes", "l1_align"),
    Memory("UB", "__ubuf__", "UB_BASE", "ub_bytes", "ub_align"),
    Memory("L0A", "__ca__", "L0A_BASE", "l0a_bytes", "l0ab_align"),
    Memory("L0B", "__cb__", "L0B_BASE", "l0b_bytes", "l0ab_align"),
    Memory("L0C", "__cc__", "L0C_BASE", "l0c_bytes", "l0c_align"),
)
MEMORIES = tuple(m.name for m in MEMORY_TABLE)  # the order of enum plaidc_npu_mem

PIPES = ("PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3")
PIPE_ROLES = {
    "PIPE_S": "scalar unit",
    "PIPE_V": "vector unit (and L0C -> UB)",
    "PIPE_M": "Cube unit (mad)",
    "PIPE_MTE1": "L1 -> L0A/L0B",
    "PIPE_MTE2": "GM -> L1/UB",
    "PIPE_MTE3": "UB -> GM/L1",
}


@dataclass(frozen=True)
class DataPath:
    src: str
    dst: str
    pipe: str
    latency_key: str  # [hardware] key: cycles of latency per transfer instruction
    bandwidth_key: str  # [hardware] key: bytes per cycle

    @property
    def name(self) -> str:
        return f"{self.src}->{self.dst}"


PATH_TABLE = (
    DataPath("GM", "UB", "PIPE_MTE2", "gm_latency", "gm_bytes_per_cycle"),
    DataPath("GM", "L1", "PIPE_MTE2", "gm_latency", "gm_bytes_per_cycle"),
    DataPath("UB", "GM", "PIPE_MTE3", "gm_latency", "gm_bytes_per_cycle"),
    DataPath("UB", "L1", "PIPE_MTE3", "ub_l1_latency", "ub_l1_bytes_per_cycle"),
    DataPath("L1", "L0A", "PIPE_MTE1", "l1_l0_latency", "l1_l0_bytes_per_cycle"),
    DataPath("L1", "L0B", "PIPE_MTE1", "l1_l0_latency", "l1_l0_bytes_per_cycle"),
    DataPath("L0C", "UB", "PIPE_V", "l0c_ub_latency", "l0c_ub_bytes_per_cycle"),
)
PATHS = tuple(p.name for p in PATH_TABLE)  # the order of enum plaidc_npu_path

# ---- Encoding units ------------------------------------------------------------------------

# The ISA's encoding units and field limits (plaidc_npu.h's `PLAIDC_NPU_<name>` macros), not
# machine sizes: DMA bursts, gaps and vector strides count 32-B blocks, the vector mask has 128
# lanes, and the width of each instruction field bounds its count.
ENCODING = {
    "BLOCK_BYTES": 32,
    "MASK_LANES": 128,
    "MAX_NBURST": 4095,
    "MAX_LENBURST": 65535,
    "MAX_GAP": 65535,
    "MAX_BYTE_GAP": 4294967295,
    "MAX_REPEAT": 255,
    "MAX_STRIDE": 65535,
    "MAX_MAD_DIM": 4095,
}
BLOCK_BYTES = ENCODING["BLOCK_BYTES"]
MASK_LANES = ENCODING["MASK_LANES"]
MAX_REPEAT = ENCODING["MAX_REPEAT"]  # repeats of one vector instruction, fractals of one load
# The widest repeat the mask can cover: 128 lanes of fp16.
MAX_REPEAT_BYTES = MASK_LANES * 2
MAX_CORES = 64  # the cores of a kernel are a 64-bit set

# ---- Element types ------------------------------------------------------------------------

# The ISA's element types: the C pointer type naming them and their numpy dtype.
ELEMENT_TYPES = {
    "f16": ("half", np.dtype(np.float16)),
    "f32": ("float", np.dtype(np.float32)),
    "s32": ("int32_t", np.dtype(np.int32)),
    "s8": ("int8_t", np.dtype(np.int8)),
    "u8": ("uint8_t", np.dtype(np.uint8)),
    "s16": ("int16_t", np.dtype(np.int16)),
    "u16": ("uint16_t", np.dtype(np.uint16)),
}
FLOAT_TYPES = ("f16", "f32")
LANE_TYPES = ("f16", "f32", "s32")  # what the vector unit computes in


# ---- Intrinsics ---------------------------------------------------------------------------


class Form(Enum):
    """How an intrinsic's operands are laid out (the C macro's shape)."""

    DMA = "dma"  # (dst, src, sid, nBurst, lenBurst, srcGap, dstGap)
    DMA_ALIGN = "dma_align"  # the same operands; lenBurst and GM's gap in bytes
    FRACTAL = "fractal"  # L1 -> L0A/L0B fractal loads
    IMG2COL = "img2col"  # L1 -> L0A: a convolution window's fractals (load3d)
    MAD = "mad"  # the Cube
    CC_COPY = "cc_copy"  # L0C -> UB
    MASK = "mask"  # vector mask register
    BINARY = "binary"  # dst = src0 op src1
    UNARY = "unary"  # dst = f(src)
    SCALAR = "scalar"  # dst = src op scalar
    DUP = "dup"  # dst = scalar
    CONVERT = "convert"  # dst = src converted to another type
    REDUCE = "reduce"  # one element per repeat
    COMPARE = "compare"  # one bit per lane
    SELECT = "select"  # dst = bit ? src0 : src1
    SCALAR_UNIT = "scalar_unit"  # one UB element on PIPE_S
    SYNC = "sync"  # flags and barriers


VECTOR_FORMS = (
    Form.BINARY,
    Form.UNARY,
    Form.SCALAR,
    Form.DUP,
    Form.CONVERT,
    Form.REDUCE,
    Form.COMPARE,
    Form.SELECT,
)

_STRIDES3 = ("dstBlk", "src0Blk", "src1Blk", "dstRep", "src0Rep", "src1Rep")
_VECTOR_PARAMS = {
    Form.BINARY: ("dst", "src0", "src1", "repeat", *_STRIDES3),
    Form.UNARY: ("dst", "src", "repeat", "dstBlk", "srcBlk", "dstRep", "srcRep"),
    Form.CONVERT: ("dst", "src", "repeat", "dstBlk", "srcBlk", "dstRep", "srcRep"),
    Form.SCALAR: ("dst", "src", "scalar", "repeat", "dstBlk", "srcBlk", "dstRep", "srcRep"),
    Form.DUP: ("dst", "scalar", "repeat", "dstBlk", "dstRep"),
    Form.REDUCE: ("dst", "src", "repeat", "dstRep", "srcBlk", "srcRep"),
    Form.COMPARE: ("dst", "src0", "src1", "repeat", "src0Blk", "src1Blk", "src0Rep", "src1Rep"),
    Form.SELECT: ("dst", "src0", "src1", "sel", "repeat", *_STRIDES3),
}
_DMA_PARAMS = ("dst", "src", "sid", "nBurst", "lenBurst", "srcGap", "dstGap")

# img2col_cbuf_to_ca's integer parameters, in order (after dst and src; padValue follows).
IMG2COL_PARAMS = (
    "base",
    "imgStride",
    "rowStride",
    "pixStride",
    "fmH",
    "fmW",
    "channels",
    "hStart",
    "wStart",
    "strideH",
    "strideW",
    "dilH",
    "dilW",
    "outH",
    "outW",
    "mCount",
    "kW",
    "c1",
    "mFractals",
    "kFractals",
)


def img2col(
    l1: np.ndarray, params: dict[str, int], pad: float, cube_m: int, cube_k: int
) -> np.ndarray:
    """What `img2col_cbuf_to_ca` writes to L0A: `mFractals x kFractals` fractals
    `[Mo][Ko][cube_m][cube_k]` of fp16, from the fp16 elements `l1` starting at its `src`.

    The feature maps' element (b, h, w, c) is
    `l1[base + b*imgStride + h*rowStride + w*pixStride + c]` for `h < fmH, w < fmW,
    c < channels`. Matrix row `m` is image `b = m // (outH*outW)` at output position
    `(p, q) = divmod(m % (outH*outW), outW)`; column fractal `ko` is the window position
    `(u, v) = divmod(ko // c1, kW)` and the channels `(ko % c1) * cube_k + [0, cube_k)`. An
    element is the maps' `(b, hStart + strideH*p + dilH*u, wStart + strideW*q + dilW*v, c)`, or
    `pad` where `m >= mCount`, `c >= channels` or that position is outside the map (a
    convolution's padding). The DaVinci's load3d in plaidc's terms: a convolution reaches the
    Cube with no vector pass."""
    g = params
    mf, kf = g["mFractals"], g["kFractals"]
    out = np.full((mf, kf, cube_m, cube_k), pad, dtype=np.float16)
    for mo in range(mf):
        for ko in range(kf):
            u, v = divmod(ko // g["c1"], g["kW"])
            c0 = (ko % g["c1"]) * cube_k
            count = min(max(g["channels"] - c0, 0), cube_k)
            for r in range(cube_m):
                m = mo * cube_m + r
                if m >= g["mCount"] or count == 0:
                    continue
                b, in_image = divmod(m, g["outH"] * g["outW"])
                p, q = divmod(in_image, g["outW"])
                h = g["hStart"] + g["strideH"] * p + g["dilH"] * u
                w = g["wStart"] + g["strideW"] * q + g["dilW"] * v
                if 0 <= h < g["fmH"] and 0 <= w < g["fmW"]:
                    at = g["base"] + b * g["imgStride"] + h * g["rowStride"]
                    at += w * g["pixStride"] + c0
                    out[mo, ko, r, :count] = l1[at : at + count]
    return out


# A lane function: numpy arrays in (fp16 already widened to fp32), an array out.
Semantics = Callable[..., np.ndarray]


@dataclass(frozen=True)
class Intrinsic:
    """One macro of plaidc_npu.h.

    `types` are the lane types a vector intrinsic accepts (all its operands share one);
    `converts` is a conversion's (source, destination) type. `exact`: the simulator's result
    equals `semantics` bit for bit (otherwise within 1 ulp: C's expf/logf against numpy's)."""

    name: str
    form: Form
    pipe: str | None  # None: state and synchronisation, outside every pipe
    params: tuple[str, ...]
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    converts: tuple[str, str] | None = None
    semantics: Semantics | None = None
    exact: bool = True
    doc: str = ""

    @property
    def is_vector(self) -> bool:
        return self.form in VECTOR_FORMS

    @property
    def path(self) -> DataPath | None:
        """The data path a transfer moves along."""
        if len(self.reads) == 1 and len(self.writes) == 1:
            for path in PATH_TABLE:
                if (path.src, path.dst) == (self.reads[0], self.writes[0]):
                    return path
        return None


def _vector(
    name: str,
    form: Form,
    types: tuple[str, ...],
    semantics: Semantics,
    doc: str,
    exact: bool = True,
    converts: tuple[str, str] | None = None,
) -> Intrinsic:
    return Intrinsic(
        name,
        form,
        "PIPE_V",
        _VECTOR_PARAMS[form],
        ("UB",),
        ("UB",),
        types,
        converts,
        semantics,
        exact,
        doc,
    )


def _max_nan(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.maximum(a, b)  # NaN in either operand gives NaN, as the hardware's fmax


def _relu(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "f":
        return np.where(np.isnan(x) | (x > 0), x, np.zeros_like(x))
    return np.maximum(x, 0).astype(x.dtype)


def _rounded(fn: Callable[[np.ndarray], np.ndarray]) -> Semantics:
    """`fn` correctly rounded: computed in fp64, rounded once to the lanes' type."""

    def apply(x: np.ndarray) -> np.ndarray:
        return np.asarray(fn(x.astype(np.float64))).astype(x.dtype)

    return apply


def _round_half_away(x: np.ndarray) -> np.ndarray:
    whole = np.trunc(x)
    return np.where(np.abs(x - whole) >= 0.5, whole + np.sign(x), whole)


def _to_s32(rounding: Callable[[np.ndarray], np.ndarray]) -> Semantics:
    """fp32 -> int32 rounded by `rounding`, saturating, NaN -> 0 (Ascend's vconv_f322s32*)."""

    def convert(x: np.ndarray) -> np.ndarray:
        wide = np.nan_to_num(rounding(x.astype(np.float64)), nan=0.0)
        return np.clip(wide, -(2**31), 2**31 - 1).astype(np.int32)

    return convert


def _fold(op: Callable[[np.ndarray, np.ndarray], np.ndarray], identity: str) -> Semantics:
    """A reduction of one repeat's active lanes: `acc = identity; acc = op(acc, lane)` in lane
    order, in the lanes' type (`identity`: "zero", "lowest" or "highest" of that type)."""

    def reduce(lanes: np.ndarray) -> np.ndarray:
        if lanes.dtype.kind == "f":
            first = {"zero": 0.0, "lowest": -np.inf, "highest": np.inf}[identity]
        else:
            info = np.iinfo(lanes.dtype)
            first = {"zero": 0, "lowest": info.min, "highest": info.max}[identity]
        return np.asarray(functools.reduce(op, lanes, lanes.dtype.type(first)))

    return reduce


_ANY = LANE_TYPES
_FLOAT = FLOAT_TYPES


def _int_wrap(op: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Semantics:
    def apply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return op(a, b)

    return apply


VECTOR_TABLE = (
    # the order of enum plaidc_npu_vop
    _vector("vadd", Form.BINARY, _ANY, _int_wrap(np.add), "dst = src0 + src1"),
    _vector("vsub", Form.BINARY, _ANY, _int_wrap(np.subtract), "dst = src0 - src1"),
    _vector("vmul", Form.BINARY, _ANY, _int_wrap(np.multiply), "dst = src0 * src1"),
    _vector("vmax", Form.BINARY, _ANY, _max_nan, "dst = max(src0, src1), NaN wins"),
    _vector("vmin", Form.BINARY, _ANY, np.minimum, "dst = min(src0, src1), NaN wins"),
    _vector("vexp", Form.UNARY, _FLOAT, _rounded(np.exp), "dst = e^src", exact=False),
    _vector("vln", Form.UNARY, _FLOAT, _rounded(np.log), "dst = ln(src)", exact=False),
    _vector("vabs", Form.UNARY, _ANY, np.abs, "dst = |src| (int32: -INT_MIN wraps)"),
    _vector("vrelu", Form.UNARY, _ANY, _relu, "dst = src > 0 ? src : 0 (NaN stays)"),
    _vector("vrec", Form.UNARY, _FLOAT, lambda x: np.float32(1) / x, "dst = 1 / src"),
    _vector("vsqrt", Form.UNARY, _FLOAT, np.sqrt, "dst = sqrt(src)"),
    _vector(
        "vrsqrt", Form.UNARY, _FLOAT, lambda x: np.float32(1) / np.sqrt(x), "dst = 1/sqrt(src)"
    ),
    _vector("vadds", Form.SCALAR, _ANY, _int_wrap(np.add), "dst = src + scalar"),
    _vector("vmuls", Form.SCALAR, _ANY, _int_wrap(np.multiply), "dst = src * scalar"),
    _vector("vector_dup", Form.DUP, _ANY, lambda s: s, "dst = scalar"),
    _vector(
        "vconv_f322f16",
        Form.CONVERT,
        ("f32",),
        lambda x: x.astype(np.float16),
        "fp32 -> fp16, to nearest even",
        converts=("f32", "f16"),
    ),
    _vector(
        "vconv_f162f32",
        Form.CONVERT,
        ("f16",),
        lambda x: x.astype(np.float32),
        "fp16 -> fp32, exact",
        converts=("f16", "f32"),
    ),
    _vector(
        "vconv_s322f32",
        Form.CONVERT,
        ("s32",),
        lambda x: x.astype(np.float32),
        "int32 -> fp32, to nearest even",
        converts=("s32", "f32"),
    ),
    _vector(
        "vconv_f322s32z",
        Form.CONVERT,
        ("f32",),
        _to_s32(np.trunc),
        "fp32 -> int32 toward zero, saturating, NaN -> 0",
        converts=("f32", "s32"),
    ),
    _vector(
        "vconv_f322s32f",
        Form.CONVERT,
        ("f32",),
        _to_s32(np.floor),
        "fp32 -> int32 rounding down, saturating, NaN -> 0",
        converts=("f32", "s32"),
    ),
    _vector(
        "vconv_f322s32c",
        Form.CONVERT,
        ("f32",),
        _to_s32(np.ceil),
        "fp32 -> int32 rounding up, saturating, NaN -> 0",
        converts=("f32", "s32"),
    ),
    _vector(
        "vconv_f322s32a",
        Form.CONVERT,
        ("f32",),
        _to_s32(_round_half_away),
        "fp32 -> int32 to nearest, ties away from zero (C round), saturating, NaN -> 0",
        converts=("f32", "s32"),
    ),
    _vector(
        "vconv_s82s32",
        Form.CONVERT,
        ("s8",),
        lambda x: x.astype(np.int32),
        "int8 -> int32, exact",
        converts=("s8", "s32"),
    ),
    _vector(
        "vconv_u82s32",
        Form.CONVERT,
        ("u8",),
        lambda x: x.astype(np.int32),
        "uint8 -> int32, exact",
        converts=("u8", "s32"),
    ),
    _vector(
        "vconv_s322s8",
        Form.CONVERT,
        ("s32",),
        lambda x: x.astype(np.int8),
        "int32 -> int8, the low 8 bits (modular, as a C cast)",
        converts=("s32", "s8"),
    ),
    _vector(
        "vconv_s322u8",
        Form.CONVERT,
        ("s32",),
        lambda x: x.astype(np.uint8),
        "int32 -> uint8, the low 8 bits",
        converts=("s32", "u8"),
    ),
    _vector(
        "vconv_s162s32",
        Form.CONVERT,
        ("s16",),
        lambda x: x.astype(np.int32),
        "int16 -> int32, exact",
        converts=("s16", "s32"),
    ),
    _vector(
        "vconv_u162s32",
        Form.CONVERT,
        ("u16",),
        lambda x: x.astype(np.int32),
        "uint16 -> int32, exact",
        converts=("u16", "s32"),
    ),
    _vector(
        "vconv_s322s16",
        Form.CONVERT,
        ("s32",),
        lambda x: x.astype(np.int16),
        "int32 -> int16, the low 16 bits (modular, as a C cast)",
        converts=("s32", "s16"),
    ),
    _vector(
        "vconv_s322u16",
        Form.CONVERT,
        ("s32",),
        lambda x: x.astype(np.uint16),
        "int32 -> uint16, the low 16 bits",
        converts=("s32", "u16"),
    ),
    _vector("vcadd", Form.REDUCE, _ANY, _fold(_int_wrap(np.add), "zero"), "sum of the lanes"),
    _vector("vcmax", Form.REDUCE, _ANY, _fold(_max_nan, "lowest"), "max of the active lanes"),
    _vector("vcmin", Form.REDUCE, _ANY, _fold(np.minimum, "highest"), "min of the active lanes"),
    _vector("vcmp_eq", Form.COMPARE, _ANY, np.equal, "bit = src0 == src1"),
    _vector("vcmp_ne", Form.COMPARE, _ANY, np.not_equal, "bit = src0 != src1"),
    _vector("vcmp_lt", Form.COMPARE, _ANY, np.less, "bit = src0 < src1"),
    _vector("vcmp_le", Form.COMPARE, _ANY, np.less_equal, "bit = src0 <= src1"),
    _vector("vcmp_gt", Form.COMPARE, _ANY, np.greater, "bit = src0 > src1"),
    _vector("vcmp_ge", Form.COMPARE, _ANY, np.greater_equal, "bit = src0 >= src1"),
    _vector("vsel", Form.SELECT, _ANY, np.where, "dst = sel bit ? src0 : src1 (bit-exact copy)"),
    _vector(
        "vaddrelu",
        Form.BINARY,
        _FLOAT,
        lambda a, b: _relu(a + b),
        "dst = relu(src0 + src1), the sum rounded to the lanes' type first (NaN stays)",
    ),
)

OTHER_TABLE = (
    Intrinsic("copy_gm_to_ubuf", Form.DMA, "PIPE_MTE2", _DMA_PARAMS, ("GM",), ("UB",)),
    Intrinsic("copy_gm_to_cbuf", Form.DMA, "PIPE_MTE2", _DMA_PARAMS, ("GM",), ("L1",)),
    Intrinsic("copy_ubuf_to_gm", Form.DMA, "PIPE_MTE3", _DMA_PARAMS, ("UB",), ("GM",)),
    Intrinsic("copy_ubuf_to_cbuf", Form.DMA, "PIPE_MTE3", _DMA_PARAMS, ("UB",), ("L1",)),
    Intrinsic(
        "copy_gm_to_ubuf_align",
        Form.DMA_ALIGN,
        "PIPE_MTE2",
        _DMA_PARAMS,
        ("GM",),
        ("UB",),
        doc="bursts of lenBurst bytes from any GM byte (gaps: GM's in bytes, UB's in blocks), "
        "each into whole UB blocks, the rest of its last block zero",
    ),
    Intrinsic(
        "copy_ubuf_to_gm_align",
        Form.DMA_ALIGN,
        "PIPE_MTE3",
        _DMA_PARAMS,
        ("UB",),
        ("GM",),
        doc="bursts of lenBurst bytes from whole UB blocks to any GM byte (gaps: UB's in "
        "blocks, GM's in bytes); nothing else of GM is written",
    ),
    Intrinsic(
        "load_cbuf_to_ca",
        Form.FRACTAL,
        "PIPE_MTE1",
        ("dst", "src", "baseIdx", "repeat", "srcStride", "sid", "transpose"),
        ("L1",),
        ("L0A",),
        ("f16",),
        doc="`repeat` 16x16 fp16 fractals, optionally transposed",
    ),
    Intrinsic(
        "load_cbuf_to_cb",
        Form.FRACTAL,
        "PIPE_MTE1",
        ("dst", "src", "baseIdx", "repeat", "srcStride", "sid", "transpose"),
        ("L1",),
        ("L0B",),
        ("f16",),
        doc="`repeat` 16x16 fp16 fractals, optionally transposed",
    ),
    Intrinsic(
        "img2col_cbuf_to_ca",
        Form.IMG2COL,
        "PIPE_MTE1",
        ("dst", "src", *IMG2COL_PARAMS, "padValue"),
        ("L1",),
        ("L0A",),
        ("f16",),
        doc="a convolution window's img2col fractals from an fp16 feature map in L1 (`img2col`)",
    ),
    Intrinsic(
        "mad",
        Form.MAD,
        "PIPE_M",
        ("c", "a", "b", "m", "k", "n", "init"),
        ("L0A", "L0B"),
        ("L0C",),
        ("f16",),
        converts=("f16", "f32"),
        doc="C[m x n] (init ? = : +=) A[m x k] . B[k x n] on fractals, fp16 x fp16 -> fp32",
    ),
    Intrinsic(
        "copy_matrix_cc_to_ubuf",
        Form.CC_COPY,
        "PIPE_V",
        ("dst", "src", "sid", "nBurst", "lenBurst", "srcGap", "dstGap", "mode"),
        ("L0C",),
        ("UB",),
        ("f32",),
        doc="fractal bursts L0C -> UB; mode CC_MODE_* converts to fp16 and/or applies ReLU",
    ),
    Intrinsic("set_vector_mask", Form.MASK, None, ("hi", "lo"), doc="the 128-lane mask"),
    Intrinsic("ld_ubuf", Form.SCALAR_UNIT, "PIPE_S", ("p",), ("UB",), doc="read one element"),
    Intrinsic("st_ubuf", Form.SCALAR_UNIT, "PIPE_S", ("p", "v"), (), ("UB",), doc="write one"),
    Intrinsic("set_flag", Form.SYNC, None, ("src", "dst", "ev"), doc="release an event"),
    Intrinsic("wait_flag", Form.SYNC, None, ("src", "dst", "ev"), doc="wait for an event"),
    Intrinsic("pipe_barrier", Form.SYNC, None, ("pipe",), doc="drain a pipe (or PIPE_ALL)"),
    Intrinsic(
        "sync_all_cores",
        Form.SYNC,
        None,
        (),
        doc="drain every pipe, wait for every core; all resume core_barrier_latency later",
    ),
)

INTRINSICS = {i.name: i for i in (*VECTOR_TABLE, *OTHER_TABLE)}
VECTOR_OPS = tuple(i.name for i in VECTOR_TABLE)
# The byte-exact DMAs (the CCE's `_align` transfers) extend NPU.md's strict DMA set (32-B aligned
# GM, bursts of whole blocks): a chip may lack them, and the backend then stages ragged rows in
# whole blocks and lays them out on the vector unit instead.
ALIGN_DMAS = ("copy_gm_to_ubuf_align", "copy_ubuf_to_gm_align")
# What `[hardware] lacks` may name: bit k of the simulator's `lacks` masks OPTIONAL_OPS[k]
# (enum plaidc_npu_vop, then enum plaidc_npu_optional_dma in plaidc_npu.h).
OPTIONAL_OPS = (*VECTOR_OPS, *ALIGN_DMAS)


def intrinsic(name: str) -> Intrinsic:
    """The declaration of `name` (a KeyError names an intrinsic the ISA does not have)."""
    return INTRINSICS[name]


def conversion(src: str, dst: str) -> Intrinsic | None:
    """The vector conversion from element type `src` to `dst`, if the ISA has one (fp32 ->
    int32: the truncating one, as casts convert; the other roundings are named)."""
    for intr in VECTOR_TABLE:
        if intr.converts == (src, dst):
            return intr
    return None
