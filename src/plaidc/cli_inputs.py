"""The command line's options and what they read: option values checked as click parameters
(a malformed one is a usage error, exit 2, in click's one-line `Usage` style), `--input` files,
target configs, and the version text of `--version`.

ARCHITECTURE.md: an unknown command, option, target, pass or emit kind and a malformed option
value are usage errors; errors in the files the user names are input errors (exit 1).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from tokenize import TokenError
from typing import Any, NamedTuple

import click
import numpy as np

from plaidc import driver
from plaidc.diagnostics import CompileError
from plaidc.stripe.ir import DType, extent_error


def version_text(program: str) -> str:
    """`plaidc 0.1.0` and the llvmlite and LLVM versions the LLVM backend generates code for."""
    from importlib.metadata import PackageNotFoundError, version

    import llvmlite

    from plaidc.backends.llvm.jit import llvm_version

    try:
        own = version("plaidc")
    except PackageNotFoundError:  # imported from a source tree that was never installed
        own = "(not installed)"
    return f"{program} {own}\nllvmlite {llvmlite.__version__} (LLVM {llvm_version()})"


def version_option(program: str) -> Any:
    """`--version` of the command `program` (`plaidc`, `plaidc-opt`)."""

    def show(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
        if value and not ctx.resilient_parsing:
            click.echo(version_text(program))
            ctx.exit()

    return click.option(
        "--version",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=show,
        help="Show plaidc's version and its LLVM's, and exit.",
    )


debug_option = click.option(
    "--debug", is_flag=True, help="Show Python tracebacks of internal errors."
)


def nonempty(_ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise click.BadParameter("must not be empty", param=param)
    return value


def _known_target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from plaidc.targets import TARGET_ALIASES, builtin_target_names

    value = nonempty(ctx, param, value)
    known = builtin_target_names() + sorted(TARGET_ALIASES)
    if value is not None and value not in known:
        raise click.BadParameter(
            f"unknown target '{value}' (targets: {', '.join(known)}; or --config FILE.toml)",
            param=param,
        )
    return value


target_option = click.option(
    "-t",
    "--target",
    default=None,
    metavar="TARGET",
    callback=_known_target,
    help="Target name (see `plaidc targets`).",
)
config_option = click.option(
    "--config",
    default=None,
    metavar="FILE.toml",
    callback=nonempty,
    help="A target config file (instead of -t).",
)
define_option = click.option(
    "-D", "defines", multiple=True, metavar="NAME=INT", help="Bind a Tile dimension; repeatable."
)
shape_option = click.option(
    "--shape",
    "shapes",
    multiple=True,
    metavar="NAME=DTYPE[d0,..]",
    help="Bind a Tile input's type and sizes (A=fp32[64,128]); repeatable.",
)
dump_dir_option = click.option(
    "--dump-dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Write DIR/00_initial.stripe and DIR/NN_<pass>.stripe after every pass.",
)
verify_each_option = click.option(
    "--verify-each", is_flag=True, help="Run the Stripe verifier after every pass."
)
entry_option = click.option(
    "--entry", default=None, metavar="NAME", help="Entry function of a multi-function Tile file."
)
language_option = click.option(
    "-x",
    "language",
    type=click.Choice(driver.LANGUAGES),
    default=None,
    help="Read the program as Tile or Stripe (default: Tile if its first word is `function`, "
    "else by its extension: .tile is Tile, anything else Stripe).",
)


def stage_option(default: str | None) -> Any:
    return click.option(
        "--stage",
        default=default,
        metavar="STAGE",
        show_default=default is not None,
        callback=nonempty,
        help="Pipeline stage of the target config (e.g. opencl's `gpu`).",
    )


def parse_defines(defines: Sequence[str]) -> dict[str, int]:
    dims: dict[str, int] = {}
    for item in defines:
        name, sep, value = item.partition("=")
        digits = value.strip().removeprefix("-")
        name = name.strip()
        if not sep or not (digits.isascii() and digits.isdigit()) or not name.isidentifier():
            raise click.BadParameter(f"'{item}' should be NAME=INT", param_hint="'-D'")
        if name in dims and dims[name] != int(value):
            raise click.BadParameter(
                f"{name} is bound twice, to {dims[name]} and to {int(value)}", param_hint="'-D'"
            )
        dims[name] = int(value)
    return dims


class ShapeOption(NamedTuple):
    """One `--shape NAME=DTYPE[d0,..]`, as given and as parsed."""

    text: str
    name: str
    dtype: DType
    sizes: tuple[int, ...]


def parse_shapes(shapes: Sequence[str]) -> list[ShapeOption]:
    parsed = []
    for text in shapes:
        try:
            parsed.append(ShapeOption(text, *driver.parse_shape_binding(text)))
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="'--shape'") from None
    return parsed


def parse_input_options(items: Sequence[str]) -> list[tuple[str, str]]:
    """`--input NAME=FILE.npy` as (name, path); the files are read later, by `load_inputs`."""
    pairs: dict[str, str] = {}
    for item in items:
        name, sep, path = item.partition("=")
        name = name.strip()
        if not sep or not name or not path:
            raise click.BadParameter(f"'{item}' should be NAME=FILE.npy", param_hint="'--input'")
        if name in pairs:
            raise click.BadParameter(f"{name} is given twice", param_hint="'--input'")
        pairs[name] = path
    return list(pairs.items())


def load_inputs(pairs: Sequence[tuple[str, str]]) -> dict[str, np.ndarray]:
    return {name: _load_npy(name, path) for name, path in pairs}


def _load_npy(name: str, path: str) -> np.ndarray:
    """One `--input` file: a plain .npy array; anything else is the user's error, naming it."""

    def bad(why: str) -> CompileError:
        return CompileError.at(f"cannot read input '{name}' from '{path}': {why}", None)

    try:
        problem = _npy_header_problem(path)
        if problem:
            raise bad(problem)
        loaded = np.load(path, allow_pickle=False)
    except EOFError:
        raise bad("the file is empty or truncated") from None
    except TokenError:  # numpy tokenizes a header it cannot read as a literal
        raise bad("its .npy header is malformed (not a complete dictionary literal)") from None
    except (OSError, ValueError, TypeError) as err:  # TypeError: a size that is not an integer
        raise bad(str(err)) from None
    if not isinstance(loaded, np.ndarray):
        loaded.close()  # np.load opens an .npz archive as an NpzFile
        raise bad("it is an .npz archive, not a .npy array")
    return loaded


