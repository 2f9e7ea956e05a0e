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

import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from plaidc.backends.c import ast as c
from plaidc.backends.npu.fused_ops import ADD_RELU, ADD_RELU_INSTR
from plaidc.backends.npu.kernels import error
from plaidc.backends.npu.ops import (
    BLOCK,
    ISA_TYPES,
    MAX_REPEAT,
    Arena,
    Buf,
    Op,
    Region,
    call,
    offset_buf,
    round_up,
    scalar_literal,
)
from plaidc.backends.npu.placement import Placed
from plaidc.backends.npu.vtypes import (
    BOOL_ARITHMETIC,
    CASTS,
    LOWERED_TO,
    ROUNDING,
    WRAPPING,
    VType,
)
from plaidc.backends.npu_sim import isa
from plaidc.interp import numpy_dtype
from plaidc.stripe.ir import DType

BINARY_INSTR = {name: LOWERED_TO[name][0] for name in ("add", "sub", "mul", "max", "min")}
UNARY_INSTR = {name: LOWERED_TO[name][0] for name in ("exp", "log", "abs", "relu", "sqrt", "recip")}
COMPARE_INSTR = {
    f"cmp_{k}": isa.intrinsic(f"vcmp_{k}").name for k in ("eq", "ne", "lt", "gt", "le", "ge")
}


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
    # A Cube result still in L0C's `[No][Mo][fm][fn]` fractals (`FractalShape`): only the
    # first operation on it reads it, straight from there (`ValueEmitter._on_fractals`)
    fractal: FractalShape | None = None

    def ptr(self, byte_offset: int = 0) -> c.Expr:
        assert self.buf is not None and self.dtype is not None
        ctype = "uint8_t" if self.kind == "mask" else self.dtype
        return self.buf.ptr(ctype, self.offset + (0 if self.const else byte_offset))


@dataclass(frozen=True)
class FractalShape:
    """A Cube result's fractals in UB: `rows_n // fn` columns of `rows_m` rows of `fn`."""

    rows_m: int
    rows_n: int
    fn: int


def cast_scalar(value: object, dtype: DType) -> float | int:
    """`value` as numpy converts a (weak or strong) scalar into an array op of `dtype`."""
    with np.errstate(all="ignore"):
        converted = np.asarray(value).astype(numpy_dtype(dtype))
    return converted.item()


