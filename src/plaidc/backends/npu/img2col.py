"""A convolution's left operand by `img2col_cbuf_to_ca` (MTE1): GM -> L1 -> L0A, no vector pass.

A Cube contraction whose left operand reads a feature map through a convolution window,
`I[.., sh*p + dh*u + .., sw*q + dw*v + .., c]` (NHWC: output positions `p, q` among the M
indices, window positions `u, v` and the channels `c` among the K indices, `c` of unit stride),
needs no img2col matrix in UB: the K step's window of the feature map goes to L1 as it is in GM
(one DMA; fp32 programs split it into fp16 hi and lo parts on the way, on the window rather
than on the ~KH*KW times larger matrix), and `img2col_cbuf_to_ca` writes the matrix's fractals
into L0A. The columns of the matrix are `(u, v, c)` with the channels padded to whole fractal
columns (`k_position`); the right operand's rows follow the same order (zero rows at the padded
channels), so the product is unchanged.

`layout` decides the roles from the access alone (for both operands' layouts); `plan` gives
the instruction's parameters for one K step once its window is known, or None when the
operand is not such a window after all (a constraint that is not the feature map's bounds, a
third live output index, a coefficient that is not a stride of the map): the operand is then
gathered on the vector unit as before. Bounds of the window's coordinates are exact (isl, on
the tile's points), so padding is exactly the points the constraints exclude.
"""

from __future__ import annotations

from dataclasses import dataclass

from plaidc.backends.npu.moves import Space
from plaidc.backends.npu.ops import round_up
from plaidc.backends.npu.staging import Window
from plaidc.stripe.ir import Affine, TensorShape


