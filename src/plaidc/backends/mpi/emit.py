"""The C `main` of an MPI program: buffers, the exchange plan's transfers, the kernels' calls.

Every buffer of `main` has the layout its view gives (element offset `sum(c * stride)`); a rank
allocates only the span of it that it touches (`analysis.exchange.rank_storage`: offsets `start
<= o < start + elements`), and its code (packing, unpacking, the kernels' parts) addresses the
buffer through a base pointer `start` elements before that allocation, so the C backend's code
of a part runs unchanged. The root rank holds the inputs and outputs whole: it reads the inputs
from `DIR/NAME.in` and writes the outputs to `DIR/NAME.out` (raw bytes of that layout);
everything else starts as the interpreter's poison. Each phase of the plan (one before each
step: a kernel or a chunk of one; then the gather) has its receives (`MPI_Irecv`) and sends
(`MPI_Isend`) posted (with overlap: the receives when a run starts, each send once its elements
are computed) and waits for its receives before its step. A transfer that is one contiguous run
of the layout goes straight from the sender's buffer into the receiver's (`_direct`; the send
completed just before the sender changes the elements, the receive into the buffer only where
the receiver leaves the elements alone until then); any other is packed into a message by
memcpy of runs or a loop nest isl generates from its exact set, and unpacked the same way. A
step's part is the C backend's code for that rank (`plaidc_rR_kK`). Before the timed runs,
every pair of ranks that exchanges messages sends one byte (MPI's connection set-up). The run
repeats `argv[2]` times; the root writes `DIR/report.txt`: the best wall time, then per rank
its compute seconds, the bytes it sent and received (counted from the messages), its seconds
in the phases (packing, messages, waiting, unpacking) and the CPU seconds of its process while
it computed (all its threads; below the compute seconds where other programs take the cores).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from plaidc.analysis.exchange import (
    Collective,
    ExchangePlan,
    Storage,
    Transfer,
    boxes,
    collectives,
    scan_ast,
    send_done_points,
    send_points,
    untouched_before,
)
from plaidc.backends.loopnest.plan import FAILURES
from plaidc.backends.loopnest.runtime import ALIGNMENT
from plaidc.interp import numpy_dtype, poison_value
from plaidc.stripe.ir import RefDir, Refinement

MAX_MESSAGE = 2**31 - 1


@dataclass(frozen=True)
class Layout:
    """A buffer of `main` as every rank holds it."""

    name: str
    index: int
    itemsize: int
    strides: tuple[int, ...]
    sizes: tuple[int, ...]
    elements: int  # allocated

    @property
    def nbytes(self) -> int:
        return self.elements * self.itemsize

    @property
    def var(self) -> str:
        return f"b{self.index}"


def layout(ref: Refinement, index: int) -> Layout:
    return Layout(
        ref.into,
        index,
        ref.shape.dtype.byte_size,
        ref.shape.strides,
        ref.shape.sizes,
        max(ref.shape.extent, 1),
    )


@dataclass(frozen=True)
class KernelCall:
    kernel: int
    rank: int
    function: str
    args: tuple[str, ...]  # buffer names, in the unit's parameter order


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _offset(lay: Layout) -> str:
    terms = [f"(int64_t)(c{d}) * {s}" for d, s in enumerate(lay.strides) if s]
    return " + ".join(terms) or "0"


def _scan(t: Transfer, lay: Layout, body: str) -> list[str]:
    ndims = len(lay.strides)
    params = ", ".join(f"c{d}" for d in range(ndims))
    code = scan_ast(t.elements, "S").to_C_str().replace("for (int ", "for (int64_t ")
    return [f"#define S({params}) {body}", code, "#undef S"]


def _run_dim(box: Sequence[tuple[int, int]], lay: Layout) -> int:
    """The first dimension of the box's contiguous runs: from it on, the box's elements of one
    point of the dimensions before it lie next to each other in the layout."""
    ndims = len(box)
    if ndims == 0 or lay.strides[-1] != 1:
        return ndims
    first = ndims - 1
    while first > 0:
        low, high = box[first]
        inner = lay.strides[first] * lay.sizes[first]
        if (low, high) != (0, lay.sizes[first] - 1) or lay.strides[first - 1] != inner:
            break
        first -= 1
    return first


def _box_copies(t: Transfer, lay: Layout, copy: str) -> list[str] | None:
    """Packing or unpacking by contiguous runs of the transfer's boxes (one `memcpy` each);
    None where the transfer's elements are not boxes. `copy` is a macro name taking the element
    offset in the layout and the run's length in elements."""
    pieces = boxes(t.elements)
    if pieces is None:
        return None
    out: list[str] = []
    for box in pieces:
        first = _run_dim(box, lay)
        run = 1
        for low, high in box[first:]:
            run *= high - low + 1
        out.append("{")
        for d in range(first):
            low, high = box[d]
            out.append(f"for (int64_t c{d} = {low}; c{d} <= {high}; ++c{d})")
        fixed = [f"const int64_t c{d} = {box[d][0]};" for d in range(first, len(box))]
        out += ["{", *fixed, f"{copy}(({_offset(lay)}), {run});", "}", "}"]
    return out


