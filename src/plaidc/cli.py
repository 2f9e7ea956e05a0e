"""Command-line interface (`plaidc`, `plaidc-opt`): the only module that prints or exits.

Exit codes (ARCHITECTURE.md): 0 ok; 1 error in the user's input; 2 usage error; 3 `--check`
mismatch; 4 internal compiler error (traceback only with `--debug`).
"""

from __future__ import annotations

import functools
import json
import os
import statistics
import sys
import textwrap
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
import numpy as np

from plaidc import cli_onnx, driver
from plaidc.backends import BACKEND_NAMES, check_target, get_backend
from plaidc.cli_inputs import (
    ShapeOption,
    bindings,
    check_target_choice,
    config_option,
    db_option,
    debug_option,
    define_option,
    dump_dir_option,
    entry_option,
    language_option,
    load_inputs,
    no_tuning_option,
    nonempty,
    parse_defines,
    parse_input_options,
    parse_shapes,
    pipeline_stage,
    print_profile,
    profile_option,
    profiled_artifact,
    ranks_option,
    request_trace,
    shape_option,
    stage_option,
    target_config,
    target_option,
    trace_option,
    tuned_pipeline,
    verify_each_option,
    version_option,
    with_ranks,
    write_trace,
)
from plaidc.diagnostics import CompileError, InternalError
from plaidc.stripe.printer import print_stripe

EXIT_USER, EXIT_USAGE, EXIT_MISMATCH, EXIT_INTERNAL = 1, 2, 3, 4
EMITS = ["stripe", "stripe-opt", "c", "llvm", "opencl", "npu", "lib"]
CODE_SUFFIXES = {
    "c": ".c",
    "mpi": ".mpi.c",
    "llvm": ".ll",
    "opencl": ".cl",
    "npu": ".npu.c",
    "lib": ".so",
}

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
        except BrokenPipeError:
            _reader_went_away()
        except Exception as err:
            if debug:
                traceback.print_exc()
            _fail(EXIT_INTERNAL, _internal_message(err))

    return wrapper  # type: ignore[return-value]