def _npy_header_problem(path: str) -> str | None:
    """What is wrong with the shape a .npy header declares (a negative size, or more elements
    than any size may have: numpy would multiply them, overflowing, and try to allocate), or
    None. Files that are not .npy (version 1 or 2) are left to np.load."""
    from numpy.lib import format as npy_format

    with open(path, "rb") as fp:
        if fp.read(len(npy_format.MAGIC_PREFIX)) != npy_format.MAGIC_PREFIX:
            return None
        fp.seek(0)
        version = npy_format.read_magic(fp)
        if version == (1, 0):
            shape, _, _ = npy_format.read_array_header_1_0(fp)
        elif version == (2, 0):
            shape, _, _ = npy_format.read_array_header_2_0(fp)
        else:
            return None
    negative = [size for size in shape if size < 0]
    if negative:
        return f"its header declares shape {tuple(shape)}, with a negative size"
    return extent_error(f"the element count of its shape {tuple(shape)}", math.prod(shape))


def bindings(
    dims: dict[str, int],
    shapes: Sequence[ShapeOption],
    arrays: dict[str, np.ndarray],
) -> driver.Bindings:
    bound: dict[str, tuple[DType, tuple[int, ...]]] = {}
    for name, array in arrays.items():
        bound[name] = (driver.dtype_of_array(name, array), tuple(array.shape))
    for shape in shapes:  # --shape wins over .npy files
        given = bound.get(shape.name)
        if given is not None and given[0] != shape.dtype:
            click.echo(
                f"warning: --shape {shape.text}: the values of --input {shape.name} are "
                f"{given[0]}; they are converted to {shape.dtype}",
                err=True,
            )
        bound[shape.name] = (shape.dtype, shape.sizes)
    return driver.Bindings(dims=dims, shapes=bound)


def check_target_choice(target: str | None, config: str | None) -> None:
    if target is not None and config is not None:
        raise click.UsageError(
            f"give either -t {target} or --config {config}, not both (a config file replaces "
            "the target's)"
        )


def target_config(session: driver.Session, target: str | None, config: str | None) -> Any:
    """The user's config file (read through the session, so its errors show their line) or
    a built-in target."""
    from plaidc.backends import check_target
    from plaidc.targets import load_target, parse_config

    if config is not None:
        session.config = check_target(parse_config(session.read(config), config))
        cfg = session.config
    else:
        cfg = check_target(load_target(target or "interp"))
    for warning in cfg.warnings:
        click.echo(warning.render(), err=True)
    return cfg


ranks_option = click.option(
    "--ranks",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="MPI processes of the mpi target (sets its [hardware] ranks).",
)


def with_ranks(cfg: Any, ranks: int | None) -> Any:
    """`cfg` with `--ranks N` as its [hardware] ranks (only the mpi backend has ranks)."""
    from plaidc.backends import check_target
    from plaidc.targets import parse_config

    if ranks is None:
        return cfg
    if cfg.backend != "mpi":
        raise click.UsageError(
            f"--ranks needs the mpi target (-t mpi); target '{cfg.name}' uses backend "
            f"'{cfg.backend}'"
        )
    return check_target(parse_config(cfg.source, cfg.path, {"ranks": ranks}))


