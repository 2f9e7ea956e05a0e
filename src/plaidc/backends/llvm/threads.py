"""Parallel loops that fall back to one thread while their threads share a CPU (LLVM backend).

What `plaidc.backends.c.threads` does for C (see there why): per parallel loop a module global
of two counters (`state_global`: calls left to run on one thread, the current stretch), and
three internal functions. `team_wanted(state)` says whether this call runs on threads (else
`GOMP_parallel` gets one thread); each thread of the team calls `team_mark(team)` as it starts,
recording `sched_getcpu()` in a `TEAM_WORDS` array of i32 (word 0: the team's size, then one
CPU per thread); after the region `team_check(state, team, backoff)` finds whether two threads
shared a CPU and sets the next 1, 2, 4, ... calls (at most `backoff`) to run on one thread.
"""

from __future__ import annotations

from llvmlite import ir

from plaidc.backends.llvm.ops import I1, I32, PTR

# threads whose CPUs a team records (as the C backend's `TEAM_CPUS`), and the record's words
TEAM_CPUS = 64
TEAM_WORDS = TEAM_CPUS + 1
TEAM_TYPE = ir.ArrayType(I32, TEAM_WORDS)

WANTED = "plaidc.team_wanted"
MARK = "plaidc.team_mark"
CHECK = "plaidc.team_check"


def state_global(module: ir.Module) -> ir.GlobalVariable:
    """A fresh pair of zeroed counters for one parallel loop."""
    array = ir.ArrayType(I32, 2)
    state = ir.GlobalVariable(module, array, module.get_unique_name("plaidc.shared_cpu"))
    state.linkage = "internal"
    state.initializer = ir.Constant(array, None)
    state.align = 8
    state.type = PTR  # referenced as an opaque pointer (llvmlite types it otherwise)
    return state


