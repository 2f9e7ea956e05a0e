"""Kernel values as UB vectors, and the vector instructions that compute them.

Within one tile every vector value holds one element per point of the tile's layout (`n`
elements, padded to whole repeats so instructions never need masks); a mask value holds the
bits of a comparison (one per lane); scalars stay compile-time constants and become instruction
immediates (`vadds`, `vmuls`) or one-repeat constant vectors read with repeat stride 0.

`IntrinsicLowering.intrinsic` maps each supported intrinsic onto the ISA, exactly where the ISA
allows (`sub(x, c)` is `vadds(x, -c)`, `neg` is `vmuls(x, -1)`, `sigmoid` is the interpreter's
own `1 / (1 + exp(-x))`) and with one rounding more where it does not: `div(a, b)` is
`a * vrec(b)` (within 2 ulp of a correctly rounded quotient).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from plaidc.backends.c import ast as c
from plaidc.backends.npu.kernels import error
from plaidc.backends.npu.ops import (
    BLOCK,
    MAX_REPEAT,
    Arena,
    Buf,
    Op,
    Region,
    call,
    round_up,
    scalar_literal,
)
from plaidc.backends.npu.vtypes import VType
from plaidc.interp import numpy_dtype
from plaidc.stripe.ir import DType

BINARY_INSTR = {"add": "vadd", "sub": "vsub", "mul": "vmul", "max": "vmax", "min": "vmin"}
UNARY_INSTR = {
    "exp": "vexp",
    "log": "vln",
    "abs": "vabs",
    "relu": "vrelu",
    "sqrt": "vsqrt",
    "recip": "vrec",
}
COMPARE_INSTR = {f"cmp_{k}": f"vcmp_{k}" for k in ("eq", "ne", "lt", "gt", "le", "ge")}


@dataclass(frozen=True)
class Val:
    """A value in a tile: a vector or mask at byte `offset` of `buf`, or a scalar constant.
    `const` vectors hold one repeat and are read with repeat stride 0."""

    kind: str
    dtype: DType | None
    buf: Buf | None = None
    offset: int = 0
    scalar: object = None
    const: bool = False

    def ptr(self, byte_offset: int = 0) -> c.Expr:
        assert self.buf is not None and self.dtype is not None
        ctype = "uint8_t" if self.kind == "mask" else self.dtype
        return self.buf.ptr(ctype, self.offset + (0 if self.const else byte_offset))


def cast_scalar(value: object, dtype: DType) -> float | int:
    """`value` as numpy converts a (weak or strong) scalar into an array op of `dtype`."""
    with np.errstate(all="ignore"):
        converted = np.asarray(value).astype(numpy_dtype(dtype))
    return converted.item()


class ValueEmitter:
    """Whole-layout vector instructions for one tile of `n` points."""

    def __init__(self, n: int, repeat_bytes: int, arena: Arena, ops: list[Op], where: str):
        self.n, self.rb, self.arena, self.ops, self.where = n, repeat_bytes, arena, ops, where

    # -- sizes --------------------------------------------------------------------------------

    def lanes(self, dtype: DType) -> int:
        return self.rb // dtype.byte_size

    def repeats(self, dtype: DType) -> int:
        return -(-self.n // self.lanes(dtype))

    def vec_bytes(self, dtype: DType) -> int:
        return self.repeats(dtype) * self.rb

    def mask_bytes(self, dtype: DType) -> int:
        return round_up(self.repeats(dtype) * self.lanes(dtype) // 8, BLOCK)

    def alloc_vec(self, dtype: DType, what: str) -> Val:
        return Val("vec", dtype, self.arena.alloc(self.vec_bytes(dtype), what))

    def region(self, v: Val) -> Region:
        """The bytes a whole-layout instruction may touch of `v`."""
        assert v.buf is not None and v.dtype is not None
        if v.const:
            size = self.rb
        elif v.kind == "mask":
            size = self.mask_bytes(v.dtype)
        else:
            size = self.vec_bytes(v.dtype)
        return Region(v.buf.mem, v.buf.offset + v.offset, v.buf.offset + v.offset + size)

    # -- emission -----------------------------------------------------------------------------

    def _emit(
        self,
        dtype: DType,
        dst: Val,
        srcs: list[Val],
        make: Callable[[int, int], c.Stmt],
        note: str,
    ) -> None:
        """Instructions over every repeat of a `dtype` layout, 255 repeats at a time;
        `make(first_repeat, count)` builds one instruction."""
        total = self.repeats(dtype)
        stmts = [make(k, min(MAX_REPEAT, total - k)) for k in range(0, total, MAX_REPEAT)]
        reads = tuple(self.region(s) for s in srcs if s.kind != "scalar")
        writes = (self.region(dst),)
        self.ops.append(Op("PIPE_V", tuple(stmts), reads, writes, note))

    def _stride(self, v: Val, blocks: int) -> int:
        return 0 if v.const else blocks

    def binary(self, instr: str, dst: Val, a: Val, b: Val) -> None:
        assert dst.dtype is not None
        rb, blocks = self.rb, self.rb // BLOCK

        def make(k: int, r: int) -> c.Stmt:
            off = k * rb
            return call(
                instr,
                dst.ptr(off),
                a.ptr(off),
                b.ptr(off),
                r,
                1,
                1,
                1,
                blocks,
                self._stride(a, blocks),
                self._stride(b, blocks),
            )

        self._emit(dst.dtype, dst, [a, b], make, instr)

    def unary(self, instr: str, dst: Val, a: Val) -> None:
        assert dst.dtype is not None
        rb, blocks = self.rb, self.rb // BLOCK

        def make(k: int, r: int) -> c.Stmt:
            off = k * rb
            return call(instr, dst.ptr(off), a.ptr(off), r, 1, 1, blocks, blocks)

        self._emit(dst.dtype, dst, [a], make, instr)

    def with_scalar(self, instr: str, dst: Val, a: Val, value: float | int) -> None:
        assert dst.dtype is not None
        rb, blocks, lit = self.rb, self.rb // BLOCK, scalar_literal(value, dst.dtype)

        def make(k: int, r: int) -> c.Stmt:
            off = k * rb
            return call(instr, dst.ptr(off), a.ptr(off), lit, r, 1, 1, blocks, blocks)

        self._emit(dst.dtype, dst, [a], make, f"{instr} {value}")

    def dup(self, dst: Val, value: float | int, repeats: int | None = None) -> None:
        assert dst.dtype is not None and dst.buf is not None
        blocks, lit = self.rb // BLOCK, scalar_literal(value, dst.dtype)
        if repeats is not None:  # a constant vector: one repeat
            stmt = call("vector_dup", dst.ptr(), lit, repeats, 1, blocks)
            self.ops.append(Op("PIPE_V", (stmt,), (), (dst.buf.region(),), f"dup {value}"))
            return

        def make(k: int, r: int) -> c.Stmt:
            return call("vector_dup", dst.ptr(k * self.rb), lit, r, 1, blocks)

        self._emit(dst.dtype, dst, [], make, f"dup {value}")

    def convert(self, dst: Val, a: Val) -> None:
        """fp16 <-> fp32: one repeat holds as many elements as the fp32 side has lanes."""
        assert dst.dtype is not None and a.dtype is not None
        instr = "vconv_f322f16" if dst.dtype is DType.FP16 else "vconv_f162f32"
        lanes = self.rb // 4
        total = -(-self.n // lanes)
        d_blk = lanes * dst.dtype.byte_size // BLOCK
        s_blk = lanes * a.dtype.byte_size // BLOCK
        stmts = []
        for k in range(0, total, MAX_REPEAT):
            r = min(MAX_REPEAT, total - k)
            stmts.append(
                call(
                    instr,
                    dst.ptr(k * d_blk * BLOCK),
                    a.ptr(k * s_blk * BLOCK),
                    r,
                    1,
                    1,
                    d_blk,
                    s_blk,
                )
            )
        self.ops.append(Op("PIPE_V", tuple(stmts), (self.region(a),), (self.region(dst),), instr))

    def compare(self, instr: str, dst: Val, a: Val, b: Val) -> None:
        assert a.dtype is not None
        rb, blocks = self.rb, self.rb // BLOCK
        mask_step = self.lanes(a.dtype) // 8

        def make(k: int, r: int) -> c.Stmt:
            return call(
                instr,
                dst.ptr(k * mask_step),
                a.ptr(k * rb),
                b.ptr(k * rb),
                r,
                1,
                1,
                self._stride(a, blocks),
                self._stride(b, blocks),
            )

        self._emit(a.dtype, dst, [a, b], make, instr)

    def select(self, dst: Val, mask: Val, a: Val, b: Val) -> None:
        assert dst.dtype is not None
        rb, blocks = self.rb, self.rb // BLOCK
        mask_step = self.lanes(dst.dtype) // 8

        def make(k: int, r: int) -> c.Stmt:
            off = k * rb
            return call(
                "vsel",
                dst.ptr(off),
                a.ptr(off),
                b.ptr(off),
                mask.ptr(k * mask_step),
                r,
                1,
                1,
                1,
                blocks,
                self._stride(a, blocks),
                self._stride(b, blocks),
            )

        self._emit(dst.dtype, dst, [mask, a, b], make, "vsel")


def check_lanes(where: str, mask: VType, dtype: DType) -> None:
    """A mask from a comparison in one lane width cannot select between another width."""
    assert mask.dtype is not None
    if mask.dtype.byte_size != dtype.byte_size:
        raise error(
            f"{where}: a comparison of {mask.dtype} values selects between {dtype} values; the "
            "vector unit's masks do not carry across lane widths"
        )


class IntrinsicLowering(ValueEmitter):
    """`ValueEmitter` plus the mapping of kernel intrinsics onto it. Constant vectors and the
    temporaries of one operation (conversions, reciprocals) are owned here; the caller frees
    `scratch` after each operation and everything at the end of the tile."""

    def __init__(self, n: int, repeat_bytes: int, arena: Arena, ops: list[Op], where: str):
        super().__init__(n, repeat_bytes, arena, ops, where)
        self.consts: dict[tuple[DType, str], Val] = {}
        self.scratch: list[Val] = []

    def const_vec(self, value: float | int, dtype: DType) -> Val:
        key = (dtype, repr(value))
        if key not in self.consts:
            v = Val("vec", dtype, self.arena.alloc(self.rb, "constant"), const=True)
            self.dup(v, value, repeats=1)
            self.consts[key] = v
        return self.consts[key]

    def full(self, v: Val, dtype: DType) -> Val:
        """`v` as a whole-layout vector of `dtype` (scalars broadcast, fp16/fp32 converted)."""
        if v.kind == "scalar":
            out = self.alloc_vec(dtype, "broadcast")
            self.dup(out, cast_scalar(v.scalar, dtype))
            self.scratch.append(out)
            return out
        return self.operand(v, dtype)

    def operand(self, v: Val, dtype: DType) -> Val:
        """`v` as an instruction operand of `dtype` (scalars as constant vectors)."""
        if v.kind == "scalar":
            return self.const_vec(cast_scalar(v.scalar, dtype), dtype)
        if v.dtype == dtype:
            return v
        out = self.alloc_vec(dtype, "conversion")
        self.convert(out, v)
        self.scratch.append(out)
        return out

    def intrinsic(self, name: str, t: VType, args: list[Val]) -> Val:
        """The value of `name(args)`, whose type is `t` (a vector or mask)."""
        dt = t.dtype
        assert dt is not None
        if name in COMPARE_INSTR or name == "as_bool":
            a = self.operand(args[0], dt)
            b = self.operand(args[1] if name != "as_bool" else Val("scalar", None, scalar=0), dt)
            out = Val("mask", dt, self.arena.alloc(self.mask_bytes(dt), name))
            self.compare(COMPARE_INSTR.get(name, "vcmp_ne"), out, a, b)
            return out
        if name == "cond":
            return self._cond(t, args)
        if name.startswith("cast_"):  # a store read back: the stored type
            return args[0] if args[0].kind == "mask" else self.operand(args[0], dt)
        if name == "as_float":
            if args[0].dtype == dt:
                return args[0]
            out = self.alloc_vec(dt, name)
            self.convert(out, args[0])
            return out
        out = self.alloc_vec(dt, name)
        if name in BINARY_INSTR or name == "div":
            self._binary(name, out, args[0], args[1])
        elif name == "neg":
            self.with_scalar("vmuls", out, self.operand(args[0], dt), -1)
        elif name == "sigmoid":  # the interpreter's 1 / (1 + exp(-x)), step by step
            self.with_scalar("vmuls", out, self.operand(args[0], dt), -1)
            self.unary("vexp", out, out)
            self.with_scalar("vadds", out, out, 1)
            self.unary("vrec", out, out)
        else:
            self.unary(UNARY_INSTR[name], out, self.operand(args[0], dt))
        return out

    def _binary(self, name: str, out: Val, x: Val, y: Val) -> None:
        dt = out.dtype
        assert dt is not None
        if name == "div":
            if y.kind == "scalar":
                one = np.asarray(1, numpy_dtype(dt))
                with np.errstate(all="ignore"):
                    rec = (one / np.asarray(cast_scalar(y.scalar, dt), numpy_dtype(dt))).item()
                self.with_scalar("vmuls", out, self.operand(x, dt), rec)
                return
            self.unary("vrec", out, self.operand(y, dt))
            if x.kind == "scalar":
                self.with_scalar("vmuls", out, out, cast_scalar(x.scalar, dt))
            else:
                self.binary("vmul", out, self.operand(x, dt), out)
            return
        if x.kind == "scalar" and name in ("add", "mul", "max", "min"):
            x, y = y, x
        if y.kind == "scalar" and name in ("add", "sub", "mul"):
            value = cast_scalar(y.scalar, dt)
            if name == "sub":
                with np.errstate(all="ignore"):
                    value = (-np.asarray(value, numpy_dtype(dt))).item()
            self.with_scalar("vmuls" if name == "mul" else "vadds", out, self.operand(x, dt), value)
            return
        if x.kind == "scalar" and name == "sub":  # c - y == -y + c, exactly
            self.with_scalar("vmuls", out, self.operand(y, dt), -1)
            self.with_scalar("vadds", out, out, cast_scalar(x.scalar, dt))
            return
        self.binary(BINARY_INSTR[name], out, self.operand(x, dt), self.operand(y, dt))

    def _cond(self, t: VType, args: list[Val]) -> Val:
        dt = t.dtype
        assert dt is not None
        test, a, b = args
        if test.kind == "scalar":  # decided at compile time
            chosen = a if bool(test.scalar) else b
            return self.full(chosen, dt) if chosen.kind == "scalar" else self.operand(chosen, dt)
        mask = test
        if test.kind != "mask":
            assert test.dtype is not None
            zero = self.const_vec(0, test.dtype)
            mask = Val("mask", test.dtype, self.arena.alloc(self.mask_bytes(test.dtype), "test"))
            self.compare("vcmp_ne", mask, test, zero)
            self.scratch.append(mask)
        assert mask.dtype is not None
        check_lanes(self.where, VType("mask", mask.dtype), dt)
        out = self.alloc_vec(dt, "cond")
        self.select(out, mask, self.operand(a, dt), self.operand(b, dt))
        return out
