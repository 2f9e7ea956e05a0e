"""`make demo`: compile a few examples, run them on every target, compare with the interpreter.

Targets whose backend or runtime is missing or broken (e.g. an OpenCL runtime whose compiler
cannot build a kernel on this CPU) are listed as unavailable with the reason in one line, and the
other targets go on; nothing is faked. The exit status is 0 only when every available target
matched the interpreter.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import numpy as np

from plaidc import driver
from plaidc.backends import BackendUnavailable, get_backend
from plaidc.diagnostics import CompileError
from plaidc.interp import program_io, run_program
from plaidc.stripe.ir import Block
from plaidc.stripe.printer import print_stripe
from plaidc.targets import TargetConfig, builtin_target_names, load_target

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO_PROGRAMS = ["matmul", "conv2d_bias_relu", "softmax", "cumsum"]


def main() -> int:
    manifest = tomllib.loads((EXAMPLES / "examples.toml").read_text())
    session = driver.Session()
    failures = 0
    programs: list[tuple[str, Block]] = []
    for name in DEMO_PROGRAMS:
        dims = {k: int(v) for k, v in manifest[name].get("defines", {}).items()}
        path = str(EXAMPLES / f"{name}.tile")
        programs.append((name, driver.load_program(session, path, driver.Bindings(dims=dims))))
    for fig in ("fig5a", "fig5b"):
        programs.append((fig, driver.load_stripe(session, str(EXAMPLES / f"{fig}.stripe"))))

    targets = builtin_target_names()
    width = max(len(target) for target in targets)
    first_name, first = programs[0]
    print(f"== {first_name}: Tile lowered to Stripe ==")
    print(print_stripe(first))
    for name, program in programs:
        inputs = driver.random_inputs(program_io(program).inputs, seed=0)
        reference = run_program(program, inputs)
        for target in targets:
            cfg = load_target(target)
            steps = driver.resolve_steps(cfg.stage("default"))
            compiled = driver.run_pipeline(program, steps, verify_each=True)
            try:
                outputs = _run_on(cfg, compiled, inputs)
            except BackendUnavailable as err:
                print(f"{name:18} {target:{width}} unavailable: {_one_line(str(err))}")
                continue
            except CompileError as err:
                # A target may be unable to express a construct (e.g. tanh on the NPU): it says so.
                print(f"{name:18} {target:{width}} not mappable: {err.diagnostics[0].message}")
                continue
            problems = driver.compare_outputs(reference, outputs)
            status = "ok" if not problems else "MISMATCH: " + problems[0].message
            failures += bool(problems)
            print(
                f"{name:18} {target:{width}} {status} ({len(steps)} passes, outputs "
                f"{', '.join(sorted(reference))})"
            )
    # The Stripe paper's Figure 5b is Figure 5a tiled by hand: both must compute the same thing.
    fig5 = dict(programs[-2:])
    inputs = driver.random_inputs(program_io(fig5["fig5a"]).inputs, seed=5)
    problems = driver.compare_outputs(
        run_program(fig5["fig5a"], inputs), run_program(fig5["fig5b"], inputs)
    )
    failures += bool(problems)
    print("fig5a vs fig5b (paper's tiling): " + ("same outputs" if not problems else "DIFFER"))
    return 1 if failures else 0


def _one_line(message: str) -> str:
    """A diagnostic's text as one line (its first line, without the `error: ` prefix)."""
    first = message.strip().splitlines()[0] if message.strip() else "(no reason given)"
    return first.removeprefix("error: ")


def _run_on(
    cfg: TargetConfig, program: Block, inputs: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    if cfg.backend == "interp":
        return run_program(program, inputs)
    return get_backend(cfg.backend).compile(program, cfg).run(inputs)


if __name__ == "__main__":
    sys.exit(main())