def _declare(module: ir.Module, name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
    existing = module.globals.get(name)
    if isinstance(existing, ir.Function):
        return existing
    return ir.Function(module, ir.FunctionType(ret, args), name=name)


def _internal(module: ir.Module, name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
    fn = ir.Function(module, ir.FunctionType(ret, args), name=name)
    fn.linkage = "internal"
    return fn


def _word(b: ir.IRBuilder, base: ir.Value, index: ir.Value | int) -> ir.Value:
    k = ir.Constant(I32, index) if isinstance(index, int) else index
    return b.gep(base, [k], inbounds=True, source_etype=I32)


def _load(b: ir.IRBuilder, slot: ir.Value) -> ir.Value:
    return b.load_atomic(slot, "monotonic", 4, typ=I32)


def _store(b: ir.IRBuilder, value: ir.Value, slot: ir.Value) -> None:
    # an exchange: llvmlite's store_atomic needs a typed pointer
    b.atomic_rmw("xchg", slot, value, "monotonic")


def wanted_function(module: ir.Module) -> ir.Function:
    """`i32 team_wanted(ptr state)`: 1 if this call runs on threads, else 0 (one call of the
    stretch spent)."""
    existing = module.globals.get(WANTED)
    if isinstance(existing, ir.Function):
        return existing
    fn = _internal(module, WANTED, I32, [PTR])
    (state,) = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    left = _load(b, _word(b, state, 0))
    serial, threads = fn.append_basic_block("serial"), fn.append_basic_block("threads")
    b.cbranch(b.icmp_signed(">", left, ir.Constant(I32, 0)), serial, threads)
    b.position_at_end(serial)
    _store(b, b.sub(left, ir.Constant(I32, 1)), _word(b, state, 0))
    b.ret(ir.Constant(I32, 0))
    b.position_at_end(threads)
    b.ret(ir.Constant(I32, 1))
    return fn


def mark_function(module: ir.Module) -> ir.Function:
    """`void team_mark(ptr team)`: the calling thread's CPU into its word of `team` (thread 0
    also writes the team's size)."""
    existing = module.globals.get(MARK)
    if isinstance(existing, ir.Function):
        return existing
    fn = _internal(module, MARK, ir.VoidType(), [PTR])
    (team,) = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    tid = b.call(_declare(module, "omp_get_thread_num", I32, []), [])
    with b.if_then(b.icmp_signed("==", tid, ir.Constant(I32, 0))):
        size = b.call(_declare(module, "omp_get_num_threads", I32, []), [])
        b.store(size, _word(b, team, 0))
    with b.if_then(b.icmp_signed("<", tid, ir.Constant(I32, TEAM_CPUS))):
        cpu = b.call(_declare(module, "sched_getcpu", I32, []), [])
        b.store(cpu, _word(b, team, b.add(tid, ir.Constant(I32, 1))))
    b.ret_void()
    return fn


def check_function(module: ir.Module) -> ir.Function:
    """`void team_check(ptr state, ptr team, i32 backoff)`: if two of the team's recorded CPUs
    are the same, the next calls run on one thread (1, then twice the last stretch, at most
    `backoff`); else on threads from the next call on."""
    existing = module.globals.get(CHECK)
    if isinstance(existing, ir.Function):
        return existing
    fn = _internal(module, CHECK, ir.VoidType(), [PTR, PTR, I32])
    state, team, backoff = fn.args
    blocks = {
        name: fn.append_basic_block(name)
        for name in ("entry", "outer", "inner_start", "inner", "compare", "step", "next", "done")
    }
    zero, one = ir.Constant(I32, 0), ir.Constant(I32, 1)
    b = ir.IRBuilder(blocks["entry"])
    size = b.load(_word(b, team, 0), typ=I32)
    limit = ir.Constant(I32, TEAM_CPUS)
    n = b.select(b.icmp_signed("<", size, limit), size, limit)
    b.branch(blocks["outer"])
    # for i in 0..n: for j in i+1..n: shared if cpu[i] >= 0 and cpu[i] == cpu[j]
    b.position_at_end(blocks["outer"])
    i = b.phi(I32)
    i.add_incoming(zero, blocks["entry"])
    b.cbranch(b.icmp_signed("<", i, n), blocks["inner_start"], blocks["done"])
    b.position_at_end(blocks["inner_start"])
    after_i = b.add(i, one)
    cpu_i = b.load(_word(b, team, after_i), typ=I32)  # word 0 is the size
    b.branch(blocks["inner"])
    b.position_at_end(blocks["inner"])
    j = b.phi(I32)
    j.add_incoming(after_i, blocks["inner_start"])
    b.cbranch(b.icmp_signed("<", j, n), blocks["compare"], blocks["next"])
    b.position_at_end(blocks["compare"])
    cpu_j = b.load(_word(b, team, b.add(j, one)), typ=I32)
    same = b.and_(b.icmp_signed(">=", cpu_i, zero), b.icmp_signed("==", cpu_i, cpu_j))
    b.cbranch(same, blocks["done"], blocks["step"])
    b.position_at_end(blocks["step"])
    j.add_incoming(b.add(j, one), blocks["step"])
    b.branch(blocks["inner"])
    b.position_at_end(blocks["next"])
    i.add_incoming(after_i, blocks["next"])
    b.branch(blocks["outer"])
    b.position_at_end(blocks["done"])
    shared = b.phi(I1)
    shared.add_incoming(ir.Constant(I1, 0), blocks["outer"])
    shared.add_incoming(ir.Constant(I1, 1), blocks["compare"])
    last = _load(b, _word(b, state, 1))
    doubled = b.select(
        b.icmp_signed("<", last, b.sdiv(backoff, ir.Constant(I32, 2))),
        b.mul(last, ir.Constant(I32, 2)),
        backoff,
    )
    longer = b.select(b.icmp_signed("<=", last, zero), one, doubled)
    stretch = b.select(shared, longer, zero)
    _store(b, stretch, _word(b, state, 1))
    _store(b, stretch, _word(b, state, 0))
    b.ret_void()
    return fn
