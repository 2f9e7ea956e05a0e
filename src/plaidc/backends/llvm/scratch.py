"""Heap scratch kept between calls (`Plan.scratch_slots`): per allocation, a module global of
slots, and two internal functions that take a buffer from the slots (exchanging it for null)
and give it back into an empty one (compare-and-exchange), allocating or freeing only when
no slot has one, so several threads, and several calls, never share a buffer. The C
backend's `plaidc_scratch_take`/`plaidc_scratch_give` do the same."""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir

from plaidc.backends.llvm.ops import I1, I64, PTR

TAKE = "plaidc.scratch_take"
# exported where a module keeps scratch: frees what the slots hold (the JIT calls it when the
# compiled program is dropped)
FREE = "plaidc_scratch_free"
GIVE = "plaidc.scratch_give"


def slots_global(module: ir.Module, slots: int) -> ir.GlobalVariable:
    """A fresh array of `slots` null pointers for one allocation's kept buffers."""
    array = ir.ArrayType(PTR, slots)
    name = module.get_unique_name("plaidc.kept")
    kept = ir.GlobalVariable(module, array, name)
    kept.linkage = "internal"
    kept.initializer = ir.Constant(array, None)
    kept.align = 8
    kept.type = PTR  # referenced as an opaque pointer (llvmlite types it otherwise)
    return kept


def take_function(module: ir.Module) -> ir.Function:
    """`ptr take(ptr slots, i64 n, i64 align, i64 bytes)`: a slot's buffer, else a new one
    (null when the allocation fails)."""
    existing = module.globals.get(TAKE)
    if isinstance(existing, ir.Function):
        return existing
    fn = ir.Function(module, ir.FunctionType(PTR, [PTR, I64, I64, I64]), name=TAKE)
    fn.linkage = "internal"
    slots, n, align, nbytes = fn.args
    taken: list[ir.Value] = []

    def exchange(b: ir.IRBuilder, slot: ir.Value) -> ir.Value:
        taken.append(b.atomic_rmw("xchg", slot, ir.Constant(PTR, None), "acquire"))
        return b.icmp_unsigned("!=", taken[0], ir.Constant(PTR, None))

    def allocate(b: ir.IRBuilder) -> None:
        aligned_alloc = _declare(module, "aligned_alloc", PTR, [I64, I64])
        b.ret(b.call(aligned_alloc, [align, nbytes]))

    _scan_slots(fn, slots, n, exchange, lambda b: b.ret(taken[0]), allocate)
    return fn


def give_function(module: ir.Module) -> ir.Function:
    """`void give(ptr slots, i64 n, ptr buf)`: `buf` into an empty slot, else freed."""
    existing = module.globals.get(GIVE)
    if isinstance(existing, ir.Function):
        return existing
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, I64, PTR]), name=GIVE)
    fn.linkage = "internal"
    slots, n, buf = fn.args

    def store_if_empty(b: ir.IRBuilder, slot: ir.Value) -> ir.Value:
        pair = b.cmpxchg(slot, ir.Constant(PTR, None), buf, "release", "monotonic")
        return b.icmp_unsigned("==", b.extract_value(pair, 1), ir.Constant(I1, 1))

    def release(b: ir.IRBuilder) -> None:
        b.call(_declare(module, "free", ir.VoidType(), [PTR]), [buf])
        b.ret_void()

    _scan_slots(fn, slots, n, store_if_empty, lambda b: b.ret_void(), release)
    return fn


def _scan_slots(
    fn: ir.Function,
    slots: ir.Value,
    n: ir.Value,
    attempt: Callable[[ir.IRBuilder, ir.Value], ir.Value],
    served: Callable[[ir.IRBuilder], object],
    none_served: Callable[[ir.IRBuilder], object],
) -> None:
    """`fn`'s body: for each of the `n` slots in turn, `attempt` on its address (an i1: this
    slot served); `served` ends the function at the first that did, `none_served` when
    none did."""
    entry, loop, attempt_block, step, hit, miss = (
        fn.append_basic_block(name) for name in ("entry", "loop", "try", "next", "hit", "miss")
    )
    b = ir.IRBuilder(entry)
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I64)
    i.add_incoming(ir.Constant(I64, 0), entry)
    b.cbranch(b.icmp_unsigned(">=", i, n), miss, attempt_block)
    b.position_at_end(attempt_block)
    slot = b.gep(slots, [i], inbounds=True, source_etype=PTR)
    b.cbranch(attempt(b, slot), hit, step)
    b.position_at_end(step)
    i.add_incoming(b.add(i, ir.Constant(I64, 1)), step)
    b.branch(loop)
    b.position_at_end(hit)
    served(b)
    b.position_at_end(miss)
    none_served(b)


def free_function(module: ir.Module, kept: list[tuple[ir.GlobalVariable, int]]) -> None:
    """Export `void plaidc_scratch_free(void)`, which frees and clears every slot of `kept`
    (each slot array with its length)."""
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), []), name=FREE)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    free = _declare(module, "free", ir.VoidType(), [PTR])
    for array, slots in kept:
        for k in range(slots):
            slot = b.gep(array, [ir.Constant(I64, k)], inbounds=True, source_etype=PTR)
            buf = b.atomic_rmw("xchg", slot, ir.Constant(PTR, None), "acquire")
            b.call(free, [buf])
    b.ret_void()


def _declare(module: ir.Module, name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
    existing = module.globals.get(name)
    if isinstance(existing, ir.Function):
        return existing
    return ir.Function(module, ir.FunctionType(ret, args), name=name)
