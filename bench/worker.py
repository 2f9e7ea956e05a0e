"""One runner of `make bench` in its own process: `python bench/worker.py RUNNER WORKLOAD`.

It prepares the runner once (compile, build the graph), checks its output against the numpy
reference and calibrates how many calls make a block, then reports
`{"ready": ..., "correct": ..., "compile_s": ..., "info": ...}` and serves the parent: each
line `block` on stdin runs one timed block and answers `{"times": [seconds per call, ...]}`;
end of input ends it. Answers go to the original stdout, one JSON object a line; anything
the libraries print goes to stderr, so it cannot corrupt them.

A runner whose library is missing answers `{"not_installed": ...}`, a failure `{"error": ...}`.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback

import numpy as np

BLOCK_SECONDS = 0.1  # the calls of one block take about this long (at least one call)
MAX_CALLS = 50


def main(argv: list[str]) -> int:
    runner, label = argv
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # print() and C libraries writing to fd 1 land on stderr

    def answer(message: dict[str, object]) -> None:
        answers.write(json.dumps(message) + "\n")

    from runners import NotInstalled, prepare
    from workloads import find, make_inputs, matches

    threads = int(os.environ.get("BENCH_THREADS") or len(os.sched_getaffinity(0)))
    workload = find(label)
    try:
        inputs = make_inputs(workload)
        expected = np.asarray(workload.reference(inputs))
        prepared = prepare(runner, workload, inputs, threads)
        correct = matches(prepared.output(), expected)
        start = time.perf_counter()
        prepared.call()  # warm: first touch of buffers, thread pools started
        once = max(time.perf_counter() - start, 1e-6)
    except NotInstalled as missing:
        answer({"not_installed": str(missing)})
        return 0
    except Exception as err:  # the report lists it; the other runners still run
        traceback.print_exc()
        answer({"error": f"{type(err).__name__}: {err}"})
        return 0
    calls = max(1, min(MAX_CALLS, round(BLOCK_SECONDS / once)))
    answer(
        {
            "ready": True,
            "correct": correct,
            "compile_s": prepared.compile_s,
            "calls_per_block": calls,
            "info": prepared.info,
        }
    )
    for line in sys.stdin:
        if line.strip() != "block":
            continue
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            prepared.call()
            times.append(time.perf_counter() - start)
        answer({"times": times})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
