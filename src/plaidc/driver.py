"""The compiler driver: load a program, run a pass pipeline, check stages against each other.

Everything here returns values or raises (CompileError for the user's input, InternalError for
plaidc's bugs); printing and exit codes belong to `plaidc.cli`.
"""

from __future__ import annotations

import dataclasses
import math
import re
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from plaidc.diagnostics import CompileError, Diagnostic, InternalError, decode_source
from plaidc.interp.memory import available_memory
from plaidc.passes import PassInfo, PassOptionError, get_pass, make_options
from plaidc.stripe.ir import Block, DType, Special, TensorShape
from plaidc.stripe.parser import parse_stripe
from plaidc.stripe.printer import format_bytes, print_stripe
from plaidc.stripe.uses import terms_per_element
from plaidc.targets import PassStep, TargetConfig


@dataclass
class Session:
    """Per-invocation state: the source texts read (to render diagnostics with carets) and the
    user's config file (to locate a backend's complaint about one of its keys)."""

    sources: dict[str, str] = field(default_factory=dict)
    config: TargetConfig | None = None
    #: Tile names the loaded program spells otherwise in Stripe (`X'` -> `X_p`).
    renamed: dict[str, str] = field(default_factory=dict)

    def locate(self, diag: Diagnostic) -> Diagnostic:
        return self.config.locate(diag) if self.config is not None else diag

    def read(self, path: str) -> str:
        """The text of `path` (`-`: standard input, named `<stdin>`), kept for rendering."""
        name = "<stdin>" if path == "-" else path
        try:
            data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as err:
            raise CompileError([Diagnostic(f"cannot read '{path}': {err.strerror}")]) from None
        # Undecodable text still renders (with replacement characters) under its error.
        self.sources[name] = data.decode("utf-8", errors="replace")
        text = decode_source(data, name)
        self.sources[name] = text
        return text


@contextmanager
def writing(path: str | Path) -> Iterator[None]:
    """Failing to write a file the user named is the user's error: `cannot write 'PATH'`."""
    try:
        yield
    except OSError as err:
        raise CompileError.at(f"cannot write '{path}': {err.strerror or err}", None) from None


def write_text(path: Path, text: str) -> None:
    with writing(path):
        path.write_text(text)


# ---- loading ------------------------------------------------------------------------------


LANGUAGES = ("tile", "stripe")

_SKIPPED = re.compile(r"\s+|//[^\n]*|/\*.*?\*/", re.DOTALL)  # whitespace, Tile/Stripe comments
_FUNCTION = re.compile(r"function(?![A-Za-z0-9_'])")


@dataclass(frozen=True)
class ProgramText:
    """A program's text, the name its diagnostics use, and its language (`tile`/`stripe`)."""

    name: str
    text: str
    language: str


def source_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def program_language(text: str, path: str) -> str:
    """`tile` when the first token after whitespace and comments is `function` (every Tile
    program starts so, no Stripe program does), else by the file's extension: `.tile` is
    Tile, anything else Stripe."""
    pos = 0
    while (skipped := _SKIPPED.match(text, pos)) is not None and skipped.end() > pos:
        pos = skipped.end()
    if _FUNCTION.match(text, pos) or path.endswith(".tile"):
        return "tile"
    return "stripe"


def read_program(session: Session, path: str, language: str | None = None) -> ProgramText:
    """Read `path` (`-`: standard input) as `language`, or the language its text shows."""
    text = session.read(path)
    return ProgramText(source_name(path), text, language or program_language(text, path))


def build_program(
    session: Session, program: ProgramText, bindings: Bindings, entry: str | None = None
) -> Block:
    """A Tile program lowered to Stripe with `bindings`, or a Stripe program parsed and
    verified (its sizes are its own: `bindings` and `entry` are for Tile)."""
    if program.language == "tile":
        return _lower_tile(session, program, bindings, entry)
    block = parse_stripe(program.text, program.name)
    verify_program(block)
    return block


def load_program(
    session: Session,
    path: str,
    bindings: Bindings,
    entry: str | None = None,
    language: str | None = None,
) -> Block:
    return build_program(session, read_program(session, path, language), bindings, entry)