def _pack(t: Transfer, lay: Layout, into: str) -> list[str]:
    return _copy(t, lay, into, "pack")


def _unpack(t: Transfer, lay: Layout, source: str) -> list[str]:
    return _copy(t, lay, source, "unpack")


def _copy(t: Transfer, lay: Layout, message: str, way: str) -> list[str]:
    """Copies between the buffer's elements of `t` and the contiguous `message` (`way`:
    "pack" into the message, "unpack" out of it): one memcpy per contiguous run of a box,
    else one per element of the set's scan; then the element count is checked."""
    w = lay.itemsize

    def memcpy(offset: str, length: str) -> str:
        buffer, packed = f"{lay.var} + ({offset}) * {w}", f"{message} + n * {w}"
        dst, src = (packed, buffer) if way == "pack" else (buffer, packed)
        return f"memcpy({dst}, {src}, ({length}) * {w})"

    runs = _box_copies(t, lay, "COPY")
    if runs is not None:
        copy = f"#define COPY(o, len) {memcpy('o', 'len')}, n += (len)"
        return ["{", "int64_t n = 0;", copy, *runs, "#undef COPY", _count_check(t, way), "}"]
    body = f"{memcpy(_offset(lay), '1')}, ++n"
    return ["{", "int64_t n = 0;", *_scan(t, lay, body), _count_check(t, way), "}"]


def _count_check(t: Transfer, what: str) -> str:
    message = _c_string(f"transfer {t.tag}: {what}ed a wrong element count")
    return f"if (n != {t.count}) fail(rank, {message});"


def _collective(c: Collective, layouts: dict[str, Layout], ranks: int) -> list[str]:
    lay = layouts[c.buffer]
    if c.kind == "bcast":
        t = c.transfers[0]
        address = _direct(t, lay)
        if address is not None:  # one run of the layout: broadcast in place
            return [
                f"MPI_Bcast({address}, {t.nbytes}, MPI_BYTE, {t.src}, MPI_COMM_WORLD);",
                f"if (rank == {t.src}) sent += {t.nbytes * (ranks - 1)};",
                f"else received += {t.nbytes};",
            ]
        out = ["{", f"unsigned char *m = buffer({t.nbytes}, rank);"]
        out.append(f"if (rank == {t.src}) {{")
        out.extend(_pack(t, lay, "m"))
        out.append("}")
        out.append(f"MPI_Bcast(m, {t.nbytes}, MPI_BYTE, {t.src}, MPI_COMM_WORLD);")
        out.append(f"if (rank == {t.src}) sent += {t.nbytes * (ranks - 1)};")
        out.append(f"else {{ received += {t.nbytes};")
        out.extend(_unpack(t, lay, "m"))
        out += ["}", "free(m);", "}"]
        return out
    pieces = [p for p in c.pieces if p is not None]
    counts = [p.nbytes for p in pieces]
    displs = [sum(counts[:r]) for r in range(ranks)]
    total = sum(counts)
    out = [
        "{",
        f"int counts[{ranks}] = {{{', '.join(map(str, counts))}}};",
        f"int displs[{ranks}] = {{{', '.join(map(str, displs))}}};",
        f"unsigned char *m = buffer({total}, rank);",
    ]
    for r, p in enumerate(pieces):
        out.append(f"if (rank == {r}) {{")
        out.extend(_pack(p, lay, f"(m + {displs[r]})"))
        out.append("}")
    out.append(
        "MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, m, counts, displs, MPI_BYTE,"
        " MPI_COMM_WORLD);"
    )
    out.append(f"sent += (long long)counts[rank] * {ranks - 1};")
    out.append(f"received += {total} - counts[rank];")
    for r, p in enumerate(pieces):
        out.append(f"if (rank != {r}) {{")
        out.extend(_unpack(p, lay, f"(m + {displs[r]})"))
        out.append("}")
    out += ["free(m);", "}"]
    return out


