"""In-place questions: may a block write its output over a temporary it reads?

Used by `passes.store_in_output`, which keeps a block's temporary in the output window that
its last user writes. Two questions, both in the coordinates of the block owning the buffers:

* `points_apart`: no point of a block writes, through one view, an element that another point
  of the same execution reads through a second view (so overwriting in place reads every
  element before it is overwritten, whatever the order of the points);
* `covers_temporary`: every element of a temporary that the block's statements touch is one
  that its last user writes to the output, point by point of the block.
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy as isl

from plaidc.analysis.access import footprint, lift, sharing_points
from plaidc.analysis.domain import DomainCache, project_to_depth
from plaidc.stripe.ir import Block, Refinement
from plaidc.stripe.uses import statement_ref_names


def points_apart(
    chain: Sequence[Block], read: Refinement, write: Refinement, domains: DomainCache
) -> bool:
    """No point of `chain[-1]` writes through `write` an element that another point reads
    through `read` (in the parent's coordinates, which the two views' parents share)."""
    depth = len(chain) - 1
    parent = chain[-2]
    read_parent, write_parent = parent.ref(read.from_ or ""), parent.ref(write.from_ or "")
    if read_parent is None or write_parent is None:
        return False
    reads = footprint(chain, read.into, writes=False, domains=domains)
    writes = footprint(chain, write.into, reads=False, domains=domains)
    read_elems = lift(reads, read, depth, read_parent).elements.coalesce()
    write_elems = lift(writes, write, depth, write_parent).elements.coalesce()
    return bool(sharing_points(write_elems, depth, read_elems).is_empty())


def covers_temporary(
    chain: Sequence[Block],
    temp: Refinement,
    out: Refinement,
    final: Block,
    write: Refinement,
    domains: DomainCache,
) -> bool:
    """Every element of `temp` (an allocation of `chain[-1]`) that a point of that block touches
    is one the same point writes through `out` in its child `final` (view `write`)."""
    block = chain[-1]
    depth = len(chain) - 1
    written = footprint((*chain, final), write.into, reads=False, domains=domains)
    written_here = project_to_depth(lift(written, write, depth + 1, out).elements, depth)
    assert isinstance(written_here, isl.Map)
    touched: isl.Map | None = None
    for child in block.stmts:
        if temp.into not in statement_ref_names(child):
            continue
        assert isinstance(child, Block)
        for view in child.refs:
            if view.from_ != temp.into:
                continue
            fp = footprint((*chain, child), view.into, domains=domains)
            elems = project_to_depth(lift(fp, view, depth + 1, temp).elements, depth)
            assert isinstance(elems, isl.Map)
            touched = elems if touched is None else touched.union(elems)
    return touched is not None and bool(touched.is_subset(written_here))
