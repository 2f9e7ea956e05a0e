"""The C `main` of an MPI program: buffers, the exchange plan's transfers, the kernels' calls.

Every rank holds every buffer of `main` at full size, in the layout its view gives (element
offset `sum(c * stride)`). The root rank reads the inputs from `DIR/NAME.in` and writes the
outputs to `DIR/NAME.out` (raw bytes of that layout); the other buffers start as the
interpreter's poison. Each phase of the plan (one before each kernel, then the gather) posts
every receive (`MPI_Irecv`) and send (`MPI_Isend`, of elements packed by a loop nest isl
generates from the transfer's exact set) and waits for all of them, then unpacks with the same
loop nest. A kernel's part is the C backend's code for that rank (`plaidc_rR_kK`). The run
repeats `argv[2]` times; the root writes `DIR/report.txt`: the best wall time, then per rank
its compute seconds, the bytes it sent and received (counted from the messages) and its seconds
in the phases (packing, messages, waiting, unpacking).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from plaidc.analysis.exchange import Collective, ExchangePlan, Transfer, collectives, scan_ast
from plaidc.backends.loopnest.plan import FAILURES
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


def _pack(t: Transfer, lay: Layout, into: str) -> list[str]:
    body = (
        f"memcpy({into} + n * {lay.itemsize}, {lay.var} + ({_offset(lay)}) * {lay.itemsize},"
        f" {lay.itemsize}), ++n"
    )
    return ["{", "int64_t n = 0;", *_scan(t, lay, body), _count_check(t, "pack"), "}"]


def _unpack(t: Transfer, lay: Layout, source: str) -> list[str]:
    body = (
        f"memcpy({lay.var} + ({_offset(lay)}) * {lay.itemsize}, {source} + n * {lay.itemsize},"
        f" {lay.itemsize}), ++n"
    )
    return ["{", "int64_t n = 0;", *_scan(t, lay, body), _count_check(t, "unpack"), "}"]


def _count_check(t: Transfer, what: str) -> str:
    message = _c_string(f"transfer {t.tag}: {what}ed a wrong element count")
    return f"if (n != {t.count}) fail(rank, {message});"


def _collective(c: Collective, layouts: dict[str, Layout], ranks: int) -> list[str]:
    lay = layouts[c.buffer]
    if c.kind == "bcast":
        t = c.transfers[0]
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


def _phase(phase: Sequence[Transfer], layouts: dict[str, Layout], ranks: int) -> list[str]:
    if not phase:
        return []
    return [
        "{",
        "double t = MPI_Wtime();",
        *_phase_body(phase, layouts, ranks),
        "talk += MPI_Wtime() - t;",
        "}",
    ]


def _phase_body(phase: Sequence[Transfer], layouts: dict[str, Layout], ranks: int) -> list[str]:
    out: list[str] = []
    # collectives first, in the same order on every rank, then the point-to-point messages
    for c in collectives(phase, ranks):
        out.extend(_collective(c, layouts, ranks))
    covered = {id(t) for c in collectives(phase, ranks) for t in c.transfers}
    phase = [t for t in phase if id(t) not in covered]
    if not phase:
        return out
    out += ["{", f"MPI_Request req[{len(phase)}];", f"MPI_Status st[{len(phase)}];"]
    out.append(f"unsigned char *msg[{len(phase)}] = {{0}};")
    out.append(f"int recv_of[{len(phase)}];")
    out.append("int nreq = 0;")
    for r in range(ranks):
        mine = [(i, t) for i, t in enumerate(phase) if r in (t.src, t.dst)]
        if not mine:
            continue
        out.append(f"if (rank == {r}) {{")
        for i, t in mine:  # receives first, then sends
            if t.dst == r:
                out.append(f"msg[{i}] = buffer({t.nbytes}, rank);")
                out.append(f"recv_of[nreq] = {i};")
                out.append(
                    f"MPI_Irecv(msg[{i}], {t.nbytes}, MPI_BYTE, {t.src}, {t.tag}, MPI_COMM_WORLD,"
                    " &req[nreq++]);"
                )
        for i, t in mine:
            if t.src == r:
                out.append(f"/* '{t.buffer}': {t.count} elements to rank {t.dst} */")
                out.append(f"msg[{i}] = buffer({t.nbytes}, rank);")
                out.extend(_pack(t, layouts[t.buffer], f"msg[{i}]"))
                out.append("recv_of[nreq] = -1;")
                out.append(
                    f"MPI_Isend(msg[{i}], {t.nbytes}, MPI_BYTE, {t.dst}, {t.tag}, MPI_COMM_WORLD,"
                    " &req[nreq++]);"
                )
                out.append(f"sent += {t.nbytes};")
        out.append("}")
    out.append("MPI_Waitall(nreq, req, st);")
    out.append("for (int q = 0; q < nreq; ++q) if (recv_of[q] >= 0) {")
    out.append("int got = 0; MPI_Get_count(&st[q], MPI_BYTE, &got); received += got;")
    out.append("}")
    for r in range(ranks):
        mine = [(i, t) for i, t in enumerate(phase) if t.dst == r]
        if not mine:
            continue
        out.append(f"if (rank == {r}) {{")
        for i, t in mine:
            out.extend(_unpack(t, layouts[t.buffer], f"msg[{i}]"))
        out.append("}")
    out.append(f"for (int q = 0; q < {len(phase)}; ++q) free(msg[q]);")
    out.append("}")
    return out


def _fill(lay: Layout, ref: Refinement) -> list[str]:
    pattern = np.array([poison_value(ref.shape.dtype)], dtype=numpy_dtype(ref.shape.dtype))
    data = ", ".join(str(b) for b in pattern.tobytes())
    return [
        "{",
        f"static const unsigned char pattern[] = {{{data}}};",
        f"fill({lay.var}, {lay.elements}, pattern, {lay.itemsize});",
        "}",
    ]


def emit_main(plan: ExchangePlan, calls: Sequence[KernelCall]) -> str:
    """The C source of the MPI program's `main` (see the module docstring)."""
    layouts = {ref.into: layout(ref, i) for i, ref in enumerate(plan.buffers)}
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
        *sorted({f"void {c.function}(void *const *args);" for c in calls}),
        f"static const char *const failures[{max(FAILURES) + 1}] = {{{failures}}};",
        "static void fail(int rank, const char *what) {",
        '  fprintf(stderr, "plaidc: rank %d: %s\\n", rank, what);',
        "  fflush(stderr);",
        "  MPI_Abort(MPI_COMM_WORLD, 1);",
        "  exit(1);",
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
        lay = layouts[ref.into]
        lines.append(f"unsigned char *{lay.var} = buffer({lay.nbytes}, rank); /* {ref.into} */")
        lines.extend(_fill(lay, ref))
    lines.append(f"if (rank == {plan.root}) {{")
    for ref in plan.buffers:
        if ref.dir in (RefDir.IN, RefDir.INOUT):
            lay = layouts[ref.into]
            lines.append(
                f'file_io(dir, {_c_string(ref.into)}, "in", {lay.var}, {lay.nbytes}, rank, 0);'
            )
    lines.append("}")
    lines += [
        "int32_t status[1];",
        "double best_wall = 1e300, compute = 0, communicate = 0;",
        "long long sent = 0, received = 0;",
        "for (int it = 0; it < repeat; ++it) {",
        "sent = 0; received = 0;",
        "double busy = 0, talk = 0;",
        "MPI_Barrier(MPI_COMM_WORLD);",
        "double start = MPI_Wtime();",
    ]
    for k, name in enumerate(plan.kernels):
        lines.append(f"/* kernel {k}: {name.replace('*/', '* /')} */")
        lines.extend(_phase(plan.phases[k], layouts, plan.ranks))
        for call in (c for c in calls if c.kernel == k):
            args = ", ".join([*(layouts[a].var for a in call.args), "status"])
            what = _c_string(f"kernel {name}: run failed: ")
            lines += [
                f"if (rank == {call.rank}) {{",
                f"void *args[] = {{{args}}};",
                "status[0] = 0;",
                "double t = MPI_Wtime();",
                f"{call.function}(args);",
                "busy += MPI_Wtime() - t;",
                "if (status[0]) {",
                "  char what[512];",
                f'  snprintf(what, sizeof what, "%s%s", {what}, status[0] > 0 && status[0] <'
                f' {max(FAILURES) + 1} && failures[status[0]] ? failures[status[0]] : "failure");',
                "  fail(rank, what);",
                "}",
                "}",
            ]
    lines.append("/* gather the outputs */")
    lines.extend(_phase(plan.phases[-1], layouts, plan.ranks))
    lines += [
        "MPI_Barrier(MPI_COMM_WORLD);",
        "double wall = MPI_Wtime() - start;",
        "if (wall < best_wall) { best_wall = wall; compute = busy; communicate = talk; }",
        "}",
        "double mine[4] = {compute, (double)sent, (double)received, communicate};",
        f"double all[4 * {plan.ranks}];",
        f"MPI_Gather(mine, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, {plan.root}, MPI_COMM_WORLD);",
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
        '  fprintf(f, "%.9f %.0f %.0f %.9f\\n", all[4 * q], all[4 * q + 1], all[4 * q + 2],'
        " all[4 * q + 3]);",
        "fclose(f);",
        "}",
        *(f"free({layouts[ref.into].var});" for ref in plan.buffers),
        "MPI_Finalize();",
        "return 0;",
        "}",
    ]
    return "\n".join(lines) + "\n"