def _timed(lines: list[str]) -> list[str]:
    """`lines` counted as time in the exchange (`talk`)."""
    if not lines:
        return []
    return ["{", "double t = MPI_Wtime();", *lines, "talk += MPI_Wtime() - t;", "}"]


def _direct(t: Transfer, lay: Layout) -> str | None:
    """The address of `t`'s elements in the buffer where they are one contiguous run of its
    layout in the order the message carries them (a box whose rows are whole): the message is
    sent from or received into the buffer itself. None: the elements are packed."""
    pieces = boxes(t.elements)
    if pieces is None or len(pieces) != 1:
        return None
    box = pieces[0]
    first = _run_dim(box, lay)
    if any(low != high for low, high in box[:first]):
        return None
    offset = sum(low * s for (low, _), s in zip(box, lay.strides, strict=True))
    return f"({lay.var} + (int64_t){offset} * {lay.itemsize})"


@dataclass(frozen=True)
class _Message:
    """A point-to-point transfer of phase `phase` (index `index` in it) as the code moves it:
    `sent_from`/`received_into` the buffer's own bytes (None: through a packed message), the
    positions its send is posted at and completed by (`post`, `done`) and whether its
    receive is posted when the run starts (`early`)."""

    phase: int
    index: int
    t: Transfer
    sent_from: str | None
    received_into: str | None
    post: int
    done: int
    early: bool


def _declare(k: int, messages: Sequence[_Message]) -> list[str]:
    """Phase `k`'s requests and message buffers, live from the receives to the wait."""
    if not messages:
        return []
    n = len(messages)
    return [
        f"MPI_Request rq{k}[{n}], sq{k}[{n}];",
        f"unsigned char *mg{k}[{n}] = {{0}}, *sg{k}[{n}] = {{0}};",
        f"int nr{k} = 0;",
    ]


def _on_each_rank(
    messages: Sequence[_Message],
    ranks: int,
    rank_of: Callable[[_Message], int],
    lines: Callable[[_Message], list[str]],
) -> list[str]:
    """`lines` of each of `messages`, grouped under `if (rank == r)` by `rank_of`."""
    out: list[str] = []
    for r in range(ranks):
        mine = [m for m in messages if rank_of(m) == r]
        if mine:
            out.append(f"if (rank == {r}) {{")
            for m in mine:
                out.extend(lines(m))
            out.append("}")
    return out


def _post_receives(messages: Sequence[_Message], ranks: int) -> list[str]:
    """Post each of `messages`' receives on its receiver (into the buffer, or a message)."""

    def receive(m: _Message) -> list[str]:
        k, i, t = m.phase, m.index, m.t
        into, out = m.received_into, []
        if into is None:
            out.append(f"mg{k}[{i}] = buffer({t.nbytes}, rank);")
            into = f"mg{k}[{i}]"
        out.append(
            f"MPI_Irecv({into}, {t.nbytes}, MPI_BYTE, {t.src}, {t.tag}, MPI_COMM_WORLD,"
            f" &rq{k}[nr{k}++]);"
        )
        return out

    return _on_each_rank(messages, ranks, lambda m: m.t.dst, receive)


