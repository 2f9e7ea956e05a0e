"""`place`: golden offsets, the two liveness models, the fit error, and property tests that
buffers live at the same time never overlap (on random request sets for the allocator, and on
random block trees for the pass, against an oracle written from the tree structure alone)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plaidc.analysis.liveness import allocation_bytes
from plaidc.diagnostics import CompileError
from plaidc.passes import PassOptionError, get_pass, make_options
from plaidc.passes.place import PlacementError, PlaceOptions, Request, first_fit, place
from plaidc.stripe.ir import (
    Affine,
    Block,
    Constant,
    DType,
    Load,
    Location,
    RefDir,
    Refinement,
    Statement,
    Tags,
    TensorShape,
)
from plaidc.stripe.parser import parse_stripe


def parse(text: str) -> Block:
    return parse_stripe(text, "<test>")


def run(program: Block, **options: object) -> Block:
    info = get_pass("place")
    return info.run(program, make_options(info, options))


def offsets(block: Block) -> dict[str, int]:
    """`name -> offset` of every allocation in the program (names are unique in the tests)."""
    out = {r.into: r.offset for r in block.refs if r.from_ is None}
    for stmt in block.stmts:
        if isinstance(stmt, Block):
            out.update(offsets(stmt))
    return out


# A and B live across both children; each child has a scratch buffer of its own.
SIBLINGS = """\
0: #program
block []:1 (
    #user none new@0x00000100 X<UB>[0] fp32(8):(1)
    #user none new@0x00000000 Y[0] fp32(8):(1)
) {
  0: #main
  block []:1 ( // main
      in X[0] fp32(8):(1)
      out Y[0] fp32(8):(1)
      none new@0x00000000 A<UB>[0] fp32(10):(1)
      none new@0x00000000 B<UB>[0] fp32(8):(1)
      none new@0x00000000 D<DRAM>[0] fp32(8):(1)
  ) {
    0: block [i:8]:8 ( // first
        in X[i] fp32(1):(1)
        out A[i] fp32(1):(1)
        out B[i] fp32(1):(1)
        none new@0x00000000 T<UB>[0] fp32(4):(1)
    ) {
      0: $x = load(X)
      1: T = store($x)
      2: $t = load(T)
      3: A = store($t)
      4: B = store($t)
    }
    1: block [i:8]:8 ( // second
        in A[i] fp32(1):(1)
        in B[i] fp32(1):(1)
        out Y[i] fp32(1):(1)
        none new@0x00000000 U<UB>[0] fp32(4):(1)
    ) {
      0: $a = load(A)
      1: $b = load(B)
      2: $s = add($a, $b)
      3: U = store($s)
      4: $u = load(U)
      5: Y = store($u)
    }
  }
}
"""


def test_siblings_share_and_long_lived_buffers_do_not() -> None:
    after = run(parse(SIBLINGS), mem_loc="UB", mem_size=1024, alignment=32)
    got = offsets(after)
    # Largest first: A (40 B) at 0, B after it at the next 32-byte boundary, the scratch
    # buffers above both, sharing one slot since they are never live together.
    assert {k: got[k] for k in "ABTU"} == {"A": 0x0, "B": 0x40, "T": 0x60, "U": 0x60}
    assert got["X"] == 0x100  # the caller's buffer is not placed
    assert got["D"] == 0  # another memory
    assert "none new@0x00000060 U<UB>[0]" in str(after)


def test_granules_round_each_buffer_up() -> None:
    """With 64-B granules A (40 B) takes 64, B (32 B) 64 and the scratch buffers 64 each."""
    after = run(parse(SIBLINGS), mem_loc="UB", mem_size=1024, alignment=32, granule=64)
    got = offsets(after)
    assert {k: got[k] for k in "ABTU"} == {"A": 0x0, "B": 0x40, "T": 0x80, "U": 0x80}
    with pytest.raises(CompileError, match=r"'T' of block 'main/first' \(16 B\) does not fit"):
        run(parse(SIBLINGS), mem_loc="UB", mem_size=160, alignment=32, granule=64)
    with pytest.raises(PassOptionError, match="granule"):
        run(parse(SIBLINGS), mem_loc="UB", granule=0)


# A is used by the first statement only, B by the second only.
SEQUENCE = """\
0: #program
block []:1 (
    #user none new@0x00000000 X[0] fp32(8):(1)
) {
  0: #main
  block []:1 ( // main
      out X[0] fp32(8):(1)
      none new@0x00000000 A<UB>[0] fp32(8):(1)
      none new@0x00000000 B<UB>[0] fp32(8):(1)
  ) {
    0: block [i:8]:8 ( // first
        out A[i] fp32(1):(1)
    ) {
      0: $c = (float)1.0
      1: A = store($c)
    }
    1: block [i:8]:8 ( // second
        out B[i] fp32(1):(1)
        out X[i] fp32(1):(1)
    ) {
      0: $c = (float)2.0
      1: B = store($c)
      2: X = store($c)
    }
  }
}
"""


def test_statement_liveness_shares_whole_block_liveness_does_not() -> None:
    program = parse(SEQUENCE)
    precise = offsets(run(program, mem_loc="UB"))
    assert precise["A"] == precise["B"] == 0
    whole = offsets(run(program, mem_loc="UB", whole_block="true"))
    assert {whole["A"], whole["B"]} == {0, 32}
    with pytest.raises(CompileError):
        run(program, mem_loc="UB", mem_size=32, whole_block="true")
    assert offsets(run(program, mem_loc="UB", mem_size=32)) == precise


def test_error_names_the_buffers_and_sizes() -> None:
    with pytest.raises(CompileError) as info:
        run(parse(SIBLINGS), mem_loc="UB", mem_size=80, alignment=32)
    text = str(info.value)
    assert "'B' of block 'main' (32 B) does not fit in UB (80 B, alignment 32)" in text
    assert "'A' of block 'main' (40 B) at 0x0" in text
    assert "at the peak, 128 B (sizes aligned) of UB are live at once" in text


def test_defaults_do_nothing_and_options_are_checked() -> None:
    program = parse(SIBLINGS)
    assert place(program, PlaceOptions()) is program
    assert run(program, mem_loc="L1") is program  # nothing located there
    placed = run(program, mem_loc="UB", alignment=32)
    assert run(placed, mem_loc="UB", alignment=32) is placed  # already placed: unchanged
    with pytest.raises(PassOptionError, match="alignment"):
        run(program, mem_loc="UB", alignment=0)
    with pytest.raises(PassOptionError, match="mem_size"):
        run(program, mem_loc="UB", mem_size=-1)


# ---- the allocator on random requests -----------------------------------------------------

requests = st.lists(
    st.builds(
        lambda size, start, length: Request(size, start, start + length),
        st.integers(0, 300),
        st.integers(0, 20),
        st.integers(0, 6),
    ),
    max_size=25,
)


def check_layout(reqs: list[Request], offs: list[int], mem_size: int, alignment: int) -> None:
    for k, (req, off) in enumerate(zip(reqs, offs, strict=True)):
        assert off % alignment == 0
        assert not mem_size or off + req.size <= mem_size
        for j in range(k):
            other = reqs[j]
            if req.meets(other) and req.size and other.size:
                assert off + req.size <= offs[j] or offs[j] + other.size <= off, (k, j)


@settings(max_examples=300, deadline=None)
@given(requests, st.sampled_from([1, 4, 32, 512]), st.integers(0, 2000))
def test_first_fit_never_overlaps_live_requests(
    reqs: list[Request], alignment: int, mem_size: int
) -> None:
    check_layout(reqs, first_fit(reqs, 0, alignment), 0, alignment)
    try:
        offs = first_fit(reqs, mem_size, alignment)
    except PlacementError as err:
        assert mem_size  # an unbounded memory always fits
        total = sum(-(-r.size // alignment) * alignment for r in reqs)
        assert total > mem_size, "everything side by side would have fitted"
        failed = reqs[err.index]
        assert all(reqs[j].meets(failed) for j, _ in err.conflicts)
        return
    check_layout(reqs, offs, mem_size, alignment)


def test_first_fit_reuses_space_across_time() -> None:
    reqs = [Request(64, 0, 3), Request(64, 4, 9), Request(32, 2, 5)]
    assert first_fit(reqs, 128, 32) == [0, 0, 64]
    with pytest.raises(PlacementError):
        first_fit(reqs, 64, 32)


# ---- the pass on random block trees --------------------------------------------------------


@dataclass(frozen=True)
class _Alloc:
    name: str
    path: tuple[int, ...]
    users: tuple[int, ...]  # statement positions of the owning block that use it
    placed: bool


@st.composite
def trees(draw: st.DrawFn) -> tuple[Block, list[_Alloc]]:
    """A random program: nested blocks owning allocations (in UB or elsewhere) that their
    statements (loads, or child blocks refining them) use. Every allocation is used."""
    allocs: list[_Alloc] = []
    counter = iter(range(10_000))

    def block(path: tuple[int, ...], depth: int) -> Block:
        n_stmts = draw(st.integers(1, 3))
        kinds = [draw(st.booleans()) if depth < 3 else False for _ in range(n_stmts)]
        mine: list[tuple[str, Refinement]] = []
        for _ in range(draw(st.integers(0, 3))):
            name = f"a{next(counter)}"
            placed = draw(st.booleans()) or depth == 0
            size = draw(st.integers(1, 40))
            loc = Location.named("UB" if placed else "L1")
            shape = TensorShape(DType.FP32, (size,), (1,))
            mine.append(
                (name, Refinement(RefDir.NONE, None, name, (Affine(),), shape, location=loc))
            )
        users: dict[str, list[int]] = {name: [] for name, _ in mine}
        for name, _ in mine:
            for pos in draw(st.sets(st.integers(0, n_stmts - 1), min_size=1, max_size=n_stmts)):
                users[name].append(pos)
        stmts: list[Statement] = []
        for pos, is_block in enumerate(kinds):
            used = [name for name, _ in mine if pos in users[name]]
            views = tuple(
                Refinement(RefDir.IN, name, name, (Affine(),), ref.shape)
                for name, ref in mine
                if name in used
            )
            if is_block:
                child = block((*path, pos), depth + 1)
                stmts.append(dataclasses.replace(child, refs=child.refs + views))
            elif len(used) == 1:
                stmts.append(Load(from_=used[0], into=f"$s{next(counter)}"))
            elif used:
                stmts.append(Block(name=f"b{next(counter)}", refs=views))
            else:
                stmts.append(Constant(name=f"$s{next(counter)}", value=0))
        for name, ref in mine:
            allocs.append(
                _Alloc(name, path, tuple(sorted(users[name])), ref.location == Location.named("UB"))
            )
        return Block(name=f"b{next(counter)}", refs=tuple(r for _, r in mine), stmts=tuple(stmts))

    root = block((), 0)
    return Block(name="root", refs=root.refs, stmts=root.stmts, tags=Tags.of("program")), allocs


def _live_together(a: _Alloc, b: _Alloc, whole_block: bool) -> bool:
    """The oracle: from the tree structure only."""
    if len(a.path) > len(b.path):
        a, b = b, a
    if b.path[: len(a.path)] != a.path:
        return False  # different subtrees run at different times
    if whole_block:
        return True
    if a.path == b.path:
        return min(a.users) <= max(b.users) and min(b.users) <= max(a.users)
    within = b.path[len(a.path)]  # the statement of a's block that b's block is in
    return min(a.users) <= within <= max(a.users)


@settings(max_examples=150, deadline=None)
@given(trees(), st.booleans(), st.sampled_from([1, 8, 32]))
def test_place_never_overlaps_live_buffers(
    tree: tuple[Block, list[_Alloc]], whole_block: bool, alignment: int
) -> None:
    program, allocs = tree
    opts = PlaceOptions(mem_loc="UB", alignment=alignment, whole_block=whole_block)
    after = place(program, opts)
    got = offsets(after)
    sizes: dict[str, int] = {}
    stack = [after]
    while stack:
        blk = stack.pop()
        sizes.update({r.into: allocation_bytes(r) for r in blk.refs if r.from_ is None})
        stack.extend(s for s in blk.stmts if isinstance(s, Block))
    placed = [a for a in allocs if a.placed]
    for a in placed:
        assert got[a.name] % alignment == 0
    for k, a in enumerate(placed):
        for b in placed[:k]:
            if _live_together(a, b, whole_block):
                lo_a, lo_b = got[a.name], got[b.name]
                assert lo_a + sizes[a.name] <= lo_b or lo_b + sizes[b.name] <= lo_a, (a, b)
    # A bound as large as everything side by side always fits.
    total = sum(-(-sizes[a.name] // alignment) * alignment for a in placed)
    bounded = place(
        program, PlaceOptions(mem_loc="UB", mem_size=max(total, 1), alignment=alignment)
    )
    assert offsets(bounded).keys() == got.keys()