def load_stripe(session: Session, path: str) -> Block:
    """Parse and verify a `.stripe` file (`-` reads standard input)."""
    return load_program(session, path, Bindings(), language="stripe")


def verify_program(program: Block) -> None:
    from plaidc.stripe.verify import verify

    diagnostics = verify(program)
    if diagnostics:
        raise CompileError(list(diagnostics))


@dataclass(frozen=True)
class Bindings:
    """Shape information from the command line: `-D`, `--shape` and `--input` files."""

    dims: Mapping[str, int] = field(default_factory=dict)
    shapes: Mapping[str, tuple[DType, tuple[int, ...]]] = field(default_factory=dict)


def _lower_tile(
    session: Session, program: ProgramText, bindings: Bindings, entry: str | None
) -> Block:
    from plaidc.tile import compile_tile

    result = compile_tile(
        program.text,
        program.name,
        dims=dict(bindings.dims),
        shapes=dict(bindings.shapes),
        entry=entry,
    )
    for warning in result.warnings:
        print(warning.render(program.text), file=sys.stderr)
    session.renamed.update(result.renamed)
    return result.program


# ---- pipelines ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PipelineStep:
    name: str
    info: PassInfo[Any]
    options: Any


def resolve_steps(steps: Sequence[PassStep]) -> list[PipelineStep]:
    """Config entries -> registered passes with typed options (errors name the config line)."""
    resolved = []
    for step in steps:
        try:
            info = get_pass(step.pass_name)
            options = make_options(info, step.options)
        except PassOptionError as err:
            raise CompileError.at(str(err), step.option_span(str(err))) from None
        resolved.append(PipelineStep(step.name, info, options))
    return resolved


@dataclass(frozen=True)
class TunedPipeline:
    """A stage's steps and the config its backend reads, with a tuning record's options
    applied (`record` None: the config's own options, the cost model's choice)."""

    cfg: TargetConfig
    steps: list[PipelineStep]
    record: dict[str, Any] | None = None
    key: str | None = None
    notes: str | None = None  # what `--dump-dir` writes to tuning.txt (None: no such file)


def apply_tuning(
    program: Block, cfg: TargetConfig, stage: str, db_path: Path | None, note: Any
) -> TunedPipeline:
    """The best valid record of `plaidc tune` for this program, config, pipeline and host in
    the database (`db_path`, else the default), applied to the stage; `note` receives one
    line saying so, and the warnings of reading the database."""
    from plaidc.tune.db import TuneDb, best_valid, default_db_path, tuning_key
    from plaidc.tune.space import apply_point, build_space, point_key

    untuned = TunedPipeline(cfg, resolve_steps(cfg.stage(stage)))
    if not cfg.tune:
        return untuned
    space = build_space(cfg, stage)  # a bad [tune] table is an error, tuned or not
    db = TuneDb(db_path or default_db_path(), warn=note)
    if not space.params or not db.path.exists():
        return untuned
    key = tuning_key(program, cfg, stage).key
    best, stale = best_valid(db.records(key), key, space.contains)
    if stale:
        note(
            f"plaidc: note: {stale} tuning record(s) of key {key} name options or values the "
            "config's [tune] table no longer has; ignored"
        )
    if best is None:
        return dataclasses.replace(untuned, key=key)
    tuned_cfg, steps = apply_point(cfg, stage, best["params"])
    from plaidc.tune.progress import show_value

    value = show_value(best["result"]["value"], best["result"].get("metric", "seconds"))
    note(f"plaidc: tuned options from {db.path} ({value}, key {key}): {point_key(best['params'])}")
    return TunedPipeline(tuned_cfg, resolve_steps(steps), best, key)


def describe_tuning(tuned: TunedPipeline) -> str:
    """The options a pipeline ran with, as `--dump-dir` writes them (`tuning.txt`)."""
    from plaidc.options import format_value

    if tuned.record is None:
        why = f"no tuning record for key {tuned.key}" if tuned.key else "not tuned"
        return f"# {why}: the config's options (the cost model's choice)\n"
    result = tuned.record["result"]
    lines = [
        f"# tuned options of key {tuned.key}, session {tuned.record['session']} trial "
        f"{tuned.record.get('trial')}: {result['value']} {result.get('metric', '')}"
    ]
    lines += [f"{name} = {format_value(v)}" for name, v in sorted(tuned.record["params"].items())]
    return "\n".join(lines) + "\n"