def _post_sends(messages: Sequence[_Message], layouts: dict[str, Layout], ranks: int) -> list[str]:
    """Pack (unless sent from the buffer) and send each of `messages` on its sender."""

    def send(m: _Message) -> list[str]:
        k, i, t = m.phase, m.index, m.t
        out = [f"/* '{t.buffer}': {t.count} elements to rank {t.dst} */"]
        source = m.sent_from
        if source is None:
            out.append(f"sg{k}[{i}] = buffer({t.nbytes}, rank);")
            out.extend(_pack(t, layouts[t.buffer], f"sg{k}[{i}]"))
            source = f"sg{k}[{i}]"
        out.append(
            f"MPI_Isend({source}, {t.nbytes}, MPI_BYTE, {t.dst}, {t.tag}, MPI_COMM_WORLD,"
            f" &sq{k}[{i}]);"
        )
        out.append(f"sent += {t.nbytes};")
        return out

    return _on_each_rank(messages, ranks, lambda m: m.t.src, send)


def _complete_sends(messages: Sequence[_Message], ranks: int) -> list[str]:
    """Wait for each of `messages`' sends on its sender and free its packed message."""

    def complete(m: _Message) -> list[str]:
        return [
            f"MPI_Wait(&sq{m.phase}[{m.index}], MPI_STATUS_IGNORE); free(sg{m.phase}[{m.index}]);"
        ]

    return _on_each_rank(messages, ranks, lambda m: m.t.src, complete)


def _finish(
    k: int,
    phase: Sequence[Transfer],
    messages: Sequence[_Message],
    layouts: dict[str, Layout],
    ranks: int,
) -> list[str]:
    """Phase `k` before its kernel: its collectives (in the same order on every rank), then the
    wait for its receives, the count of the bytes received and the unpacking."""
    out: list[str] = []
    for c in collectives(phase, ranks):
        out.extend(_collective(c, layouts, ranks))
    if not messages:
        return out
    n = len(messages)
    out += ["{", f"MPI_Status st[{n}];", f"MPI_Waitall(nr{k}, rq{k}, st);"]
    out.append(f"for (int q = 0; q < nr{k}; ++q) {{")
    out.append("int got = 0; MPI_Get_count(&st[q], MPI_BYTE, &got); received += got;")
    out.append("}")
    packed = [m for m in messages if m.received_into is None]

    def unpack(m: _Message) -> list[str]:
        message = f"mg{k}[{m.index}]"
        return [*_unpack(m.t, layouts[m.t.buffer], message), f"free({message});"]

    out.extend(_on_each_rank(packed, ranks, lambda m: m.t.dst, unpack))
    out.append("}")
    return out


def _plan_messages(
    plan: ExchangePlan, layouts: dict[str, Layout], overlap: bool
) -> list[list[_Message]]:
    """Per phase, its point-to-point transfers as `_Message`s: sent from the buffer where the
    elements are one contiguous run (completed before the sender changes them,
    `send_done_points`), received into the buffer where they are one run and the receiver
    leaves them alone before the phase (`untouched_before`), with `overlap` posted early."""
    ranks = plan.ranks
    points = send_points(plan) if overlap else {}
    done = send_done_points(plan, points)
    out: list[list[_Message]] = []
    for k, phase in enumerate(plan.phases):
        covered = {id(t) for c in collectives(phase, ranks) for t in c.transfers}
        msgs: list[_Message] = []
        for t in phase:
            if id(t) in covered:
                continue
            address = _direct(t, layouts[t.buffer])
            into = address if address is not None and untouched_before(plan, t) else None
            post = points.get(t.tag, t.phase)
            msgs.append(
                _Message(
                    k,
                    len(msgs),
                    t,
                    address,
                    into,
                    post,
                    done[t.tag] if address is not None else t.phase,
                    overlap,
                )
            )
        out.append(msgs)
    return out