def pipeline_stage(cfg: Any, stage: str) -> list[driver.PipelineStep]:
    """The passes of `stage` of the target config; an unknown stage is a usage error."""
    if stage not in cfg.stages:
        known = ", ".join(sorted(cfg.stages)) or "none"
        raise click.BadParameter(
            f"target '{cfg.name}' has no stage '{stage}' (stages: {known})",
            param_hint="'--stage'",
        )
    return driver.resolve_steps(cfg.stage(stage))


db_option = click.option(
    "--db",
    "db",
    default=None,
    metavar="FILE",
    callback=nonempty,
    help="The tuning database (default: $PLAIDC_TUNE_DB, else "
    "$XDG_CACHE_HOME/plaidc/tune.jsonl, ~/.cache/plaidc/tune.jsonl).",
)
no_tuning_option = click.option(
    "--no-tuning",
    is_flag=True,
    help="Ignore the tuning database: the config's options (the cost model's choice).",
)


def tuned_pipeline(
    session: driver.Session,
    program: Any,
    cfg: Any,
    stage: str,
    db: str | None,
    no_tuning: bool,
    dump_dir: str | None = None,
) -> driver.TunedPipeline:
    """The stage's steps and config with the database's best record for this program applied
    (a one-line note says so), unless --no-tuning; --dump-dir gets `tuning.txt`, the options
    chosen."""
    from pathlib import Path

    if no_tuning:
        tuned = driver.TunedPipeline(cfg, driver.resolve_steps(cfg.stage(stage)))
    else:
        tuned = driver.apply_tuning(
            program, cfg, stage, Path(db) if db else None, lambda line: click.echo(line, err=True)
        )
    if dump_dir is not None:  # written with the dumps, by run_pipeline
        text = "# --no-tuning: the config's options\n" if no_tuning else None
        tuned = dataclasses.replace(tuned, notes=text or driver.describe_tuning(tuned))
    return tuned


trace_option = click.option(
    "--trace",
    "trace_file",
    default=None,
    metavar="FILE.json",
    callback=nonempty,
    help="Write the NPU simulator's timeline as Chrome trace-event JSON (Perfetto, "
    "chrome://tracing); at most $PLAIDC_NPU_TRACE_EVENTS (200,000) events.",
)


def request_trace(artifact: Any, target: str) -> None:
    """Asks `artifact` (the npu target's) to record its next run's timeline."""
    from plaidc.backends.npu_sim.trace import trace_cap

    if not hasattr(artifact, "trace_cap"):
        raise click.UsageError(f"--trace: target '{target}' has no simulator timeline (use -t npu)")
    try:
        artifact.trace_cap = trace_cap()
    except ValueError as err:
        raise click.UsageError(f"--trace: {err}") from None


def write_trace(artifact: Any, path: str) -> None:
    """Writes the recorded timeline to `path` (atomically) and stops recording, so that
    `--bench` times runs that record nothing; says on stderr when the cap cut it short."""
    from pathlib import Path

    artifact.trace_cap = None
    trace = artifact.last_trace
    with driver.writing(path):
        trace.write(Path(path))
    note = trace.note()
    if note:
        click.echo(f"plaidc: note: {note}", err=True)


profile_option = click.option(
    "--profile",
    is_flag=True,
    help="Time each kernel (c, llvm) over the --bench runs (else 10) and list them by time "
    "with their GFLOP/s (from their fastest run).",
)

#: Runs a `--profile` without `--bench` times; the kernels the table lists (the rest summed).
PROFILE_RUNS = 10
PROFILE_ROWS = 25


def profiled_artifact(cfg: Any, compiled: Any) -> Any:
    """The c or llvm artifact of `compiled` with its kernels timed (`loopnest.profile`)."""
    if cfg.backend not in ("c", "llvm"):
        raise click.UsageError(
            f"--profile: target '{cfg.name}' has no kernel timing (use -t c or -t llvm)"
        )
    from plaidc.backends import get_backend

    backend: Any = get_backend(cfg.backend)
    return backend.compile(compiled, cfg, profile=True)


def print_profile(artifact: Any, compiled: Any, execute: Any, bench: int | None) -> None:
    """Times the kernels of `artifact` (compiled with profile=True) over the runs `--bench`
    made (else `PROFILE_RUNS` more) and prints the table (`loopnest.profile.table`)."""
    from plaidc.backends.loopnest.profile import descriptions, kernel_flops, table

    recorder = artifact.profiler
    if not bench:
        recorder.reset()
        for _ in range(PROFILE_RUNS):
            execute()
    flops = kernel_flops(compiled)
    click.echo(table(recorder, flops, descriptions(compiled), PROFILE_ROWS))