def run_pipeline(
    program: Block,
    steps: Sequence[PipelineStep],
    *,
    dump_dir: Path | None = None,
    verify_each: bool = False,
    tuning_notes: str | None = None,
) -> Block:
    """Run passes in order; optionally dump `NN_<name>.stripe` after each (replacing the dumps
    and the `tuning.txt` an earlier run left in `dump_dir`, so two runs' folders diff as their
    pipelines do; `tuning_notes` is this run's `tuning.txt`) and verify each."""
    if dump_dir is not None:
        with writing(dump_dir):
            dump_dir.mkdir(parents=True, exist_ok=True)
            for old in [*dump_dir.glob("[0-9][0-9]_*.stripe"), dump_dir / "tuning.txt"]:
                old.unlink(missing_ok=True)
        write_text(dump_dir / "00_initial.stripe", print_stripe(program))
        if tuning_notes is not None:
            write_text(dump_dir / "tuning.txt", tuning_notes)
    for number, step in enumerate(steps, 1):
        try:
            program = step.info.run(program, step.options)
        except (CompileError, PassOptionError):  # options a pass checks only when it runs
            raise
        except Exception as err:
            raise InternalError(f"pass '{step.name}' ({step.info.name}) crashed: {err!r}") from err
        if verify_each:
            _verify_after(program, step)
        if dump_dir is not None:
            write_text(dump_dir / f"{number:02d}_{step.name}.stripe", print_stripe(program))
    return program


def _verify_after(program: Block, step: PipelineStep) -> None:
    try:
        verify_program(program)
    except CompileError as err:
        first = err.diagnostics[0].render() if err.diagnostics else ""
        raise InternalError(
            f"pass '{step.name}' ({step.info.name}) produced invalid Stripe: {first}"
        ) from err


# ---- inputs, outputs and checking ---------------------------------------------------------


def check_memory(parameters: Mapping[str, TensorShape]) -> None:
    """A CompileError when a run's parameters (inputs and outputs, by name) take more bytes
    than the machine has available: a clear message instead of the process being killed
    while it fills them. Unchecked where the available memory is unknown."""
    need = sum(shape.byte_size for shape in parameters.values())
    have = available_memory()
    if have is not None and need > have:
        raise CompileError(
            [
                Diagnostic(
                    f"the program's inputs and outputs take {format_bytes(need)} and this "
                    f"machine has {format_bytes(have)} of memory available"
                )
            ]
        )


def random_inputs(shapes: Mapping[str, TensorShape], seed: int) -> dict[str, np.ndarray]:
    """Deterministic inputs: floats in [-1, 1), integers in [0, 4), bools; by sorted name."""
    from plaidc.interp import numpy_dtype

    rng = np.random.default_rng(seed)
    inputs = {}
    for name in sorted(shapes):
        shape = shapes[name]
        dtype = numpy_dtype(shape.dtype)
        # Drawn in the input's own type where numpy can (fp32, fp64, integers), so that a big
        # input takes no float64 copy.
        values: np.ndarray
        if shape.dtype.is_float:
            drawn = np.float64 if dtype == np.float64 else np.float32
            values = rng.random(size=shape.sizes, dtype=drawn)
            values *= 2
            values -= 1
        elif shape.dtype == DType.BOOL:
            values = rng.integers(0, 2, size=shape.sizes, dtype=np.uint8)
        else:
            values = rng.integers(0, 4, size=shape.sizes, dtype=dtype)
        inputs[name] = np.asarray(values).astype(dtype, copy=False)
    return inputs


@dataclass(frozen=True)
class Mismatch:
    name: str
    message: str


def tolerances(dtype: np.dtype[Any]) -> tuple[float, float]:
    """(rtol, atol): fp32 1e-4/1e-5 as ARCHITECTURE.md says, looser for 16-bit floats."""
    if dtype == np.float16 or (dtype.itemsize <= 2 and dtype.kind == "f"):
        return 1e-2, 1e-3
    if dtype.kind == "f":
        return 1e-4, 1e-5
    return 0.0, 0.0