def _reader_went_away() -> None:
    """The reader of standard output closed it (`plaidc targets | head`): stop quietly, as `cat`
    would, instead of reporting an internal error; Python's own flush at exit would fail too, so
    the rest of the output goes to /dev/null."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(EXIT_USER)


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


# ---- plaidc -------------------------------------------------------------------------------


@click.group("plaidc", context_settings={"help_option_names": ["-h", "--help"]})
@version_option("plaidc")
def plaidc_main() -> None:
    """plaidc: compile Tile tensor programs through Stripe to CPU, OpenCL and NPU code."""


@plaidc_main.command("compile")
@click.argument("program")
@language_option
@target_option
@config_option
@stage_option("default")
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
    metavar="OUT",
    callback=nonempty,
    help="Output file (default: PROGRAM.<ext> for code, standard output for Stripe and for "
    "code from standard input; - = stdout).",
)
@dump_dir_option
@verify_each_option
@entry_option
@db_option
@no_tuning_option
@ranks_option
@debug_option
@guarded
def compile_cmd(
    program: str,
    language: str | None,
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
    db: str | None,
    no_tuning: bool,
    ranks: int | None,
    session: driver.Session,
) -> None:
    """Compile a Tile (or Stripe) program (- reads standard input) and emit one of its
    stages."""
    check_target_choice(target, config)
    dims, shape_options = parse_defines(defines), parse_shapes(shapes)
    if emit == "stripe" and (dump_dir or verify_each):
        raise click.UsageError(
            "--emit stripe runs no passes, so --dump-dir and --verify-each have nothing to "
            "show (--emit stripe-opt runs the target's pipeline)"
        )
    # `--emit c` alone means the c target's pipeline and backend.
    cfg = target_config(session, target or (emit if emit in BACKEND_NAMES else None), config)
    cfg = with_ranks(cfg, ranks)
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
    if emit == "lib" and (output == "-" or (output is None and program == "-")):
        raise click.UsageError("--emit lib writes a shared library: it needs -o FILE")
    if output is None:
        to_stdout = emit.startswith("stripe") or program == "-"
        output = "-" if to_stdout else Path(program).stem + CODE_SUFFIXES[emit]
    steps = pipeline_stage(cfg, stage)  # an unknown stage fails before parsing
    if cli_onnx.is_onnx(program):  # imported on the fly: its shapes bind the import
        source, bound = cli_onnx.as_program(
            program, cli_onnx.import_onnx(program, dims, shape_options)
        )
    else:
        source = driver.read_program(session, program, language)
        _check_tile_options(source, dims, shape_options, entry)
        bound = bindings(dims, shape_options, {})
    block = driver.build_program(session, source, bound, entry)
    if emit != "stripe":
        tuned = tuned_pipeline(session, block, cfg, stage, db, no_tuning, dump_dir)
        cfg, steps = tuned.cfg, tuned.steps
        block = driver.run_pipeline(
            block,
            steps,
            dump_dir=Path(dump_dir) if dump_dir else None,
            verify_each=verify_each,
            tuning_notes=tuned.notes,
        )
    if emit in ("stripe", "stripe-opt"):
        _write_text(output, print_stripe(block))
        return
    backend = cfg.backend if emit == "lib" else emit
    artifact = get_backend(backend).compile(block, cfg)
    if emit == "lib":
        with driver.writing(output):
            artifact.save_library(Path(output))
    elif emit == "llvm":  # the host's triple and data layout, for llc/clang of that LLVM
        from plaidc.backends.llvm.jit import host_ir

        _write_text(output, host_ir(artifact.source))
    else:
        _write_text(output, artifact.source)
    if output != "-":
        click.echo(f"plaidc: wrote {output}", err=True)


def _check_tile_options(
    source: driver.ProgramText,
    dims: dict[str, int],
    shapes: Sequence[ShapeOption],
    entry: str | None,
) -> None:
    """-D, --shape and --entry bind a Tile program: on Stripe they would be ignored."""
    given = [
        flag for flag, value in (("-D", dims), ("--shape", shapes), ("--entry", entry)) if value
    ]
    if source.language == "stripe" and given:
        raise click.UsageError(
            f"{given[0]} binds a Tile program, and {source.name} is read as Stripe, whose "
            "sizes and entry are its own (-x tile reads it as Tile)"
        )


def _write_text(output: str, text: str) -> None:
    if output == "-":
        click.echo(text, nl=False)
    else:
        driver.write_text(Path(output), text)


@plaidc_main.command("run")
@click.argument("program")
@language_option
@target_option
@config_option
@stage_option("default")
@define_option
@shape_option
@click.option(
    "--input",
    "inputs",
    multiple=True,
    metavar="NAME=FILE.npy",
    help="The value of the input NAME; repeatable.",
)
@click.option(
    "--random-inputs",
    type=click.IntRange(min=0),
    default=None,
    metavar="SEED",
    help="Deterministic random values (seed >= 0) for the inputs no --input gives.",
)
@click.option(
    "--output-dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Write every output as DIR/NAME.npy.",
)
@click.option("--check", is_flag=True, help="Compare with the interpreter (exit 3 on mismatch).")
@click.option(
    "--bench",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Time N runs; print min and median.",
)
@click.option(
    "--report",
    "report_file",
    default=None,
    metavar="FILE.json",
    help="Write the target's run report (the NPU's cycles) as JSON.",
)
@trace_option
@profile_option
@entry_option
@db_option
@no_tuning_option
@ranks_option
@debug_option
@guarded
def run_cmd(
    program: str,
    language: str | None,
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
    trace_file: str | None,
    profile: bool,
    entry: str | None,
    db: str | None,
    no_tuning: bool,
    ranks: int | None,
    session: driver.Session,
) -> None:
    """Run a program (- reads standard input) on a target; print a summary of its outputs, and
    with --output-dir DIR write each as DIR/NAME.npy."""
    from plaidc.interp import program_io, run_program

    check_target_choice(target, config)
    dims, shape_options = parse_defines(defines), parse_shapes(shapes)
    input_files = parse_input_options(inputs)
    cfg = with_ranks(target_config(session, target, config), ranks)
    pipeline_stage(cfg, stage)  # an unknown stage fails before parsing
    arrays = load_inputs(input_files)
    model = None
    if cli_onnx.is_onnx(program):  # inputs by ONNX name; the weights come from the model
        model = cli_onnx.import_onnx(program, dims, shape_options, arrays)
        text, bound = cli_onnx.as_program(program, model)
        arrays = cli_onnx.feed_arrays(model, arrays)
    else:
        text = driver.read_program(session, program, language)
        _check_tile_options(text, dims, shape_options, entry)
        bound = bindings(dims, shape_options, arrays)
    source = driver.build_program(session, text, bound, entry)
    tuned = tuned_pipeline(session, source, cfg, stage, db, no_tuning)
    cfg = tuned.cfg
    compiled = driver.run_pipeline(source, tuned.steps)
    io = program_io(source)
    driver.check_memory(io.inputs | io.outputs)
    # `--input` names the Tile input (bound by that name above), which Stripe may spell otherwise
    arrays = {session.renamed.get(name, name): array for name, array in arrays.items()}
    feed = _complete_inputs(io.inputs, arrays, random_inputs)
    profiled = profiled_artifact(cfg, compiled) if profile else None
    artifact = profiled
    if artifact is None and cfg.backend != "interp":
        artifact = get_backend(cfg.backend).compile(compiled, cfg)

    def execute() -> dict[str, np.ndarray]:
        return run_program(compiled, feed) if artifact is None else artifact.run(feed)

    if trace_file is not None:
        request_trace(artifact, cfg.name)
    outputs = execute()
    if trace_file is not None:
        write_trace(artifact, trace_file)
    if profiled is not None:  # the first run (cold caches, fresh pages) is not profiled
        profiled.profiler.reset()
    if bench:
        _bench(execute, bench)
    if profiled is not None:
        print_profile(profiled, compiled, execute, bench)
    report = artifact.report() if artifact is not None else None
    if report and report_file is None:  # the report goes to the file instead (NPU.md)
        click.echo(report)
    if report_file is not None:
        data = artifact.report_json() if artifact is not None else None
        if data is None:
            raise click.UsageError(f"--report: target '{cfg.name}' produces no run report")
        driver.write_text(Path(report_file), json.dumps(data, indent=2, sort_keys=True) + "\n")
    shown = outputs if model is None else cli_onnx.onnx_outputs(model, outputs)
    if output_dir is not None and model is not None:
        cli_onnx.write_outputs(output_dir, shown)
    elif output_dir is not None:
        with driver.writing(output_dir):
            Path(output_dir).mkdir(parents=True, exist_ok=True)
        for name, value in outputs.items():
            with driver.writing(Path(output_dir) / f"{name}.npy"):
                np.save(Path(output_dir) / f"{name}.npy", value)
    _summarise(shown)
    if check:
        # Outputs a target computed from fp16 operands (the NPU's Cube; other artifacts have
        # no such attribute), or whose values pass through a 16-bit float buffer anywhere,
        # are checked at fp16 tolerance.
        loose: frozenset[str] = getattr(artifact, "reduced_precision", frozenset())
        loose |= driver.through_half_precision(source)
        mismatches = driver.compare_outputs(
            run_program(source, feed), outputs, loose, driver.longest_reduction(source)
        )
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


@plaidc_main.command("tune")
@click.argument("program", required=False)
@language_option
@target_option
@config_option
@stage_option("default")
@define_option
@shape_option
@entry_option
@click.option(
    "--trials", type=click.IntRange(min=1), default=64, metavar="N", help="Candidates to measure."
)
@click.option(
    "--time-budget",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="S",
    help="Stop starting trials after S seconds.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=120.0,
    show_default=True,
    metavar="S",
    help="Kill a candidate's measurement after S seconds (recorded as timed out).",
)
@db_option
@click.option("--resume", is_flag=True, help="Continue the program's last unfinished session.")
@click.option("--nearest", is_flag=True, help="Start also from the tuned record nearest in shape.")
@click.option("--list", "list_db", is_flag=True, help="List the database's tuned programs.")
@click.option("--show", "show_key", default=None, metavar="KEY", help="Show the trials of KEY.")
@click.option(
    "--seed", type=click.IntRange(min=0), default=0, metavar="SEED", help="The search's seed."
)
@debug_option
@guarded
def tune_cmd(
    program: str | None,
    language: str | None,
    target: str | None,
    config: str | None,
    stage: str,
    defines: tuple[str, ...],
    shapes: tuple[str, ...],
    entry: str | None,
    trials: int,
    time_budget: float | None,
    timeout: float,
    db: str | None,
    resume: bool,
    nearest: bool,
    list_db: bool,
    show_key: str | None,
    seed: int,
    session: driver.Session,
) -> None:
    """Search the target pipeline's tunable options for PROGRAM by measuring candidates (in
    child processes, checked against the interpreter) and record every trial in the tuning
    database, which compile, run and plaidc-opt -t then apply."""
    from plaidc.tune.command import list_records, run_tune, show_records
    from plaidc.tune.db import TuneDb, default_db_path
    from plaidc.tune.tuner import TuneRequest

    echo = functools.partial(click.echo, err=True)
    database = TuneDb(Path(db) if db else default_db_path(), warn=echo)
    if list_db or show_key is not None:
        if program is not None or (list_db and show_key is not None):
            raise click.UsageError("--list and --show KEY take no PROGRAM, nor each other")
        if list_db:
            list_records(database, click.echo)
        else:
            show_records(database, show_key or "", click.echo)
        return
    if program is None:
        raise click.UsageError("give a PROGRAM to tune (or --list, --show KEY)")
    if target is None and config is None:
        raise click.UsageError("give the target to tune for: -t TARGET or --config FILE.toml")
    check_target_choice(target, config)
    dims, shape_options = parse_defines(defines), parse_shapes(shapes)
    cfg = target_config(session, target, config)
    pipeline_stage(cfg, stage)
    source = driver.read_program(session, program, language)
    _check_tile_options(source, dims, shape_options, entry)
    block = driver.build_program(session, source, bindings(dims, shape_options, {}), entry)
    request = TuneRequest(block, program, cfg, stage, trials, time_budget, resume, nearest, seed)
    summary = run_tune(request, database, timeout, echo)
    if summary.reason == "interrupted":
        echo("plaidc tune: interrupted; the finished trials are kept (--resume continues)")
        sys.exit(130)


@plaidc_main.command("import")
@click.argument("model")
@define_option
@shape_option
@click.option(
    "-o",
    "output",
    default=None,
    metavar="OUT.tile",
    callback=nonempty,
    help="The Tile file (default: MODEL.tile); the weights go beside it as OUT.weights.npz.",
)
@debug_option
@guarded
def import_cmd(
    model: str,
    defines: tuple[str, ...],
    shapes: tuple[str, ...],
    output: str | None,
    session: driver.Session,
) -> None:
    """Import an ONNX model as one Tile function (weights in OUT.weights.npz)."""
    imported = cli_onnx.import_onnx(model, parse_defines(defines), parse_shapes(shapes))
    cli_onnx.write_import(model, imported, output)


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
    names = builtin_target_names()
    width = max(len(target) for target in names)
    for target in names:
        cfg = load_target(target)
        alias = f" (alias {aliases[target]})" if target in aliases else ""
        stages = ", ".join(f"{s}: {len(p)} passes" for s, p in cfg.stages.items())
        click.echo(f"{target:{width}} {cfg.description}{alias}  [backend {cfg.backend}; {stages}]")
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
            off = "" if step.enabled else " [disabled: enabled = false]"
            click.echo(
                f"  {number:2}. {step.pass_name}{named}" + (f" {{{shown}}}" if shown else "") + off
            )


@plaidc_main.command("passes")
def passes_cmd() -> None:
    """List the registered passes and their options: type, default, help, allowed values."""
    from plaidc.passes import all_passes

    for number, info in enumerate(all_passes()):
        click.echo(("\n" if number else "") + f"{info.name:20} {info.summary}")
        for doc in info.option_docs():
            allowed = f"  (allowed: {', '.join(doc.allowed)})" if doc.allowed else ""
            click.echo(f"    {doc.name}: {doc.type} = {doc.default}{allowed}")
            for line in textwrap.wrap(doc.help, width=92):
                click.echo(f"        {line}")


# ---- plaidc-opt ---------------------------------------------------------------------------


@click.command("plaidc-opt", context_settings={"help_option_names": ["-h", "--help"]})
@version_option("plaidc-opt")
@click.argument("source", default="-")
@language_option
@click.option(
    "--pass",
    "passes",
    multiple=True,
    metavar="NAME[{key=value,..}]",
    help="Run a pass (see `plaidc passes`); repeatable.",
)
@target_option
@config_option
@stage_option(None)
@define_option
@shape_option
@entry_option
@click.option(
    "-o",
    "output",
    default="-",
    metavar="OUT.stripe",
    callback=nonempty,
    help="Output .stripe file (default, or -: standard output).",
)
@dump_dir_option
@verify_each_option
@click.option("--check", is_flag=True, help="Interpret input and output; exit 3 if they differ.")
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Seed of --check's random inputs (default 0).",
)
@db_option
@no_tuning_option
@debug_option
@guarded
def plaidc_opt_main(
    source: str,
    language: str | None,
    passes: tuple[str, ...],
    target: str | None,
    config: str | None,
    stage: str | None,
    defines: tuple[str, ...],
    shapes: tuple[str, ...],
    entry: str | None,
    output: str,
    dump_dir: str | None,
    verify_each: bool,
    check: bool,
    seed: int | None,
    db: str | None,
    no_tuning: bool,
    session: driver.Session,
) -> None:
    """Read Stripe (- or no SOURCE: standard input; a Tile program is lowered first), run
    passes, write Stripe (like LLVM's opt)."""
    from plaidc.passes import PassOptionError, get_pass, make_options, parse_pass_spec

    check_target_choice(target, config)
    dims, shape_options = parse_defines(defines), parse_shapes(shapes)
    if seed is not None and not check:
        raise click.UsageError("--seed sets the random inputs of --check: give --check too")
    steps: list[driver.PipelineStep] = []
    cfg = None
    if target is not None or config is not None or stage is not None:
        if passes:
            raise click.UsageError("give either --pass or -t/--config/--stage, not both")
        cfg = target_config(session, target, config)
        steps = pipeline_stage(cfg, stage or "default")
    elif db is not None or no_tuning:
        raise click.UsageError("--db and --no-tuning apply to a target's pipeline (-t/--config)")
    for spec in passes:
        try:
            name, raw = parse_pass_spec(spec)
            info = get_pass(name)
            steps.append(driver.PipelineStep(info.name, info, make_options(info, raw)))
        except PassOptionError as err:
            raise click.BadParameter(str(err), param_hint="'--pass'") from None
    text = driver.read_program(session, source, language)
    _check_tile_options(text, dims, shape_options, entry)
    program = driver.build_program(session, text, bindings(dims, shape_options, {}), entry)
    notes = None
    if cfg is not None:
        tuned = tuned_pipeline(session, program, cfg, stage or "default", db, no_tuning, dump_dir)
        steps, notes = tuned.steps, tuned.notes
    result = driver.run_pipeline(
        program,
        steps,
        dump_dir=Path(dump_dir) if dump_dir else None,
        verify_each=verify_each,
        tuning_notes=notes,
    )
    _write_text(output, print_stripe(result))
    if check:
        _report_check(driver.check_equivalent(program, result, seed or 0))
