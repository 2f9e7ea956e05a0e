"""plaidc's float32 exp as an LLVM function (`plaidc.backends.loopnest.exp_poly` describes the
steps and their error): internal and always inlined, branch-free, so the loop vectoriser turns
a loop calling it into vector code with the polynomial in registers.

Its floating-point constants are read from a table, `plaidc.exp.f32.constants`, declared
`externally_initialized` so that LLVM does not fold the loads back into literals: the loads
are loop-invariant, hoisted, and the vector loop keeps the constants in registers. As literals
they lived in the constant pool, which the JIT's large code model addresses through a 64-bit
address in a general register per constant (`movabsq`); softmax's exp loop ran out of
registers and reloaded addresses and broadcast constants from memory every vector (33
instructions per 16 elements instead of 25; one thread, 128x4096, 0.265 -> 0.246 ms)."""

from __future__ import annotations

from llvmlite import ir

from plaidc.backends.loopnest import exp_poly

F32 = ir.FloatType()
I32 = ir.IntType(32)
NAME = "plaidc.exp.f32"
LDEXP = "llvm.ldexp.f32.i32"


def exp_f32_function(module: ir.Module) -> ir.Function:
    """The module's `plaidc.exp.f32(float) -> float`, defined on first use."""
    existing = module.globals.get(NAME)
    if isinstance(existing, ir.Function):
        return existing
    fn = ir.Function(module, ir.FunctionType(F32, [F32]), name=NAME)
    fn.linkage = "internal"
    # (it reads its constants' table)
    for attribute in ("alwaysinline", "nounwind", "memory(read)"):
        set.add(fn.attributes, attribute)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    fma = module.globals.get("llvm.fma.f32")
    if not isinstance(fma, ir.Function):
        fma = ir.Function(module, ir.FunctionType(F32, [F32] * 3), name="llvm.fma.f32")

    # The constants, read from the table (module docstring); others stay literals.
    values = [
        exp_poly.CLAMP_LO,
        exp_poly.CLAMP_HI,
        exp_poly.LOG2E,
        exp_poly.SHIFT,
        -exp_poly.LN2_HI,
        -exp_poly.LN2_LO,
        *exp_poly.POLY,
        1.0,
    ]
    table_type = ir.ArrayType(F32, len(values))
    table = ir.GlobalVariable(module, table_type, name=f"{NAME}.constants")
    table.linkage = "internal"
    table.initializer = ir.Constant(table_type, [float(v) for v in values])
    # (llvmlite has no field for it; this one prints between the linkage and `global`)
    table.storage_class = "externally_initialized"
    slots = {float(v): i for i, v in reversed(list(enumerate(values)))}
    loaded: dict[int, ir.Value] = {}

    def f(value: float) -> ir.Value:
        index = slots.get(float(value))
        if index is None:
            return ir.Constant(F32, float(value))
        if index not in loaded:
            loaded[index] = b.load(b.gep(table, [i(0), i(index)], inbounds=True))
        return loaded[index]

    def i(value: int) -> ir.Constant:
        return ir.Constant(I32, value)

    def mad(a: ir.Value, m: ir.Value, c: ir.Value) -> ir.Value:
        return b.call(fma, [a, m, c])

    (x,) = fn.args
    # Ordered comparisons are false for NaN, so NaN passes both clamps.
    xc = b.select(b.fcmp_ordered("<", x, f(exp_poly.CLAMP_LO)), f(exp_poly.CLAMP_LO), x)
    xc = b.select(b.fcmp_ordered(">", xc, f(exp_poly.CLAMP_HI)), f(exp_poly.CLAMP_HI), xc)
    shifted = mad(xc, f(exp_poly.LOG2E), f(exp_poly.SHIFT))
    k = b.sub(b.bitcast(shifted, I32), i(exp_poly.SHIFT_BITS))
    kf = b.fsub(shifted, f(exp_poly.SHIFT))
    r = mad(kf, f(-exp_poly.LN2_HI), xc)
    r = mad(kf, f(-exp_poly.LN2_LO), r)
    *low, top = exp_poly.POLY
    p: ir.Value = f(top)
    for coef in reversed(low):
        p = mad(p, r, f(coef))
    y = b.fadd(mad(b.fmul(p, r), r, r), f(1.0))
    # y * 2^k rounded once (to a subnormal, 0 or inf where it must): llvm.ldexp, which
    # LLVM lowers to one vscalefps on AVX-512 and to integer steps elsewhere. NaN needs no
    # select: it passed the clamps, so y is NaN.
    ldexp = module.globals.get(LDEXP)
    if not isinstance(ldexp, ir.Function):
        ldexp = ir.Function(module, ir.FunctionType(F32, [F32, I32]), name=LDEXP)
    b.ret(b.call(ldexp, [y, k]))
    return fn