@dataclass(frozen=True)
class ConvLayout:
    """The roles of a K step's indices in the left operand's feature maps: images `b`, output
    rows `p` (the map's row direction) and `q` (its column direction), window rows `u` and
    columns `v`, channels `c` (each None when the tile has one point of it), the map's row and
    pixel strides in GM (`row`, `pix`) and the matrix's column of each K point
    (`k_position`)."""

    b: str | None
    p: str | None
    q: str | None
    u: str | None
    v: str | None
    c: str | None
    sizes: dict[str, int]
    row: int
    pix: int
    frac: int

    def size(self, var: str | None) -> int:
        return self.sizes[var] if var is not None else 1

    @property
    def channels(self) -> int:
        return self.size(self.c)

    @property
    def c1(self) -> int:
        """Fractal columns per window position: the channels padded to whole fractals."""
        return -(-self.channels // self.frac)

    @property
    def columns(self) -> int:
        """The matrix's columns: every window position's padded channels."""
        return self.size(self.u) * self.size(self.v) * self.c1 * self.frac

    @property
    def padded(self) -> bool:
        return self.channels % self.frac != 0

    def k_position(self) -> Affine:
        """The matrix column of the K point (u, v, c), local indices."""
        pos = Affine()
        width = self.c1 * self.frac
        if self.c is not None:
            pos = pos + Affine.var(self.c)
        if self.v is not None:
            pos = pos + Affine.var(self.v, width)
        if self.u is not None:
            pos = pos + Affine.var(self.u, width * self.size(self.v))
        return pos


def layout(
    shape: TensorShape,
    access: Affine,
    m_vars: tuple[str, ...],
    k_vars: tuple[str, ...],
    sizes: dict[str, int],
    frac: int,
) -> ConvLayout | None:
    """The roles of the live indices of `access` (the left operand's GM offset; the matrix's
    rows `m_vars` and columns `k_vars` in their order), or None when it does not read a
    feature map `[.., H, W, C]` through a window."""
    if shape.ndims < 3 or shape.strides[-1] != 1:
        return None
    row, pix = shape.strides[-3], shape.strides[-2]
    if row <= 0 or pix <= 0 or row % pix:
        return None
    image = shape.strides[-4] if shape.ndims >= 4 else 0
    live_m = [v for v in m_vars if sizes[v] > 1]
    live_k = [v for v in k_vars if sizes[v] > 1]
    if len(live_k) > 3:
        return None
    # output indices: images, then the map's rows, then its columns, in the matrix's order
    m_roles: dict[str, str] = {}
    for var in live_m:
        coeff = access.coeff(var)
        role = "b" if image and coeff % image == 0 else "p" if coeff % row == 0 else "q"
        if coeff <= 0 or role in m_roles or any(r > role for r in m_roles):
            return None
        m_roles[role] = var
    channel = [v for v in live_k if access.coeff(v) == 1]
    if len(channel) > 1 or (channel and live_k[-1] != channel[0]):
        return None
    if not channel and shape.sizes[-1] > 1:
        # a channel of its own per GEMM (depthwise: the channel is a batch index): one
        # channel per fractal column would multiply the Cube's work by its width
        return None
    spatial = [v for v in live_k if v not in channel]

    def roles(live: list[str]) -> tuple[str | None, str | None] | None:
        """(row-direction, column-direction) indices of two, or one placed by its stride."""
        if len(live) == 2:
            return live[0], live[1]
        if len(live) == 1:
            return (live[0], None) if access.coeff(live[0]) >= row else (None, live[0])
        return (None, None) if not live else None

    k_roles = roles(spatial)
    if k_roles is None:
        return None
    b, p, q = (m_roles.get(role) for role in "bpq")
    u, v = k_roles
    for spatial_var, stride in ((p, row), (u, row), (q, pix), (v, pix)):
        coeff = access.coeff(spatial_var) if spatial_var is not None else stride
        if coeff <= 0 or coeff % stride:
            return None
    c = channel[0] if channel else None
    return ConvLayout(b, p, q, u, v, c, dict(sizes), row, pix, frac)


def reads_window(
    shape: TensorShape, access: Affine, m_vars: tuple[str, ...], k_vars: tuple[str, ...]
) -> bool:
    """Whether the left operand reads a feature map `[.., H, W, C]` through a convolution
    window, whatever the tiling: an output index (M) and a reduced one (K) both move along the
    map's rows, or both along its columns. `layout` decides per tile; this holds also where the
    pass pipeline split an index in two (`x = 2*x + x_1`), which no single tile's roles show
    until the split index has one point per tile."""
    if shape.ndims < 3 or shape.strides[-1] != 1:
        return False
    row, pix = shape.strides[-3], shape.strides[-2]
    image = shape.strides[-4] if shape.ndims >= 4 else 0
    if row <= 0 or pix <= 0 or row % pix:
        return False

    def axis(var: str) -> str | None:
        coeff = access.coeff(var)
        if coeff <= 0 or (image > row and coeff % image == 0):
            return None
        return "h" if coeff % row == 0 else "w" if coeff % pix == 0 else None

    if shape.sizes[-1] > 1 and not any(access.coeff(v) == 1 for v in k_vars):
        return False  # the channel is not reduced (depthwise): not a window `layout` takes
    m_axes = {axis(v) for v in m_vars}
    return any(axis(v) in m_axes for v in k_vars if axis(v) is not None)


def _proportional(con: Affine, form: Affine) -> int | None:
    """k when `con`'s terms are k times `form`'s (same indices), else None."""
    if not form.terms or set(con.names()) != set(form.names()):
        return None
    var, coeff = form.terms[0]
    if con.coeff(var) % coeff:
        return None
    k = con.coeff(var) // coeff
    return k if all(con.coeff(v) == k * a for v, a in form.terms) else None


def plan(
    conv: ConvLayout, space: Space, window: Window, access: Affine, rows_m: int
) -> dict[str, int] | None:
    """`img2col_cbuf_to_ca`'s integer parameters (isa.IMG2COL_PARAMS) for a K step whose
    left operand's GM `window` is in L1 as DMA lays it out (`window.to_ub`), `access` its
    local GM offset over `space` (the tile's points), `rows_m` the matrix's rows; None when
    the window's points are not exactly what the instruction reads."""
    folded = space.fold(access)
    pos = window.to_ub(folded)

    def l1_stride(gm: int) -> int:
        if window.rows > 1 and gm % window.stride == 0:
            return gm // window.stride * window.width
        return gm

    row, pix = l1_stride(conv.row), l1_stride(conv.pix)
    step = {var: folded.coeff(var) for var in (conv.p, conv.q, conv.u, conv.v) if var}
    h_form = Affine.of({v: step[v] // conv.row for v in (conv.p, conv.u) if v})
    w_form = Affine.of({v: step[v] // conv.pix for v in (conv.q, conv.v) if v})
    image = l1_stride(folded.coeff(conv.b)) if conv.b else 0
    # the L1 position must be base + image*b + row*h + pix*w + c for every point
    expect = h_form * row + w_form * pix + (Affine.var(conv.c) if conv.c else Affine())
    expect = expect + (Affine.var(conv.b, image) if conv.b else Affine())
    if pos.terms != expect.terms:
        return None
    # every constraint must bound the map's row or column (padding), the channels alone, or
    # the output positions alone (a ragged last tile: the rows it excludes are computed from
    # the map or its padding, and never stored)
    channels = conv.channels
    outputs = {var for var in (conv.b, conv.p, conv.q) if var is not None}
    for con in space.live_constraints:
        if _proportional(con, h_form) or _proportional(con, w_form):
            continue
        if set(con.names()) <= outputs:
            continue
        if conv.c is not None and set(con.names()) == {conv.c} and con.coeff(conv.c) < 0:
            channels = min(channels, con.const // -con.coeff(conv.c) + 1)
            continue
        return None
    h_bounds, w_bounds = space.bounds(h_form), space.bounds(w_form)
    if h_bounds is None or w_bounds is None:
        return None
    (h_lo, h_hi), (w_lo, w_hi) = h_bounds, w_bounds
    # The L1 position is affine over the window's points (`staging.Window`), so one point
    # fixes the constant: its GM element's row and column in the window.
    point = space.point()
    if point is None:
        return None
    rel = folded.evaluate(point) - window.first
    at = rel // window.stride * window.width + rel % window.stride if window.rows > 1 else rel
    base = at - (pos - pos.const).evaluate(point) + row * h_lo + pix * w_lo
    if base < 0:
        return None
    return {
        "base": base,
        "imgStride": image,
        "rowStride": row,
        "pixStride": pix,
        "fmH": h_hi - h_lo + 1,
        "fmW": w_hi - w_lo + 1,
        "channels": channels,
        "hStart": -h_lo,
        "wStart": -w_lo,
        "strideH": h_form.coeff(conv.p) if conv.p else 0,
        "strideW": w_form.coeff(conv.q) if conv.q else 0,
        "dilH": h_form.coeff(conv.u) if conv.u else 0,
        "dilW": w_form.coeff(conv.v) if conv.v else 0,
        "outH": conv.size(conv.p),
        "outW": conv.size(conv.q),
        "mCount": conv.size(conv.b) * conv.size(conv.p) * conv.size(conv.q),
        "kW": conv.size(conv.v),
        "c1": conv.c1,
        "mFractals": rows_m // conv.frac,
        "kFractals": conv.columns // conv.frac,
    }


def l1_bytes(window: Window) -> int:
    """Bytes of the window's fp16 copy in L1 (whole 32-B blocks)."""
    return round_up(window.elements * 2, 32)
