"""The ISA table (`npu_sim.isa`) against the header and the simulator.

Every vector intrinsic runs on every element type the table lists, on random data with the
special values (NaN, infinities, signed zeros, integer extremes), and must give exactly what
the table's numpy semantics give (within 1 ulp where the table says `exact=False`); every lane
type it does not list must be rejected. The header must declare exactly the table's macros with
its parameter counts, and its enumerations in the table's order."""

from __future__ import annotations

import re

import numpy as np
import pytest

from plaidc.backends.npu_sim import HEADER, NpuSimError, compile_kernel, isa
from plaidc.backends.npu_sim.isa import ELEMENT_TYPES, LANE_TYPES, Form, Intrinsic
from plaidc.backends.npu_sim.runner import DEFAULT_CFLAGS

from .support.npu_sim import default_machine

HEADER_TEXT = HEADER.read_text()
REPEATS = 2
SCALARS = {"f16": 2.5, "f32": -1.75, "s32": 3}


def _enum(name: str) -> list[str]:
    body = re.search(r"enum " + name + r"\s*\{(.*?)\}", HEADER_TEXT, re.S)
    assert body, name
    text = re.sub(r"/\*.*?\*/", "", body.group(1), flags=re.S)
    return [e.split("=")[0].strip() for e in text.split(",") if e.strip()][:-1]  # drop count


def test_header_enumerations_follow_the_table() -> None:
    assert _enum("plaidc_npu_vop") == [f"PLAIDC_{n.upper()}" for n in isa.VECTOR_OPS]
    assert _enum("plaidc_npu_mem") == [f"PLAIDC_MEM_{m}" for m in isa.MEMORIES]
    assert _enum("plaidc_npu_path") == [f"PLAIDC_PATH_{p.src}_{p.dst}" for p in isa.PATH_TABLE]
    assert _enum("plaidc_npu_pipe") == [*isa.PIPES, "PIPE_ALL"]  # PIPE_ALL: barriers only


def test_header_declares_exactly_the_tables_macros() -> None:
    dialect = HEADER_TEXT.split("---- The dialect")[1]
    macros = dict(re.findall(r"#define ([a-z][a-z0-9_]*)\(([^)]*)\)", dialect))
    assert set(macros) == set(isa.INTRINSICS)
    for name, params in macros.items():
        count = len([p for p in params.split(",") if p.strip()])
        assert count == len(isa.INTRINSICS[name].params), name
    for mem in isa.MEMORY_TABLE:
        assert re.search(rf"#define {re.escape(mem.qualifier)}\b", HEADER_TEXT)
        if mem.base:
            assert f"#define {mem.base} ((" in HEADER_TEXT


def test_header_encoding_units_are_the_tables() -> None:
    """The backend reads the ISA's units and field limits from `isa.ENCODING`; the header's
    `PLAIDC_NPU_*` macros, which the simulator checks instructions against, must agree."""
    macros = dict(re.findall(r"#define PLAIDC_NPU_([A-Z_]+) (\d+)\n", HEADER_TEXT))
    assert {k: int(v) for k, v in macros.items() if k in isa.ENCODING} == isa.ENCODING


def test_paths_and_memories_name_hardware_keys() -> None:
    hardware = default_machine()
    for mem in isa.MEMORY_TABLE:
        assert mem.size_key is None or getattr(hardware, mem.size_key) > 0
    for path in isa.PATH_TABLE:
        assert getattr(hardware, path.bandwidth_key) > 0
    transfers = [i for i in isa.INTRINSICS.values() if i.form is Form.DMA]
    assert sorted(str(i.path.name) for i in transfers if i.path) == sorted(
        p.name for p in isa.PATH_TABLE if p.pipe in ("PIPE_MTE2", "PIPE_MTE3")
    )


# ---- Semantics ----------------------------------------------------------------------------


def _ctype(t: str) -> str:
    return ELEMENT_TYPES[t][0]


def _lanes(intr: Intrinsic, t: str) -> int:
    """Lanes per repeat: 256 B of the widest operand type (conversions: at least 4 bytes)."""
    size = ELEMENT_TYPES[t][1].itemsize
    if intr.converts:
        size = max(4, *(ELEMENT_TYPES[x][1].itemsize for x in intr.converts))
    return default_machine().vector_repeat_bytes // size