class ValueEmitter:
    """Whole-layout vector instructions for one tile of `n` points."""

    def __init__(self, n: int, repeat_bytes: int, arena: Arena, ops: list[Op], where: str):
        self.n, self.rb, self.arena, self.ops, self.where = n, repeat_bytes, arena, ops, where
        # Where the next vector should go when it fits there (a placed output window, so the
        # value stored straight from it sits where the pass pipeline placed the output).
        self.prefer: Placed | None = None

    # -- sizes --------------------------------------------------------------------------------

    def lanes(self, dtype: DType) -> int:
        return self.rb // dtype.byte_size

    def repeats(self, dtype: DType) -> int:
        return -(-self.n // self.lanes(dtype))

    def vec_bytes(self, dtype: DType) -> int:
        return self.repeats(dtype) * self.rb

    def mask_bytes(self, dtype: DType) -> int:
        return round_up(self.repeats(dtype) * self.lanes(dtype) // 8, BLOCK)

    @contextmanager
    def preferring(self, at: Placed | None) -> Iterator[None]:
        """Within the block, the next vector that fits `at` goes there (`prefer`)."""
        self.prefer = at
        try:
            yield
        finally:
            self.prefer = None

    def alloc_vec(self, dtype: DType, what: str) -> Val:
        nbytes = self.vec_bytes(dtype)
        if self.prefer is not None and nbytes <= self.prefer.size:
            buf = self.arena.claim(self.prefer.offset, nbytes)
            if buf is not None:
                self.prefer = None
                return Val("vec", dtype, buf)
        return Val("vec", dtype, self.arena.alloc(nbytes, what))

    def region(self, v: Val) -> Region:
        """The bytes a whole-layout instruction may touch of `v`."""
        assert v.buf is not None and v.dtype is not None
        if v.const:
            size = self.rb
        elif v.fractal is not None:
            size = v.fractal.rows_m * v.fractal.rows_n * v.dtype.byte_size
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
        if a.fractal is not None or b.fractal is not None:
            self._on_fractals(instr, dst, [a, b], None)
            return
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
        if a.fractal is not None:
            self._on_fractals(instr, dst, [a], None)
            return
        rb, blocks = self.rb, self.rb // BLOCK

        def make(k: int, r: int) -> c.Stmt:
            off = k * rb
            return call(instr, dst.ptr(off), a.ptr(off), r, 1, 1, blocks, blocks)

        self._emit(dst.dtype, dst, [a], make, instr)

    def with_scalar(self, instr: str, dst: Val, a: Val, value: float | int) -> None:
        assert dst.dtype is not None
        rb, blocks, lit = self.rb, self.rb // BLOCK, scalar_literal(value, dst.dtype)
        if a.fractal is not None:
            self._on_fractals(instr, dst, [a], lit)
            return

        def make(k: int, r: int) -> c.Stmt:
            off = k * rb
            return call(instr, dst.ptr(off), a.ptr(off), lit, r, 1, 1, blocks, blocks)

        self._emit(dst.dtype, dst, [a], make, f"{instr} {value}")

    def fractal_rows(self, shape: FractalShape, dtype: DType) -> int | None:
        """The rows of a Cube result's fractals (`shape`, of `dtype`) an instruction on them
        writes in this layout's row-major rows (`_on_fractals`): the layout's rows, rounded up
        to a repeat's worth of one-block fractal rows; None where it cannot (a fractal row
        that is not whole 32-B blocks, more rows than the fractals hold, or more bytes than
        a layout vector has)."""
        size, per = dtype.byte_size, self.rb // BLOCK
        if shape.fn * size % BLOCK or shape.rows_n * size % BLOCK or shape.rows_n % shape.fn:
            return None
        rows = round_up(-(-self.n // shape.rows_n), per)
        if rows > shape.rows_m or rows * shape.rows_n * size > self.vec_bytes(dtype):
            return None
        return rows

    def _on_fractals(self, instr: str, dst: Val, srcs: list[Val], lit: c.Expr | None) -> None:
        """`instr` (binary, unary, or with the scalar `lit`) whose fractal operand (`Val.
        fractal`) is read as it came out of L0C: each repeat reads a repeat's blocks of one
        fractal column down its rows (one block a row, consecutive) and writes them a row
        apart in `dst`'s row-major rows, where the other operand is read alike: the layout
        copy (`fractal_layout.fractal_rows`) done by the operation itself."""
        dtype = dst.dtype
        shape = next(s.fractal for s in srcs if s.fractal is not None)
        assert dtype is not None and shape is not None
        rows = self.fractal_rows(shape, dtype)
        assert rows is not None, "a fractal operand the layout cannot take"
        size, per = dtype.byte_size, self.rb // BLOCK
        row_blocks, frac_blocks = shape.rows_n * size // BLOCK, shape.fn * size // BLOCK
        stmts: list[c.Stmt] = []
        for n in range(shape.rows_n // shape.fn):
            for b in range(frac_blocks):
                for m0 in range(0, rows, per * MAX_REPEAT):
                    count = min(MAX_REPEAT, (rows - m0) // per)
                    at_row = (m0 * shape.rows_n + n * shape.fn) * size + b * BLOCK
                    at_frac = (n * shape.rows_m + m0) * shape.fn * size + b * BLOCK
                    ptrs, blk, rep = [dst.ptr(at_row)], [row_blocks], [per * row_blocks]
                    for s in srcs:
                        if s.fractal is not None:
                            ptrs.append(s.ptr(at_frac))
                            blk.append(frac_blocks)
                            rep.append(per * frac_blocks)
                        else:
                            ptrs.append(s.ptr(at_row))
                            blk.append(1 if s.const else row_blocks)
                            rep.append(0 if s.const else per * row_blocks)
                    scalar = [] if lit is None else [lit]
                    stmts.append(call(instr, *ptrs, *scalar, count, *blk, *rep))
        reads = tuple(self.region(s) for s in srcs if s.kind != "scalar")
        self.ops.append(Op("PIPE_V", tuple(stmts), reads, (self.region(dst),), f"{instr} rows"))

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
        """`dst = a` in `dst`'s lane type (fp16, fp32, int32); fp16 <-> int32 go through an
        fp32 scratch. Float -> int truncates toward zero, as the interpreter's casts do."""
        assert dst.dtype is not None and a.dtype is not None and dst.buf and a.buf
        steps = conversion_steps(a.dtype, dst.dtype)
        src_buf, src_type = offset_buf(a.buf, a.offset), a.dtype
        for k, (instr, to) in enumerate(steps):
            last = k == len(steps) - 1
            out = (
                offset_buf(dst.buf, dst.offset)
                if last
                else self.arena.alloc(self.vec_bytes(to), "conversion")
            )
            self.ops.append(convert_op(instr, out, to, src_buf, src_type, self.n, self.rb))
            if k > 0:  # an fp32 intermediate
                self.arena.release(src_buf)
            src_buf, src_type = out, to

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


# The ISA's conversion instruction of each (source, destination) Stripe type, where it has one.
CONVERSIONS = {
    (src, dst): conv.name
    for src, dst in itertools.permutations(ISA_TYPES, 2)
    if (conv := isa.conversion(ISA_TYPES[src], ISA_TYPES[dst])) is not None
}


def conversion_steps(src: DType, dst: DType) -> list[tuple[str, DType]]:
    """The conversion instructions from `src` to `dst` elements, with each one's result type."""
    if (src, dst) in CONVERSIONS:
        return [(CONVERSIONS[src, dst], dst)]
    if {src, dst} == {DType.FP16, DType.I32}:  # through fp32
        return [(CONVERSIONS[src, DType.FP32], DType.FP32), (CONVERSIONS[DType.FP32, dst], dst)]
    raise error(f"no NPU conversion from {src} to {dst}")


def convert_op(instr: str, dst: Buf, to: DType, src: Buf, frm: DType, n: int, rb: int) -> Op:
    """One conversion of `n` elements from `src` to `dst`: a repeat converts as many elements
    as the 32-bit side has lanes, 255 repeats per instruction."""
    lanes = rb // 4
    total = -(-n // lanes)
    d_blk, s_blk = lanes * to.byte_size // BLOCK, lanes * frm.byte_size // BLOCK
    stmts = []
    for k in range(0, total, MAX_REPEAT):
        r = min(MAX_REPEAT, total - k)
        stmts.append(
            call(
                instr,
                dst.ptr(to, k * d_blk * BLOCK),
                src.ptr(frm, k * s_blk * BLOCK),
                r,
                1,
                1,
                d_blk,
                s_blk,
            )
        )
    reads = (src.region(0, total * s_blk * BLOCK),)
    writes = (dst.region(0, total * d_blk * BLOCK),)
    return Op("PIPE_V", tuple(stmts), reads, writes, instr)


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
        """`v` as an instruction operand of `dtype` (scalars as constant vectors, comparison
        results as 1 / 0)."""
        if v.kind == "scalar":
            return self.const_vec(cast_scalar(v.scalar, dtype), dtype)
        if v.kind == "mask":
            assert v.dtype is not None
            bits = self.alloc_vec(v.dtype, "bool")  # 1 / 0 in the comparison's lane width
            self.select(bits, v, self.const_vec(1, v.dtype), self.const_vec(0, v.dtype))
            self.scratch.append(bits)
            return self.operand(bits, dtype)
        if v.dtype == dtype:
            return v
        out = self.alloc_vec(dtype, "conversion")
        self.convert(out, v)
        self.scratch.append(out)
        return out

    def wrap(self, dst: Val, src: Val, narrow: DType) -> None:
        """`dst` = the int32 lanes of `src` reduced to the range of `narrow` (i8, u8, i16, u16)
        through an 8/16-bit scratch: what numpy's 8/16-bit arithmetic keeps of a wider result."""
        assert dst.buf is not None and src.buf is not None
        scratch = self.arena.alloc(self.repeats(DType.I32) * self.lanes(DType.I32), "narrow")
        there, back = CONVERSIONS[DType.I32, narrow], CONVERSIONS[narrow, DType.I32]
        src_buf, dst_buf = offset_buf(src.buf, src.offset), offset_buf(dst.buf, dst.offset)
        self.ops.append(convert_op(there, scratch, narrow, src_buf, DType.I32, self.n, self.rb))
        self.ops.append(convert_op(back, dst_buf, DType.I32, scratch, narrow, self.n, self.rb))
        self.arena.release(scratch)

    def cast(self, v: Val, src: VType, to: VType) -> Val:
        """`v` (of type `src`) converted to type `to`: lanes converted (float -> int truncates),
        8/16-bit results wrapped, comparison results as 1 / 0."""
        dt = to.dtype
        assert dt is not None
        if v.kind == "mask":
            out = self.alloc_vec(dt, "bool")
            self.select(out, v, self.const_vec(1, dt), self.const_vec(0, dt))
            return out
        needs_wrap = to.narrow is not None and src.narrow != to.narrow and not src.boolean
        if v.dtype == dt and not needs_wrap:
            return v
        out = self.alloc_vec(dt, "cast")
        if v.dtype != dt:
            self.convert(out, v)
            v = out
        if needs_wrap:
            assert to.narrow is not None
            self.wrap(out, v, to.narrow)
        return out

    def intrinsic(self, name: str, t: VType, args: list[Val], types: list[VType]) -> Val:
        """The value of `name(args)`, whose type is `t` (a vector or mask); `types` are the
        arguments' types (needed by casts)."""
        if t.boolean and name in BOOL_ARITHMETIC:  # 0/1 lanes: or / and as max / min
            instr = BOOL_ARITHMETIC[name]
            assert t.dtype is not None
            if instr is None:  # abs
                return self.operand(args[0], t.dtype)
            out = self.alloc_vec(t.dtype, name)
            a, b = (self.operand(v, t.dtype) for v in args)
            self.binary(instr, out, a, b)
            return out
        out = self._intrinsic(name, t, args, types)
        if t.narrow is not None and name in WRAPPING:
            self.wrap(out, out, t.narrow)
        return out

    def _intrinsic(self, name: str, t: VType, args: list[Val], types: list[VType]) -> Val:
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
        if name.startswith("cast_") and args[0].kind == "mask":  # a bool store read back
            return args[0]
        if name.startswith("cast_") or name in CASTS:
            return self.cast(args[0], types[0], t)
        out = self.alloc_vec(dt, name)
        if name == ADD_RELU:  # `fused_ops`: two vectors of `dt`
            self.binary(ADD_RELU_INSTR, out, self.operand(args[0], dt), self.operand(args[1], dt))
        elif name in BINARY_INSTR or name == "div":
            self._binary(name, out, args[0], args[1])
        elif name == "neg":
            self.with_scalar("vmuls", out, self.operand(args[0], dt), -1)
        elif name in ROUNDING:
            self._integral(name, out, self.operand(args[0], dt))
        elif name == "sigmoid":  # the interpreter's 1 / (1 + exp(-x)), step by step
            self.with_scalar("vmuls", out, self.operand(args[0], dt), -1)
            self.unary("vexp", out, out)
            self.with_scalar("vadds", out, out, 1)
            self.unary("vrec", out, out)
        else:
            self.unary(UNARY_INSTR[name], out, self.operand(args[0], dt))
        return out

    def _integral(self, name: str, out: Val, x: Val) -> None:
        """`out` = floor / ceil / round of `x` (float lanes; an integer's rounding is itself):
        through int32 with the ISA's rounding conversion where |x| < 2^23, `x` elsewhere (those
        floats are integers, NaN or infinite)."""
        assert out.dtype is not None and out.buf is not None
        if out.dtype is DType.I32:  # round() of an integer
            self.with_scalar("vadds", out, x, 0)
            return
        wide = self.operand(x, DType.FP32)
        ints = self.alloc_vec(DType.I32, name)
        self.scratch.append(ints)
        assert wide.buf is not None and ints.buf is not None
        self.ops.append(
            convert_op(
                ROUNDING[name],
                offset_buf(ints.buf, ints.offset),
                DType.I32,
                offset_buf(wide.buf, wide.offset),
                DType.FP32,
                self.n,
                self.rb,
            )
        )
        rounded = self.alloc_vec(DType.FP32, name)
        magnitude = self.alloc_vec(DType.FP32, "magnitude")
        self.scratch.extend([rounded, magnitude])
        self.convert(rounded, ints)
        self.unary("vabs", magnitude, wide)
        small = Val("mask", DType.FP32, self.arena.alloc(self.mask_bytes(DType.FP32), name))
        self.scratch.append(small)
        self.compare("vcmp_lt", small, magnitude, self.const_vec(2.0**23, DType.FP32))
        if out.dtype is DType.FP32:
            self.select(out, small, rounded, wide)
            return
        self.select(rounded, small, rounded, wide)
        self.convert(out, rounded)

    def _binary(self, name: str, out: Val, x: Val, y: Val) -> None:
        dt = out.dtype
        assert dt is not None
        if name == "div" and dt is DType.FP16:
            # The ISA divides as a reciprocal times the dividend: in fp16 that rounds twice
            # (1 ulp off for a third of quotients). In fp32 lanes, rounded once to fp16 at the
            # end, it matches numpy's fp16 division (itself an fp32 quotient, rounded).
            wide = self.alloc_vec(DType.FP32, "fp32 quotient")
            self.scratch.append(wide)
            self._binary(name, wide, self._fp32(x), self._fp32(y))
            self.convert(out, wide)
            return
        if name == "div" and dt is DType.I32:
            self._int_div(out, x, y)
            return
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

    def _int_div(self, out: Val, x: Val, y: Val) -> None:
        """`out = x / y` on int32 lanes as C divides, toward zero (`x / 0` is 0, the
        interpreter's value; INT_MIN / -1 wraps). The ISA divides only floats: an fp32
        quotient (of 24-bit approximations of the operands) is refined once from the exact
        int32 remainder, which leaves it at most one off, then corrected where the remainder
        `x - q*y` is not between 0 and |y| on the side of x."""
        i32, f32 = DType.I32, DType.FP32
        a, b = self.full(x, i32), self.full(y, i32)  # whole vectors: they are converted

        def vec(dtype: DType, what: str) -> Val:
            v = self.alloc_vec(dtype, what)
            self.scratch.append(v)
            return v

        def mask(instr: str, p: Val, q: Val) -> Val:
            m = Val("mask", i32, self.arena.alloc(self.mask_bytes(i32), instr))
            self.scratch.append(m)
            self.compare(instr, m, p, q)
            return m

        def remainder(into: Val) -> None:  # into = a - out * b, wrapping
            self.binary("vmul", into, out, b)
            self.binary("vsub", into, a, into)

        reciprocal, estimate = vec(f32, "1 / y"), vec(f32, "quotient")
        self.convert(reciprocal, b)
        self.unary("vrec", reciprocal, reciprocal)
        self.convert(estimate, a)
        self.binary("vmul", estimate, estimate, reciprocal)
        self.convert(out, estimate)  # toward zero, saturating
        rem, step = vec(i32, "remainder"), vec(i32, "step")
        remainder(rem)
        self.convert(estimate, rem)
        self.binary("vmul", estimate, estimate, reciprocal)
        self.convert(step, estimate)
        self.binary("vadd", out, out, step)
        remainder(rem)
        # sign = sign(x) * sign(y) (+1 / -1); with r = rem * sign(x), the quotient moves by
        # sign where r >= |y| and by -sign where r < 0
        zero, one, minus = (self.const_vec(v, i32) for v in (0, 1, -1))
        sign_x, sign = vec(i32, "sign of x"), vec(i32, "sign")
        self.select(sign_x, mask("vcmp_lt", a, zero), minus, one)
        self.select(sign, mask("vcmp_lt", b, zero), minus, one)
        self.binary("vmul", sign, sign, sign_x)
        self.binary("vmul", rem, rem, sign_x)
        magnitude = vec(i32, "|y|")
        self.unary("vabs", magnitude, b)
        up, down = step, magnitude  # 1 / 0 where r >= |y|, where r < 0 (|y| used up first)
        self.select(up, mask("vcmp_ge", rem, magnitude), one, zero)
        self.select(down, mask("vcmp_lt", rem, zero), one, zero)
        self.binary("vsub", step, up, down)
        self.binary("vmul", step, step, sign)
        self.binary("vadd", out, out, step)
        self.select(out, mask("vcmp_eq", b, zero), zero, out)
        # |INT_MIN| wraps: x / INT_MIN is 1 for x = INT_MIN, else 0
        lowest = self.const_vec(-(2**31), i32)
        self.select(step, mask("vcmp_eq", a, lowest), one, zero)
        self.select(out, mask("vcmp_eq", b, lowest), step, out)

    def _fp32(self, v: Val) -> Val:
        """An fp16 operand (vector, or scalar rounded to fp16 first) as fp32."""
        if v.kind == "scalar":
            return Val("scalar", None, scalar=cast_scalar(v.scalar, DType.FP16))
        return self.operand(self.operand(v, DType.FP16), DType.FP32)

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
