"""Aggregating stores that send several points to one element, re-indexed for the vector unit.

The vector unit lays a kernel out with one row per output point, so a store must be one-to-one
on the output indices. `C[i + j] = +(A[i] * B[j])` is not: points (i, j) and (i + 1, j - 1)
meet. Where the store has two indices `u`, `w` whose strides are multiples (`c_w = q * c_u`),
the unimodular change of variables `u = o - q*w` makes the store depend on `o` alone and `w` a
reduction index; `o` runs over the values of `u + q*w`, the bounds of `u` become constraints.
The kernel's points, and so what it aggregates where, are unchanged. Repeated until the store
is one-to-one (isl decides) or no such pair is left (then `vector.analyse` reports it).
"""

from __future__ import annotations

import dataclasses

from plaidc.analysis.ranges import IndexSpace, injective_on_projection
from plaidc.backends.npu.kernels import Access, Kernel, KLoad, KStmt, KStore
from plaidc.stripe.ir import Affine


def reindex_stores(kernel: Kernel) -> Kernel:
    """`kernel` with its aggregating store made one-to-one on its output indices, if a change
    of variables can; otherwise unchanged."""
    stores = kernel.stores()
    if not stores or any(s.agg == "assign" for s in stores):
        return kernel  # several points assigning one element: a race, reported later
    if len({s.access.offset for s in stores}) != 1:
        return kernel
    for _ in range(len(kernel.idxs)):
        store = kernel.stores()[0].access.offset
        out = [v for v, _ in kernel.idxs if store.coeff(v)]
        if one_to_one(kernel, store, out):
            return kernel
        pair = _pair(store, out)
        if pair is None:
            return kernel
        kernel = _substitute(kernel, *pair)
    return kernel


def one_to_one(kernel: Kernel, store: Affine, out: list[str]) -> bool:
    """Whether distinct points of the kernel (projected on the output indices `out`, under its
    constraints) store to distinct elements through `store` (isl, exact)."""
    bounds = [
        bound
        for v, n in kernel.idxs
        for bound in (Affine.var(v), Affine.const_(n - 1) - Affine.var(v))
    ]
    space = IndexSpace(tuple(v for v, _ in kernel.idxs), (*bounds, *kernel.constraints))
    return injective_on_projection(space, out, [store])


def _pair(store: Affine, out: list[str]) -> tuple[str, str, int] | None:
    """(u, w, q) with stride(w) = q * stride(u), u the index of the smaller stride."""
    for u in sorted(out, key=lambda v: (abs(store.coeff(v)), v)):
        for w in out:
            if w != u and store.coeff(w) % store.coeff(u) == 0:
                return u, w, store.coeff(w) // store.coeff(u)
    return None


def _substitute(kernel: Kernel, u: str, w: str, q: int) -> Kernel:
    """`u = o + lo - q*w` for a fresh index `o` over the values of `u + q*w` (shifted to 0)."""
    ranges = kernel.ranges
    taken = set(ranges)
    o, n = f"{u}_{w}", 1
    while o in taken:
        o, n = f"{u}_{w}{n}", n + 1
    span_w = q * (ranges[w] - 1)
    lo, hi = min(0, span_w), ranges[u] - 1 + max(0, span_w)
    value = Affine.var(o) + lo - Affine.var(w, q)
    subst = {u: value}
    constraints = tuple(c.substitute(subst) for c in kernel.constraints)
    constraints += (value, Affine.const_(ranges[u] - 1) - value)  # 0 <= u < range(u)
    idxs = tuple((o, hi - lo + 1) if v == u else (v, r) for v, r in kernel.idxs)

    def moved(stmt: KStmt) -> KStmt:
        if isinstance(stmt, (KLoad, KStore)):
            access = Access(stmt.access.buffer, stmt.access.offset.substitute(subst))
            return dataclasses.replace(stmt, access=access)
        return stmt

    body = tuple(moved(s) for s in kernel.body)
    return dataclasses.replace(kernel, idxs=idxs, constraints=constraints, body=body)
