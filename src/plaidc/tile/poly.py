"""Affine index polynomials with rational coefficients, and their integer lattice (defract).

Tile lets index polynomials have rational coefficients (`I[(i - j + 1) / 2]`); a contraction
then ranges only over the integer index values at which every polynomial is an integer
(PlaidML's *defract*). `integer_lattice` finds an integer change of variables that makes every
polynomial integral, so that the Stripe block iterates exactly those points and nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from plaidc.stripe.ir import Affine


@dataclass(frozen=True)
class RatAffine:
    """`const + sum(coeff * name)` with rational coefficients; terms sorted, none zero."""

    terms: tuple[tuple[str, Fraction], ...] = ()
    const: Fraction = Fraction(0)

    @staticmethod
    def of(terms: Mapping[str, Fraction | int], const: Fraction | int = 0) -> RatAffine:
        canon = tuple(sorted((n, Fraction(c)) for n, c in terms.items() if c != 0))
        return RatAffine(canon, Fraction(const))

    @staticmethod
    def var(name: str) -> RatAffine:
        return RatAffine(((name, Fraction(1)),))

    @staticmethod
    def constant(value: Fraction | int) -> RatAffine:
        return RatAffine((), Fraction(value))

    @staticmethod
    def from_affine(aff: Affine) -> RatAffine:
        return RatAffine.of(dict(aff.terms), aff.const)

    @property
    def is_constant(self) -> bool:
        return not self.terms

    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.terms)

    def __add__(self, other: RatAffine) -> RatAffine:
        merged = dict(self.terms)
        for n, c in other.terms:
            merged[n] = merged.get(n, Fraction(0)) + c
        return RatAffine.of(merged, self.const + other.const)

    def scale(self, k: Fraction | int) -> RatAffine:
        return RatAffine.of({n: c * k for n, c in self.terms}, self.const * k)

    def __neg__(self) -> RatAffine:
        return self.scale(-1)

    def __sub__(self, other: RatAffine) -> RatAffine:
        return self + (-other)

    @property
    def denominator(self) -> int:
        """The least common multiple of all denominators (1 when integral)."""
        den = self.const.denominator
        for _, c in self.terms:
            den = math.lcm(den, c.denominator)
        return den

    @property
    def is_integral(self) -> bool:
        return self.denominator == 1

    def to_affine(self) -> Affine:
        """The same expression as an integer Affine; the caller ensures it is integral."""
        if not self.is_integral:
            raise ValueError(f"non-integral polynomial {self}")
        return Affine.of({n: int(c) for n, c in self.terms}, int(self.const))

    def substitute(self, values: Mapping[str, Affine]) -> RatAffine:
        """Replace names by integer affine expressions."""
        out = RatAffine.constant(self.const)
        for n, c in self.terms:
            out = out + (RatAffine.from_affine(values[n]) if n in values else self.var(n)).scale(c)
        return out

    def __str__(self) -> str:
        parts = [f"{c}*{n}" if c != 1 else n for n, c in self.terms]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts)


@dataclass(frozen=True)
class Lattice:
    """A change of variables `original name -> integer Affine over names` (an exact
    parametrisation of the integer points where every polynomial is integral)."""

    names: tuple[str, ...]
    substitution: Mapping[str, Affine]


def _fresh(base: str, taken: Iterable[str]) -> str:
    used = set(taken)
    k = 0
    while f"{base}{k}" in used:
        k += 1
    return f"{base}{k}"


def _subst_all(exprs: list[Affine], name: str, value: Affine) -> list[Affine]:
    return [e.substitute({name: value}) if e.coeff(name) else e for e in exprs]


def integer_lattice(
    names: Sequence[str], polys: Sequence[RatAffine], keep: Iterable[str] = ()
) -> Lattice | None:
    """Parametrise `{x in Z^n : every poly(x) in Z}` by integer variables; None if empty.

    Each fractional polynomial `p` with lcm denominator `d` adds an integer unknown `e` with
    the equation `d*p - d*e = 0`; the equations are solved over the integers by unimodular
    eliminations (Euclid's algorithm on the coefficients). Variables whose coefficient is
    +-1 are eliminated directly, preferring those not in `keep` (the output's indices), so
    that the result reads like what the user wrote.
    """
    keep_set = set(keep)
    current = list(names)
    subst: dict[str, Affine] = {n: Affine.var(n) for n in names}
    equations: list[Affine] = []
    for poly in polys:
        den = poly.denominator
        if den == 1:
            continue
        extra = _fresh("d", [*current, *names])
        current.append(extra)
        scaled = {n: int(c * den) for n, c in poly.terms}
        scaled[extra] = -den
        equations.append(Affine.of(scaled, int(poly.const * den)))
    if not equations:
        return Lattice(tuple(names), subst)

    def order(name: str) -> tuple[int, int]:
        # Eliminate generated unknowns first, then non-output indices, latest first.
        generated = name not in names
        rank = 0 if generated else (2 if name in keep_set else 1)
        return (rank, -current.index(name))

    def replace(name: str, value: Affine) -> None:
        nonlocal equations
        for key in subst:
            if subst[key].coeff(name):
                subst[key] = subst[key].substitute({name: value})
        equations = _subst_all(equations, name, value)

    while equations:
        eq = equations.pop(0)
        while True:
            if eq.is_constant:
                if eq.const != 0:
                    return None
                break
            units = [n for n, c in eq.terms if abs(c) == 1]
            if units:
                x = min(units, key=order)
                c = eq.coeff(x)
                rest = eq - Affine.var(x, c)
                value = rest * (-c)
                replace(x, value)
                current.remove(x)
                break
            if len(eq.terms) == 1:
                ((x, c),) = eq.terms
                if eq.const % c != 0:
                    return None
                replace(x, Affine.const_(-eq.const // c))
                current.remove(x)
                break
            # Unimodular step x_p := x_p - k*x_q shrinks every other coefficient below |c_p|.
            p, cp = min(eq.terms, key=lambda t: abs(t[1]))
            for q, cq in eq.terms:
                if q != p:
                    k = cq // cp
                    if k:
                        value = Affine.var(p) - Affine.var(q, k)
                        replace(p, value)
                        eq = eq.substitute({p: value})
    return Lattice(tuple(current), subst)
