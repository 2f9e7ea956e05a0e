"""Command-line interface (`plaidc`, `plaidc-opt`): the only module that prints or exits.

Exit codes (ARCHITECTURE.md): 0 ok; 1 error in the user's input; 2 usage error; 3 `--check`
mismatch; 4 internal compiler error (traceback only with `--debug`).
"""

from __future__ import annotations

import functools
import json
import math
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from tokenize import TokenError
from typing import Any, NoReturn, TypeVar

import click
import numpy as np

from plaidc import driver
from plaidc.backends import BACKEND_NAMES, check_target, get_backend
from plaidc.diagnostics import CompileError, InternalError
from plaidc.stripe.ir import DType, extent_error
from plaidc.stripe.printer import print_stripe

EXIT_USER, EXIT_USAGE, EXIT_MISMATCH, EXIT_INTERNAL = 1, 2, 3, 4
EMITS = ["stripe", "stripe-opt", "c", "llvm", "opencl", "npu", "lib"]
CODE_SUFFIXES = {"c": ".c", "llvm": ".ll", "opencl": ".cl", "npu": ".npu.c", "lib": ".so"}

F = TypeVar("F", bound=Callable[..., Any])


def _fail(code: int, message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(code)


def guarded(fn: F) -> F:
    """Turn the driver's exceptions into diagnostics and exit codes."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        session = driver.Session()
        kwargs["session"] = session
        debug = kwargs.pop("debug", False)
        try:
            return fn(*args, **kwargs)
        except CompileError as err:
            for diag in map(session.locate, err.diagnostics):
                source = session.sources.get(diag.span.file) if diag.span else None
                click.echo(diag.render(source), err=True)
            sys.exit(EXIT_USER)
        except _user_runtime_errors() as err:
            _fail(EXIT_USER, f"error: {err}")
        except MemoryError as err:
            shape, dtype = getattr(err, "shape", None), getattr(err, "dtype", None)
            if shape is None or dtype is None:  # not numpy failing to allocate an array
                if debug:
                    traceback.print_exc()
                _fail(EXIT_INTERNAL, _internal_message(err))
            _fail(EXIT_USER, f"error: not enough memory: {_allocation(shape, dtype)}")
        except InternalError as err:
            if debug:
                traceback.print_exc()
            _fail(EXIT_INTERNAL, _internal_message(err))
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as err:
            if debug:
                traceback.print_exc()
            _fail(EXIT_INTERNAL, _internal_message(err))

    return wrapper  # type: ignore[return-value]


def _user_runtime_errors() -> tuple[type[BaseException], ...]:
    from plaidc.interp import InterpError
    from plaidc.passes import PassOptionError

    return (InterpError, PassOptionError)


def _allocation(shape: tuple[int, ...], dtype: np.dtype[Any]) -> str:
    """`an array of shape (..) (float32) needs 74.5 GiB` for an allocation numpy refused."""
    nbytes = float(np.prod(shape, dtype=np.float64)) * dtype.itemsize
    return f"an array of shape {tuple(shape)} ({dtype}) needs {nbytes / 2**30:.1f} GiB"


def _internal_message(err: BaseException) -> str:
    """One line (ARCHITECTURE.md): what failed, that it is a bug, and how to report it."""
    what = " ".join(str(err).split()) or "(no message)"
    return (
        f"plaidc: internal compiler error: {type(err).__name__}: {what} -- a bug in plaidc; "
        "please report it with the input file and the command line (--debug shows the "
        "traceback)"
    )


debug_option = click.option(
    "--debug", is_flag=True, help="Show Python tracebacks of internal errors."
)


# ---- shared option handling ---------------------------------------------------------------


def _parse_defines(defines: Sequence[str]) -> dict[str, int]:
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


def _parse_inputs(items: Sequence[str]) -> dict[str, np.ndarray]:
    arrays = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep:
            raise click.BadParameter(f"'{item}' should be NAME=FILE.npy", param_hint="'--input'")
        arrays[name.strip()] = _load_npy(name, path)
    return arrays


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


def _bindings(
    defines: Sequence[str], shapes: Sequence[str], arrays: dict[str, np.ndarray]
) -> driver.Bindings:
    bound: dict[str, tuple[DType, tuple[int, ...]]] = {}
    for name, array in arrays.items():
        bound[name] = (driver.dtype_of_array(name, array), tuple(array.shape))
    for text in shapes:  # --shape wins over .npy files
        name, dtype, sizes = driver.parse_shape_binding(text)
        given = bound.get(name)
        if given is not None and given[0] != dtype:
            click.echo(
                f"warning: --shape {text}: the values of --input {name} are {given[0]}; they are "
                f"converted to {dtype}",
                err=True,
            )
        bound[name] = (dtype, sizes)
    return driver.Bindings(dims=_parse_defines(defines), shapes=bound)


def _target_config(session: driver.Session, target: str | None, config: str | None) -> Any:
    """The user's config file (read through the session, so its errors show their line) or
    a built-in target."""
    from plaidc.targets import load_target, parse_config

    if config is not None:
        session.config = check_target(parse_config(session.read(config), config))
        cfg = session.config
    else:
        cfg = check_target(load_target(target or "interp"))
    for warning in cfg.warnings:
        click.echo(warning.render(), err=True)
    return cfg


# ---- plaidc -------------------------------------------------------------------------------


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="plaidc")
def plaidc_main() -> None:
    """plaidc: compile Tile tensor programs through Stripe to CPU, OpenCL and NPU code."""


def _nonempty(_ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise click.BadParameter("must not be empty", param=param)
    return value


target_option = click.option(
    "-t", "--target", default=None, callback=_nonempty, help="Target name (see `plaidc targets`)."
)
config_option = click.option("--config", default=None, help="A target config TOML file.")
define_option = click.option("-D", "defines", multiple=True, help="Bind a dimension: NAME=INT.")
shape_option = click.option("--shape", "shapes", multiple=True, help="NAME=DTYPE[d0,d1,..].")
stage_option = click.option(
    "--stage",
    default="default",
    show_default=True,
    callback=_nonempty,
    help="Pipeline stage of the target config (e.g. opencl's `gpu`).",
)


@plaidc_main.command("compile")
@click.argument("program")
@target_option
@config_option
@stage_option
@define_option
@shape_option
@click.option(
    "--emit",
    type=click.Choice(EMITS),
    default=None,
    help="What to write (default: the target's code, or stripe-opt for interp).",
)
@click.option(
    "-o",
    "output",
    default=None,
    help="Output file (default: PROGRAM.<ext> for code, standard output for Stripe; - = stdout).",
)
@click.option("--dump-dir", type=click.Path(file_okay=False), default=None)
@click.option("--verify-each", is_flag=True)
@click.option("--entry", default=None, help="Entry function of a multi-function Tile file.")
@debug_option
@guarded
def compile_cmd(
    program: str,
    target: str | None,
    config: str | None,
    stage: str,
    defines: tuple[str, ...],
    shapes: tuple[str, ...],
    emit: str | None,
    output: str | None,
    dump_dir: str | None,
    verify_each: bool,
    entry: str | None,
    session: driver.Session,
) -> None:
    """Compile a Tile (or Stripe) program and emit one of its stages."""
    # `--emit c` alone means the c target's pipeline and backend.
    cfg = _target_config(session, target or (emit if emit in BACKEND_NAMES else None), config)
    if emit is None:
        emit = cfg.backend if cfg.backend in BACKEND_NAMES else "stripe-opt"
    if emit in BACKEND_NAMES and emit != cfg.backend:
        # a backend reads its own config's [hardware] and [codegen]: another target's won't do
        raise click.UsageError(
            f"--emit {emit} needs a target with the {emit} backend (-t {emit} or a config "
            f"naming it); target '{cfg.name}' uses backend '{cfg.backend}'"
        )
    if emit == "lib" and cfg.backend not in BACKEND_NAMES:
        raise click.UsageError(
            f"--emit lib needs a compiled target (-t {', '.join(BACKEND_NAMES)}); "
            f"target '{cfg.name}' is {cfg.backend}"
        )
    if output is None:
        output = "-" if emit.startswith("stripe") else Path(program).stem + CODE_SUFFIXES[emit]
    steps = driver.resolve_steps(cfg.stage(stage))  # an unknown stage fails before parsing
    block = driver.load_program(session, program, _bindings(defines, shapes, {}), entry)
    if emit != "stripe":
        block = driver.run_pipeline(
            block,
            steps,
            dump_dir=Path(dump_dir) if dump_dir else None,
            verify_each=verify_each,
        )
    if emit in ("stripe", "stripe-opt"):
        _write_text(output, print_stripe(block))
        return
    backend = cfg.backend if emit == "lib" else emit
    artifact = get_backend(backend).compile(block, cfg)
    if emit == "lib":
        if output == "-":
            raise click.UsageError("--emit lib needs -o FILE")
        with driver.writing(output):
            artifact.save_library(Path(output))
    else:
        _write_text(output, artifact.source)
    if output != "-":
        click.echo(f"plaidc: wrote {output}", err=True)


def _write_text(output: str, text: str) -> None:
    if output == "-":
        click.echo(text, nl=False)
    else:
        driver.write_text(Path(output), text)


@plaidc_main.command("run")
@click.argument("program")
@target_option
@config_option
@stage_option
@define_option
@shape_option
@click.option("--input", "inputs", multiple=True, help="NAME=FILE.npy")
@click.option(
    "--random-inputs",
    type=click.IntRange(min=0),
    default=None,
    help="Seed (>= 0) for deterministic inputs.",
)
@click.option("--output-dir", type=click.Path(file_okay=False), default=None)
@click.option("--check", is_flag=True, help="Compare with the interpreter (exit 3 on mismatch).")
@click.option("--bench", type=click.IntRange(min=1), default=None, help="Time N runs.")
@click.option("--report", "report_file", default=None, help="Write the run report as JSON.")
@click.option("--entry", default=None)
@debug_option
@guarded
def run_cmd(
    program: str,
    target: str | None,
    config: str | None,
    stage: str,
    defines: tuple[str, ...],
    shapes: tuple[str, ...],
    inputs: tuple[str, ...],
    random_inputs: int | None,
    output_dir: str | None,
    check: bool,
    bench: int | None,
    report_file: str | None,
    entry: str | None,
    session: driver.Session,
) -> None:
    """Run a program on a target; print a summary of its outputs, and with --output-dir DIR write
    each as DIR/NAME.npy."""
    from plaidc.interp import program_io, run_program

    cfg = _target_config(session, target, config)
    steps = driver.resolve_steps(cfg.stage(stage))
    arrays = _parse_inputs(inputs)
    source = driver.load_program(session, program, _bindings(defines, shapes, arrays), entry)
    compiled = driver.run_pipeline(source, steps)
    io = program_io(source)
    driver.check_memory(io.inputs | io.outputs)
    # `--input` names the Tile input (bound by that name above), which Stripe may spell otherwise
    arrays = {session.renamed.get(name, name): array for name, array in arrays.items()}
    feed = _complete_inputs(io.inputs, arrays, random_inputs)
    artifact = None if cfg.backend == "interp" else get_backend(cfg.backend).compile(compiled, cfg)

    def execute() -> dict[str, np.ndarray]:
        return run_program(compiled, feed) if artifact is None else artifact.run(feed)

    outputs = execute()
    if bench:
        _bench(execute, bench)
    report = artifact.report() if artifact is not None else None
    if report and report_file is None:  # the report goes to the file instead (NPU.md)
        click.echo(report)
    if report_file is not None:
        data = artifact.report_json() if artifact is not None else None
        if data is None:
            raise click.UsageError(f"--report: target '{cfg.name}' produces no run report")
        driver.write_text(Path(report_file), json.dumps(data, indent=2, sort_keys=True) + "\n")
    if output_dir is not None:
        with driver.writing(output_dir):
            Path(output_dir).mkdir(parents=True, exist_ok=True)
        for name, value in outputs.items():
            with driver.writing(Path(output_dir) / f"{name}.npy"):
                np.save(Path(output_dir) / f"{name}.npy", value)
    _summarise(outputs)
    if check:
        # Outputs a target computed from fp16 operands (the NPU's Cube; other artifacts have
        # no such attribute), or whose values pass through a 16-bit float buffer anywhere,
        # are checked at fp16 tolerance.
        loose: frozenset[str] = getattr(artifact, "reduced_precision", frozenset())
        loose |= driver.through_half_precision(source)
        mismatches = driver.compare_outputs(run_program(source, feed), outputs, loose)
        _report_check(mismatches)


def _complete_inputs(
    shapes: dict[str, Any], arrays: dict[str, np.ndarray], seed: int | None
) -> dict[str, np.ndarray]:
    unknown = sorted(set(arrays) - set(shapes))
    if unknown:
        raise CompileError.at(
            f"--input {unknown[0]}: the program has no input of that name "
            f"(inputs: {', '.join(sorted(shapes)) or 'none'})",
            None,
        )
    missing = sorted(set(shapes) - set(arrays))
    if missing and seed is None:
        raise CompileError.at(
            f"input '{missing[0]}' has no value: pass --input {missing[0]}=FILE.npy "
            "or --random-inputs SEED",
            None,
        )
    feed = driver.random_inputs({n: shapes[n] for n in missing}, seed or 0) if missing else {}
    feed.update(arrays)
    return feed


def _bench(fn: Callable[[], object], runs: int) -> None:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    click.echo(
        f"bench: {runs} runs, min {min(times) * 1e3:.3f} ms, "
        f"median {statistics.median(times) * 1e3:.3f} ms"
    )


def _summarise(outputs: dict[str, np.ndarray]) -> None:
    for name, value in sorted(outputs.items()):
        flat = value.reshape(-1)
        head = ", ".join(f"{v:.6g}" if value.dtype.kind == "f" else str(v) for v in flat[:4])
        more = ", ..." if flat.size > 4 else ""
        click.echo(f"{name}: {value.dtype}{list(value.shape)} [{head}{more}]")


def _report_check(mismatches: list[driver.Mismatch]) -> None:
    if mismatches:
        for m in mismatches:
            click.echo(f"check: MISMATCH: {m.message}", err=True)
        sys.exit(EXIT_MISMATCH)
    click.echo("check: outputs match the interpreter", err=True)


@plaidc_main.command("targets")
@click.argument("name", required=False)
@debug_option
@guarded
def targets_cmd(name: str | None, session: driver.Session) -> None:
    """List the built-in targets and this machine's detected facts, or show target NAME: its
    hardware (detected values marked), codegen options and pipelines."""
    from plaidc.targets import TARGET_ALIASES, builtin_target_names, load_target
    from plaidc.targets.host import host_facts

    if name is not None:
        _show_target(check_target(load_target(name)))
        return
    aliases = {v: k for k, v in TARGET_ALIASES.items()}
    for target in builtin_target_names():
        cfg = load_target(target)
        alias = f" (alias {aliases[target]})" if target in aliases else ""
        stages = ", ".join(f"{s}: {len(p)} passes" for s, p in cfg.stages.items())
        click.echo(f"{target:8} {cfg.description}{alias}  [backend {cfg.backend}; {stages}]")
    facts = host_facts()
    click.echo("\nthis machine (what CPU configs leave out of [hardware]):")
    for key, value in facts.values.items():
        click.echo(f"  {f'{key} = {value}':24} # {facts.sources[key]}")
    for warning in facts.warnings:
        click.echo(warning.render(), err=True)


def _show_target(cfg: Any) -> None:
    import importlib

    from plaidc.options import format_value, option_docs
    from plaidc.targets.host import host_facts

    click.echo(f"{cfg.name}: {cfg.description} [backend {cfg.backend}]")
    click.echo("\n[hardware]")
    facts = host_facts()
    for key, value in cfg.hardware.items():
        mark = f"  # detected: {facts.sources[key]}" if key in cfg.detected else ""
        click.echo(f"  {key} = {format_value(value)}{mark}")
    for warning in cfg.warnings:
        click.echo(warning.render(), err=True)
    if cfg.backend in BACKEND_NAMES:
        module = importlib.import_module(f"plaidc.backends.{cfg.backend}")
        click.echo("\n[codegen] (set here, else the default)")
        excluded = getattr(module, "CODEGEN_EXCLUDED", ())
        for options_type in module.CODEGEN_OPTIONS:
            for doc in (d for d in option_docs(options_type) if d.name not in excluded):
                given = doc.name in cfg.codegen
                value = format_value(cfg.codegen[doc.name]) if given else doc.default
                click.echo(f"  {doc.name} = {value}  ({doc.type}) {doc.help}")
    for stage, steps in cfg.stages.items():
        click.echo(f"\n[stage.{stage}]")
        for number, step in enumerate(steps, 1):
            shown = ", ".join(f"{k}={format_value(v)}" for k, v in step.options.items())
            named = f" ({step.name})" if step.name != step.pass_name else ""
            click.echo(
                f"  {number:2}. {step.pass_name}{named}" + (f" {{{shown}}}" if shown else "")
            )


@plaidc_main.command("passes")
def passes_cmd() -> None:
    """List the registered passes and their options: type, default, help, allowed values."""
    from plaidc.passes import all_passes

    for info in all_passes():
        click.echo(f"{info.name:20} {info.summary}")
        for doc in info.option_docs():
            allowed = f" [{', '.join(doc.allowed)}]" if doc.allowed else ""
            help_text = f"  {doc.help}" if doc.help else ""
            click.echo(f"    {doc.name}: {doc.type} = {doc.default}{allowed}{help_text}")


# ---- plaidc-opt ---------------------------------------------------------------------------


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("source", default="-")
@click.option("--pass", "passes", multiple=True, help="NAME or NAME{key=value,...}; repeatable.")
@target_option
@config_option
@click.option("--stage", default=None, help="Stage of the target config (default: default).")
@click.option("-o", "output", default="-", help="Output .stripe file (default: stdout).")
@click.option("--dump-dir", type=click.Path(file_okay=False), default=None)
@click.option("--verify-each", is_flag=True)
@click.option("--check", is_flag=True, help="Interpret input and output; exit 3 if they differ.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@debug_option
@guarded
def plaidc_opt_main(
    source: str,
    passes: tuple[str, ...],
    target: str | None,
    config: str | None,
    stage: str | None,
    output: str,
    dump_dir: str | None,
    verify_each: bool,
    check: bool,
    seed: int,
    session: driver.Session,
) -> None:
    """Read Stripe, run passes, write Stripe (like LLVM's opt)."""
    from plaidc.passes import get_pass, make_options, parse_pass_spec

    program = driver.load_stripe(session, source)
    steps: list[driver.PipelineStep] = []
    if target is not None or config is not None or stage is not None:
        if passes:
            raise click.UsageError("give either --pass or -t/--config/--stage, not both")
        cfg = _target_config(session, target, config)
        steps = driver.resolve_steps(cfg.stage(stage or "default"))
    for spec in passes:
        name, raw = parse_pass_spec(spec)
        info = get_pass(name)
        steps.append(driver.PipelineStep(info.name, info, make_options(info, raw)))
    result = driver.run_pipeline(
        program, steps, dump_dir=Path(dump_dir) if dump_dir else None, verify_each=verify_each
    )
    _write_text(output, print_stripe(result))
    if check:
        _report_check(driver.check_equivalent(program, result, seed))
