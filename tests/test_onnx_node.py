"""The ONNX backend node tests (`onnx.backend.test.case.node`, generated offline by the onnx
package) of every supported op, through a small adapter: import with the test's input
shapes, run, compare with the test's outputs (its rtol/atol, at least 1e-3/1e-5).

A test that feeds a shape operand (`shape`, `axes`, `starts`, `scales`, ...) as a graph input
is imported again with those inputs fixed, as their values are known to the test: plaidc
needs shape operands constant once the input shapes are bound.

interp and c run every case (c in shards: each case is one C compile, cached by content).
Every case that does not pass must fail with an exclusion of EXCLUDED below, so a regression
fails the test; on interp at least 95% of the loaded cases must pass.
"""

from __future__ import annotations

import functools
import os
import pickle
import re
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import numpy_helper  # noqa: E402

from plaidc.diagnostics import CompileError  # noqa: E402
from plaidc.onnx import supported_ops  # noqa: E402
from plaidc.onnx.runner import run_onnx  # noqa: E402

#: Why a loaded case of a supported op may fail: the error's text -> the reason.
EXCLUDED = {
    r"has no Tile type": "string tensors",
    r"Cast to bfloat16": "Cast to bfloat16 (Tile has no conversion to bf16)",
    r"drops elements at random": "training-mode Dropout with ratio > 0 (random)",
    r"is not a tensor": "sequence and optional inputs",
    r"round_mode": "Cast's round_mode (float8 e8m0)",
    r"computed at run time": "a shape operand that is the test's first input (a dynamic shape)",
}


def _cases() -> list[tuple[str, bytes, list[Any], list[Any], float, float]]:
    """Every node test case, generated once per onnx version into a cache file."""
    cache = Path(os.environ.get("PLAIDC_ONNX_NODE_CACHE", Path.home() / ".cache" / "plaidc"))
    path = cache / f"onnx-node-{onnx.__version__}.pkl"
    if path.exists():
        with path.open("rb") as f:
            return pickle.load(f)
    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raw = node_cases.collect_testcases(None)
    cases = []
    for case in raw:
        inputs, outputs = case.data_sets[0]
        cases.append(
            (case.name, case.model.SerializeToString(), inputs, outputs, case.rtol, case.atol)
        )
    cache.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    with partial.open("wb") as f:
        pickle.dump(cases, f)
    partial.replace(path)  # atomic: parallel workers never read a half-written file
    return cases


def _array(value: Any) -> np.ndarray:
    return (
        numpy_helper.to_array(value) if isinstance(value, onnx.TensorProto) else np.asarray(value)
    )


@functools.cache
def loaded_cases() -> list[tuple[str, Any, list[Any], list[Any], float, float]]:
    """The cases whose ops are all supported (parsed once per test process)."""
    ops = set(supported_ops())
    chosen = []
    for name, blob, inputs, outputs, rtol, atol in _cases():
        model = onnx.load_from_string(blob)
        kinds = {node.op_type for node in model.graph.node}
        if kinds and kinds <= ops:
            chosen.append((name, model, inputs, outputs, rtol, atol))
    return chosen


def run_case(case: tuple[str, Any, list[Any], list[Any], float, float], target: str) -> str:
    """'pass', or why not: 'excluded: REASON' or 'FAILED: what'."""
    name, model, inputs, outputs, rtol, atol = case
    try:
        feeds = {model.graph.input[j].name: _array(a) for j, a in enumerate(inputs)}
        try:
            got = run_onnx(name, feeds, target, model=model)
        except CompileError as err:
            if "computed at run time" not in str(err):
                raise
            fixed = dict(list(feeds.items())[1:])
            got = run_onnx(name, feeds, target, model=model, constants=fixed)
    except CompileError as err:
        for pattern, reason in EXCLUDED.items():
            if re.search(pattern, str(err)):
                return f"excluded: {reason}"
        return f"FAILED: {err}"
    for proto, expected in zip(model.graph.output, outputs, strict=True):
        want, have = _array(expected), got[proto.name]
        close = want.shape == have.shape and np.allclose(
            have.astype(np.float64),
            want.astype(np.float64),
            rtol=max(rtol, 1e-3),
            atol=max(atol, 1e-5),
            equal_nan=True,
        )
        if not close:
            return f"FAILED: output {proto.name} differs"
    return "pass"


def _report(results: dict[str, str], target: str) -> None:
    counts = Counter(r.split(":")[0] for r in results.values())
    reasons = Counter(r for r in results.values() if r.startswith("excluded"))
    print(f"\nONNX node tests on {target}: {counts['pass']} passed of {len(results)} loaded")
    for reason, count in sorted(reasons.items()):
        print(f"  {count:4d} {reason}")


def _check(results: dict[str, str], target: str) -> None:
    _report(results, target)
    failed = {n: r for n, r in results.items() if r.startswith("FAILED")}
    assert not failed, failed


def test_node_tests_interp() -> None:
    results = {case[0]: run_case(case, "interp") for case in loaded_cases()}
    _check(results, "interp")
    passed = sum(r == "pass" for r in results.values())
    assert len(results) >= 900 and passed >= 0.95 * len(results)  # the sweep really ran


#: The c run compiles one library per case (cached by content): in shards, so that parallel
#: test workers share it.
C_SHARDS = 12


@pytest.mark.parametrize("shard", range(C_SHARDS))
def test_node_tests_c(shard: int) -> None:
    cases = loaded_cases()[shard::C_SHARDS]
    _check({case[0]: run_case(case, "c") for case in cases}, f"c (shard {shard})")