def _blocks(nbytes: int) -> int:
    return -(-nbytes // 32)


def _data(t: str, n: int, rng: np.random.Generator, intr: Intrinsic) -> np.ndarray:
    dtype = ELEMENT_TYPES[t][1]
    if dtype.kind == "f":
        scale = 4.0 if intr.name in ("vexp", "vconv_f322f16") else 100.0
        x = (rng.standard_normal(n) * scale).astype(dtype)
        special = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-30, 70000.0, 3e9, -3e9, 0.5]
        special += [-0.5, 2.5, -2.5, 1.5, -1.25, 8388609.0]  # ties and the 2^23 edge
        with np.errstate(over="ignore"):
            x[: len(special)] = np.array(special, np.float64).astype(dtype)
        return x
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, n, endpoint=True, dtype=np.int64).astype(dtype)
    x[:4] = [info.min, info.max, 0, -1 if info.min < 0 else 1]
    return x


def _kernel(intr: Intrinsic, t: str) -> tuple[str, tuple[str, ...]]:
    """A kernel running `intr` once over two repeats on type `t` (GM X, Y, S in; O out)."""
    src_t, dst_t = intr.converts or (t, t)
    lanes = _lanes(intr, t)
    n = lanes * REPEATS
    src_c, dst_c = _ctype(src_t), _ctype(dst_t)
    in_blocks = _blocks(n * ELEMENT_TYPES[src_t][1].itemsize)
    src_rep = lanes * ELEMENT_TYPES[src_t][1].itemsize // 32
    dst_rep = lanes * ELEMENT_TYPES[dst_t][1].itemsize // 32
    out_c, out_blocks = dst_c, _blocks(n * ELEMENT_TYPES[dst_t][1].itemsize)
    scalar = SCALARS.get(t, 0)
    form, name = intr.form, intr.name
    if form is Form.BINARY:
        body = f"{name}(o, x, y, {REPEATS}, 1, 1, 1, 8, 8, 8);"
    elif form in (Form.UNARY, Form.CONVERT):
        body = f"{name}(o, x, {REPEATS}, 1, 1, {dst_rep}, {src_rep});"
    elif form is Form.SCALAR:
        body = f"{name}(o, x, {scalar}, {REPEATS}, 1, 1, 8, 8);"
    elif form is Form.DUP:
        body = f"{name}(o, {scalar}, {REPEATS}, 1, 8);"
    elif form is Form.REDUCE:
        body = f"{name}(o, x, {REPEATS}, 1, 1, 8);"
        out_blocks = 1
    elif form is Form.COMPARE:
        body = f"{name}((__ubuf__ uint8_t *)o, x, y, {REPEATS}, 1, 1, 8, 8);"
        out_c, out_blocks = "uint8_t", _blocks(n // 8)
    else:  # SELECT
        body = f"{name}(o, x, y, s, {REPEATS}, 1, 1, 1, 8, 8, 8);"
    source = f"""#include "plaidc_npu.h"
void k(__gm__ {src_c} *X, __gm__ {src_c} *Y, __gm__ uint8_t *S, __gm__ {out_c} *O) {{
  __ubuf__ {src_c} *x = (__ubuf__ {src_c} *)(UB_BASE + 0x0000);
  __ubuf__ {src_c} *y = (__ubuf__ {src_c} *)(UB_BASE + 0x1000);
  __ubuf__ uint8_t *s = (__ubuf__ uint8_t *)(UB_BASE + 0x2000);
  __ubuf__ {out_c} *o = (__ubuf__ {out_c} *)(UB_BASE + 0x3000);
  copy_gm_to_ubuf(x, X, 0, 1, {in_blocks}, 0, 0);
  copy_gm_to_ubuf(y, Y, 0, 1, {in_blocks}, 0, 0);
  copy_gm_to_ubuf(s, S, 0, 1, 1, 0, 0);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  {body}
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(O, o, 0, 1, {out_blocks}, 0, 0);
  pipe_barrier(PIPE_ALL);
}}
"""
    return source, ("X", "Y", "S", "O")


def _run(intr: Intrinsic, t: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(what the simulator computed, what the table's semantics say), as flat arrays."""
    rng = np.random.default_rng(seed)
    src_t, dst_t = intr.converts or (t, t)
    n = _lanes(intr, t) * REPEATS
    x, y = _data(src_t, n, rng, intr), _data(src_t, n, rng, intr)
    y[1::7] = x[1::7]  # some equal pairs for the comparisons
    sel = rng.integers(0, 256, 32, dtype=np.uint8)
    out_dtype = ELEMENT_TYPES[dst_t][1]
    if intr.form is Form.COMPARE:
        out_dtype = np.dtype(np.uint8)
    out = np.zeros(max(n * out_dtype.itemsize, 32) // out_dtype.itemsize, out_dtype)
    source, params = _kernel(intr, t)
    kernel = compile_kernel(source, "k", params, filename=f"{intr.name}.c", cflags=DEFAULT_CFLAGS)
    got = kernel.run({"X": x, "Y": y, "S": sel, "O": out}, default_machine()).buffers["O"]

    def lanes(a: np.ndarray) -> np.ndarray:  # fp16 is computed in fp32 (as the simulator does)
        return a.astype(np.float32) if a.dtype == np.float16 and intr.form != Form.CONVERT else a

    sem = intr.semantics
    assert sem is not None
    with np.errstate(all="ignore"):
        if intr.form is Form.BINARY:
            want = sem(lanes(x), lanes(y))
        elif intr.form in (Form.UNARY, Form.CONVERT):
            want = sem(lanes(x))
        elif intr.form is Form.SCALAR:
            k = np.array(SCALARS[t]).astype(ELEMENT_TYPES[t][1])
            want = sem(lanes(x), lanes(k))
        elif intr.form is Form.DUP:
            k = np.array(SCALARS[t]).astype(ELEMENT_TYPES[t][1])
            want = np.full(n, sem(k))
        elif intr.form is Form.REDUCE:
            per = lanes(x).reshape(REPEATS, -1)
            want = np.array([sem(row) for row in per])
        elif intr.form is Form.COMPARE:
            bits = sem(lanes(x), lanes(y))
            want = np.packbits(bits, bitorder="little")
        else:
            bits = np.unpackbits(sel, bitorder="little")[:n].astype(bool)
            want = sem(bits.reshape(REPEATS, -1)[:, : n // REPEATS].reshape(-1), x, y)
        want = np.asarray(want).astype(out_dtype)
    return got[: want.size], want


def _assert_matches(intr: Intrinsic, got: np.ndarray, want: np.ndarray) -> None:
    if got.dtype.kind != "f":
        assert np.array_equal(got, want), f"{intr.name}: {got} != {want}"
        return
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    # bit-exact: the sign of zero counts
    same &= (np.signbit(got) == np.signbit(want)) | np.isnan(got)
    if not intr.exact:
        with np.errstate(invalid="ignore"):
            close = np.abs(got.astype(np.float64) - want) <= np.spacing(np.abs(want))
        same |= close & np.isfinite(want)
    bad = np.flatnonzero(~same)
    assert bad.size == 0, f"{intr.name}: lanes {bad[:8]}: got {got[bad[:8]]}, want {want[bad[:8]]}"


CASES = [
    pytest.param(intr, t, id=f"{intr.name}-{t}")
    for intr in isa.VECTOR_TABLE
    for t in (intr.types if not intr.converts else intr.converts[:1])
]


@pytest.mark.parametrize(("intr", "t"), CASES)
def test_simulator_implements_the_table(intr: Intrinsic, t: str) -> None:
    for seed in (0, 1):
        got, want = _run(intr, t, seed)
        _assert_matches(intr, got, want)


REJECTED = [
    pytest.param(intr, t, id=f"{intr.name}-{t}")
    for intr in isa.VECTOR_TABLE
    if not intr.converts
    for t in LANE_TYPES
    if t not in intr.types
]


@pytest.mark.parametrize(("intr", "t"), REJECTED)
def test_simulator_rejects_types_the_table_leaves_out(intr: Intrinsic, t: str) -> None:
    with pytest.raises(NpuSimError, match=f"{intr.name}: .*does not support"):
        _run(intr, t, 0)


def test_every_vector_intrinsic_is_exercised() -> None:
    assert {p.values[0].name for p in CASES} == set(isa.VECTOR_OPS)


def test_a_chip_without_an_intrinsic_rejects_it() -> None:
    intr = isa.intrinsic("vexp")
    machine = default_machine().replace(lacks=("vexp",))
    source, params = _kernel(intr, "f32")
    kernel = compile_kernel(source, "k", params, filename="lacks.c", cflags=DEFAULT_CFLAGS)
    x = np.ones(128, np.float32)
    buffers = {"X": x, "Y": x, "S": np.zeros(32, np.uint8), "O": np.zeros(128, np.float32)}
    with pytest.raises(NpuSimError, match="vexp: vexp is not in this machine's instruction set"):
        kernel.run(buffers, machine)
    kernel.run(buffers, default_machine())  # the full ISA runs it