def compare_outputs(
    expected: Mapping[str, np.ndarray],
    actual: Mapping[str, np.ndarray],
    reduced_precision: Collection[str] = (),
    reduction_terms: int = 1,
) -> list[Mismatch]:
    """Every expected output must be present, equally shaped and close (NaN matches NaN).
    Outputs named in `reduced_precision` (a target computed them from fp16 operands, e.g. the
    NPU's Cube) are compared at fp16 tolerance whatever their type.

    A sum of n terms rounds with an error that grows like sqrt(n) ulps of the *output's
    scale*, not of each element: where the terms cancel, an element can be far smaller than
    that error, whatever order either side sums in. So a float output's absolute tolerance
    gains `eps * sqrt(n) * max|expected|`, n being `reduction_terms` (the program's longest
    reduction, `longest_reduction`) and eps the output type's machine epsilon."""
    problems = []
    for name in sorted(expected):
        want = np.asarray(expected[name])
        if name not in actual:
            problems.append(Mismatch(name, f"output '{name}' is missing"))
            continue
        got = np.asarray(actual[name])
        if got.shape != want.shape:
            problems.append(
                Mismatch(name, f"output '{name}': shape {got.shape}, expected {want.shape}")
            )
            continue
        rtol, atol = tolerances(want.dtype)
        if name in reduced_precision and want.dtype.kind == "f":
            rtol, atol = max(rtol, 1e-2), max(atol, 1e-3)
        exact = rtol == 0 and atol == 0 and want.dtype.kind in "biu" and got.dtype.kind in "biu"
        if exact:  # integers compared as integers: float64 would merge values above 2^53
            same = got.dtype == want.dtype
            close = np.asarray(got == want if same else got.astype(object) == want.astype(object))
        else:
            w, g = want.astype(np.float64), got.astype(np.float64)
            if want.dtype.kind == "f" and reduction_terms > 1 and w.size:
                finite = np.abs(w[np.isfinite(w)])
                scale = float(finite.max()) if finite.size else 0.0
                atol += float(np.finfo(want.dtype).eps) * math.sqrt(reduction_terms) * scale
            close = np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
        if not close.all():
            bad = int((~close).sum())
            if exact:  # the first differing element, its values as integers
                worst = tuple(int(i) for i in np.argwhere(~close)[0])
                got_s, want_s = str(got[worst]), str(want[worst])
            else:
                worst = _worst(close, w, g)
                got_s, want_s = f"{g[worst]:.9g}", f"{w[worst]:.9g}"
            problems.append(
                Mismatch(
                    name,
                    f"output '{name}' differs at {bad} of {close.size} elements; worst at "
                    f"{worst}: got {got_s}, expected {want_s} (rtol {rtol:g}, atol {atol:g})",
                )
            )
    return problems


def _worst(close: np.ndarray, w: np.ndarray, g: np.ndarray) -> tuple[int, ...]:
    """Where the largest difference is (NaN against a number counts as the largest)."""
    err = np.where(close, 0.0, np.abs(g - w))
    err = np.where(np.isnan(err), np.inf, err)
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(err)), err.shape))


def longest_reduction(program: Block) -> int:
    """The most terms any aggregation of `program` combines into one element: along each
    chain of blocks, the product of the ranges of the indices that an aggregated view's
    access does not use (constraints only lower it). 1 for a program without sums."""
    longest = 1

    def walk(block: Block, outer: int) -> None:
        nonlocal longest
        own = outer
        for ref in block.refs:
            if ref.agg_op in (None, "assign") or not ref.dir.writes:
                continue
            own = max(own, outer * terms_per_element(block, ref))
        longest = max(longest, own)
        for stmt in block.stmts:
            if isinstance(stmt, Block):
                walk(stmt, own)

    walk(program, 1)
    return longest