def _exchange(
    plan: ExchangePlan, layouts: dict[str, Layout], overlap: bool
) -> tuple[list[str], list[list[str]], list[str]]:
    """The exchange's code: what opens an iteration (the requests, and with `overlap` every
    receive of every phase), per position `p` (before kernel `p`; the last, before the gather's
    end) the sends posted there, the sends completed there and phase `p`'s end, and what closes
    the iteration (the sends still pending). With `overlap` a message is sent as soon as its
    sender has computed its elements (`send_points`), else at its phase."""
    ranks = plan.ranks
    messages = _plan_messages(plan, layouts, overlap)
    every = [m for msgs in messages for m in msgs]
    opening: list[str] = []
    for k, msgs in enumerate(messages):
        opening.extend(_declare(k, msgs))
    opening.extend(_timed(_post_receives([m for m in every if m.early], ranks)))
    at: list[list[str]] = []
    for p, phase in enumerate(plan.phases):
        posted = _post_receives([m for m in messages[p] if not m.early], ranks)
        posted += _post_sends([m for m in every if m.post == p], layouts, ranks)
        posted += _complete_sends([m for m in every if m.done == p], ranks)
        at.append(_timed([*posted, *_finish(p, phase, messages[p], layouts, ranks)]))
    closing = _timed(_complete_sends([m for m in every if m.done > len(plan.kernels)], ranks))
    return opening, at, closing


def _warm_up(plan: ExchangePlan) -> list[str]:
    """One byte along every pair of ranks the plan's messages join, and each of its collectives
    once on one byte, before the timed runs: MPI sets a connection up at its first message (~13
    ms between two ranks here), start-up cost like mpiexec's, not the program's."""
    out: list[str] = []
    done: set[tuple[str, int]] = set()
    for phase in plan.phases:
        for c in collectives(phase, plan.ranks):
            root = c.transfers[0].src if c.kind == "bcast" else 0
            if (c.kind, root) in done:
                continue
            done.add((c.kind, root))
            if c.kind == "bcast":
                out.append(
                    "{ unsigned char w = 0;"
                    f" MPI_Bcast(&w, 1, MPI_BYTE, {root}, MPI_COMM_WORLD); }}"
                )
            else:
                out.append(
                    f"{{ unsigned char w = 0, all[{plan.ranks}]; MPI_Allgather(&w, 1, MPI_BYTE,"
                    " all, 1, MPI_BYTE, MPI_COMM_WORLD); }"
                )
    pairs = sorted({(t.src, t.dst) for phase in plan.phases for t in phase})
    if not pairs:
        return out
    out += [
        "{",
        f"MPI_Request wq[{2 * len(pairs)}];",
        "int nw = 0;",
        f"unsigned char wb[{len(pairs)}] = {{0}}, wr[{len(pairs)}];",
    ]
    for n, (src, dst) in enumerate(pairs):
        out.append(
            f"if (rank == {src}) MPI_Isend(&wb[{n}], 1, MPI_BYTE, {dst}, 0, MPI_COMM_WORLD,"
            " &wq[nw++]);"
        )
        out.append(
            f"if (rank == {dst}) MPI_Irecv(&wr[{n}], 1, MPI_BYTE, {src}, 0, MPI_COMM_WORLD,"
            " &wq[nw++]);"
        )
    out += ["MPI_Waitall(nw, wq, MPI_STATUSES_IGNORE);", "}"]
    return out


def _allocate(lay: Layout, ref: Refinement, spans: Sequence[Storage]) -> list[str]:
    """Rank `rank`'s span of the buffer, poisoned, and its base pointer `lay.var`."""
    pattern = np.array([poison_value(ref.shape.dtype)], dtype=numpy_dtype(ref.shape.dtype))
    data = ", ".join(str(b) for b in pattern.tobytes())
    starts = ", ".join(str(s.start) for s in spans)
    counts = ", ".join(str(s.elements) for s in spans)
    mem = f"a{lay.index}"
    return [
        f"unsigned char *{mem}, *{lay.var}; /* {ref.into} */",
        "{",
        f"static const int64_t starts[{len(spans)}] = {{{starts}}};",
        f"static const int64_t counts[{len(spans)}] = {{{counts}}};",
        f"static const unsigned char pattern[] = {{{data}}};",
        f"const uintptr_t before = (uintptr_t)starts[rank] * {lay.itemsize};",
        f"{mem} = buffer((size_t)counts[rank] * {lay.itemsize} + {ALIGNMENT}, rank);",
        # the base, `starts[rank]` elements before the span (never dereferenced there), on an
        # ALIGNMENT boundary as the runtime puts whole buffers: rows of the layout start on
        # cache lines where they do on one rank
        f"{lay.var} = (unsigned char *)((((uintptr_t){mem} - before) + {ALIGNMENT - 1})"
        f" & ~(uintptr_t){ALIGNMENT - 1});",
        f"fill({lay.var} + before, (size_t)counts[rank], pattern, {lay.itemsize});",
        "}",
    ]


def emit_main(
    plan: ExchangePlan,
    calls: Sequence[KernelCall],
    storage: Sequence[dict[str, Storage]] | None = None,
    overlap: bool = True,
) -> str:
    """The C source of the MPI program's `main` (see the module docstring). `storage`: what
    each rank allocates of each buffer (None: every buffer whole on every rank). `overlap`:
    post every receive when an iteration starts and every send as soon as its elements are
    computed (else both at the transfer's phase); each phase waits just before its kernel."""
    layouts = {ref.into: layout(ref, i) for i, ref in enumerate(plan.buffers)}
    if storage is None:
        storage = [{name: Storage(0, lay.elements) for name, lay in layouts.items()}] * plan.ranks
    for ref in plan.buffers:
        held = storage[plan.root][ref.into]
        if ref.dir != RefDir.NONE and (held.start, held.elements) != (
            0,
            layouts[ref.into].elements,
        ):
            raise ValueError(f"the root rank must hold '{ref.into}' whole")
    for phase in plan.phases:
        for t in phase:
            if t.nbytes > MAX_MESSAGE:
                raise ValueError(f"a transfer of {t.nbytes} bytes exceeds one MPI message")
    failures = ", ".join(f"[{code}] = {_c_string(text)}" for code, text in FAILURES.items())
    lines = [
        "/* generated by plaidc (mpi backend): the ranks' main */",
        "#include <mpi.h>",
        "#include <stdint.h>",
        "#include <stdio.h>",
        "#include <stdlib.h>",
        "#include <string.h>",
        "#include <time.h>",
        *sorted({f"void {c.function}(void *const *args);" for c in calls}),
        f"static const char *const failures[{max(FAILURES) + 1}] = {{{failures}}};",
        "static void fail(int rank, const char *what) {",
        '  fprintf(stderr, "plaidc: rank %d: %s\\n", rank, what);',
        "  fflush(stderr);",
        "  MPI_Abort(MPI_COMM_WORLD, 1);",
        "  exit(1);",
        "}",
        "static double cpu_seconds(void) {",
        "  struct timespec ts;",
        "  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);",
        "  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;",
        "}",
        "static unsigned char *buffer(size_t bytes, int rank) {",
        "  unsigned char *p = malloc(bytes ? bytes : 1);",
        '  if (!p) fail(rank, "out of memory");',
        "  return p;",
        "}",
        "static void fill(unsigned char *p, size_t n, const unsigned char *pat, size_t w) {",
        "  for (size_t i = 0; i < n; ++i) memcpy(p + i * w, pat, w);",
        "}",
        "static void file_io(const char *dir, const char *name, const char *ext, void *p,",
        "                    size_t bytes, int rank, int writing) {",
        "  char path[4096];",
        '  snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);',
        '  FILE *f = fopen(path, writing ? "wb" : "rb");',
        "  size_t done = f ? (writing ? fwrite(p, 1, bytes, f) : fread(p, 1, bytes, f)) : 0;",
        "  if (!f || done != bytes || fclose(f) != 0) {",
        "    char what[4200];",
        '    snprintf(what, sizeof what, "cannot %s %s", writing ? "write" : "read", path);',
        "    fail(rank, what);",
        "  }",
        "}",
        "int main(int argc, char **argv) {",
        "MPI_Init(&argc, &argv);",
        "int rank = 0, size = 0;",
        "MPI_Comm_rank(MPI_COMM_WORLD, &rank);",
        "MPI_Comm_size(MPI_COMM_WORLD, &size);",
        f"if (size != {plan.ranks}) {{",
        "  char what[128];",
        f'  snprintf(what, sizeof what, "built for {plan.ranks} ranks, run on %d", size);',
        "  fail(rank, what);",
        "}",
        'if (argc < 3) fail(rank, "usage: PROGRAM DIR REPEAT");',
        "const char *dir = argv[1];",
        "int repeat = atoi(argv[2]);",
        "if (repeat < 1) repeat = 1;",
    ]
    for ref in plan.buffers:
        spans = [storage[r][ref.into] for r in range(plan.ranks)]
        lines.extend(_allocate(layouts[ref.into], ref, spans))
    lines.append(f"if (rank == {plan.root}) {{")
    for ref in plan.buffers:
        if ref.dir in (RefDir.IN, RefDir.INOUT):
            lay = layouts[ref.into]
            lines.append(
                f'file_io(dir, {_c_string(ref.into)}, "in", {lay.var}, {lay.nbytes}, rank, 0);'
            )
    lines.append("}")
    lines.extend(_warm_up(plan))
    lines += [
        "int32_t status[1];",
        "double best_wall = 1e300, compute = 0, communicate = 0, compute_cpu = 0;",
        "long long sent = 0, received = 0;",
        "for (int it = 0; it < repeat; ++it) {",
        "sent = 0; received = 0;",
        "double busy = 0, talk = 0, busy_cpu = 0;",
        "MPI_Barrier(MPI_COMM_WORLD);",
        "double start = MPI_Wtime();",
    ]
    opening, exchange_at, closing = _exchange(plan, layouts, overlap)
    lines.extend(opening)
    for k, name in enumerate(plan.kernels):
        lines.append(f"/* kernel {k}: {name.replace('*/', '* /')} */")
        lines.extend(exchange_at[k])
        for call in (c for c in calls if c.kernel == k):
            args = ", ".join([*(layouts[a].var for a in call.args), "status"])
            what = _c_string(f"kernel {name}: run failed: ")
            lines += [
                f"if (rank == {call.rank}) {{",
                f"void *args[] = {{{args}}};",
                "status[0] = 0;",
                "double t = MPI_Wtime(), c = cpu_seconds();",
                f"{call.function}(args);",
                "busy += MPI_Wtime() - t;",
                "busy_cpu += cpu_seconds() - c;",
                "if (status[0]) {",
                "  char what[512];",
                f'  snprintf(what, sizeof what, "%s%s", {what}, status[0] > 0 && status[0] <'
                f' {max(FAILURES) + 1} && failures[status[0]] ? failures[status[0]] : "failure");',
                "  fail(rank, what);",
                "}",
                "}",
            ]
    lines.append("/* gather the outputs */")
    lines.extend(exchange_at[-1])
    lines.extend(closing)
    lines += [
        "MPI_Barrier(MPI_COMM_WORLD);",
        "double wall = MPI_Wtime() - start;",
        "if (wall < best_wall) {",
        "  best_wall = wall; compute = busy; communicate = talk; compute_cpu = busy_cpu;",
        "}",
        "}",
        "double mine[5] = {compute, (double)sent, (double)received, communicate, compute_cpu};",
        f"double all[5 * {plan.ranks}];",
        f"MPI_Gather(mine, 5, MPI_DOUBLE, all, 5, MPI_DOUBLE, {plan.root}, MPI_COMM_WORLD);",
        f"if (rank == {plan.root}) {{",
    ]
    for ref in plan.buffers:
        if ref.dir in (RefDir.OUT, RefDir.INOUT):
            lay = layouts[ref.into]
            lines.append(
                f'file_io(dir, {_c_string(ref.into)}, "out", {lay.var}, {lay.nbytes}, rank, 1);'
            )
    lines += [
        "char path[4096];",
        'snprintf(path, sizeof path, "%s/report.txt", dir);',
        'FILE *f = fopen(path, "w");',
        'if (!f) fail(rank, "cannot write the report");',
        'fprintf(f, "%.9f\\n", best_wall);',
        f"for (int q = 0; q < {plan.ranks}; ++q)",
        '  fprintf(f, "%.9f %.0f %.0f %.9f %.9f\\n", all[5 * q], all[5 * q + 1],'
        " all[5 * q + 2], all[5 * q + 3], all[5 * q + 4]);",
        "fclose(f);",
        "}",
        *(f"free(a{layouts[ref.into].index});" for ref in plan.buffers),
        "MPI_Finalize();",
        "return 0;",
        "}",
    ]
    return "\n".join(lines) + "\n"