def through_half_precision(program: Block) -> frozenset[str]:
    """The root buffers whose values pass through a 16-bit float buffer (fp16 or bf16: an
    input, a temporary or an allocation in some block), by the blocks and specials that
    write one buffer from others (each write of a leaf block from every read of it). Such a
    value was rounded to 11 (8) significant bits on the way, and a target that sums in
    another order may land on the other side of a rounding: an fp32 output of an fp16
    convolution plus an fp32 bias differs by an fp16 ulp at a tie. `plaidc run --check`
    compares those outputs at 16-bit tolerance, as ARCHITECTURE.md's "looser for fp16" says.
    A value rounded by a cast to fp16 without a buffer (`as_float(as_float(X, 16), 32)`)
    is not seen."""
    sources: dict[str, set[str]] = {}  # buffer -> the buffers a block writing it reads
    half: set[str] = set()

    def walk(block: Block, names: dict[str, str]) -> None:
        local = dict(names)
        for ref in block.refs:
            parent = names.get(ref.from_) if ref.from_ is not None else None
            own = ref.into if block is program else f"{id(block)}/{ref.into}"
            local[ref.into] = parent or own  # a root buffer, or an allocation here
            if ref.shape.dtype in (DType.FP16, DType.BF16):
                half.add(local[ref.into])
        if not any(isinstance(stmt, Block) for stmt in block.stmts):  # a leaf computes
            reads = {local[r.into] for r in block.refs if r.dir.reads}
            for ref in block.refs:
                if ref.dir.writes:
                    sources.setdefault(local[ref.into], set()).update(reads)
        for stmt in block.stmts:
            if isinstance(stmt, Block):
                walk(stmt, local)
            elif isinstance(stmt, Special):
                for out in stmt.outputs:
                    found = {local.get(name, name) for name in stmt.inputs}
                    sources.setdefault(local.get(out, out), set()).update(found)

    walk(program, {})
    result = set()
    for ref in program.refs:
        seen, todo = set(), [ref.into]
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(sources.get(name, ()))
        if seen & half:
            result.add(ref.into)
    return frozenset(result)


def check_equivalent(before: Block, after: Block, seed: int) -> list[Mismatch]:
    """Interpret both programs on the same random inputs and compare every output."""
    from plaidc.interp import program_io, run_program

    io_before = program_io(before)
    io_after = program_io(after)
    if set(io_before.inputs) != set(io_after.inputs):
        return [Mismatch("<inputs>", "the programs take different inputs")]
    inputs = random_inputs(io_before.inputs, seed)
    return compare_outputs(
        run_program(before, inputs),
        run_program(after, inputs),
        reduction_terms=longest_reduction(before),
    )


def parse_shape_binding(text: str) -> tuple[str, DType, tuple[int, ...]]:
    """`NAME=DTYPE[d0,d1,..]` (e.g. `A=fp32[64,128]`; `A=fp32[]` is a scalar); ValueError
    saying what is wrong with a malformed one (a usage error: the CLI reports it)."""
    m = re.fullmatch(r"\s*([A-Za-z_#][^=\s]*)\s*=\s*([a-z0-9]+)\s*\[([-0-9,\s]*)\]\s*", text)
    if not m:
        raise ValueError(f"'{text}' should be NAME=DTYPE[d0,d1,...]")
    name, dtype_text, dims = m.groups()
    try:
        dtype = DType(dtype_text)
    except ValueError:
        known = ", ".join(d.value for d in DType)
        raise ValueError(f"'{text}': unknown dtype '{dtype_text}' ({known})") from None
    parts = [d.strip() for d in dims.split(",")]
    if parts == [""]:
        parts = []  # `A=fp32[]`: a scalar
    try:
        if "" in parts:
            raise ValueError("an empty size")
        sizes = tuple(int(d) for d in parts)
    except ValueError:
        raise ValueError(f"'{text}': sizes must be integers") from None
    negative = [s for s in sizes if s < 0]
    if negative:
        raise ValueError(f"'{text}': size {negative[0]} is negative")
    return name, dtype, sizes


def dtype_of_array(name: str, array: np.ndarray) -> DType:
    """The Stripe dtype of an input array (bf16 has no numpy dtype, so never comes back)."""
    from plaidc.interp import numpy_dtype

    for dtype in DType:
        if dtype != DType.BF16 and numpy_dtype(dtype) == array.dtype:
            return dtype
    raise CompileError([Diagnostic(f"input '{name}': unsupported numpy dtype {array.dtype}")])
