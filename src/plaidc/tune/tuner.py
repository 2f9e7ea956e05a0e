"""The tuning loop of `plaidc tune`: propose a point, run the pipeline, measure, record.

Each trial appends one record to the database before the next begins, so an interrupted
session (Ctrl-C, a killed process) keeps every finished trial; its end record, when it has one,
says why it ended (`complete`, `exhausted`, `time budget`, `interrupted`), and `--resume`
continues the latest session of the key that did not finish. Points that build the same
program as a measured one (the backend's fingerprint of its emitted code where it has one, else
the final Stripe and codegen options) reuse its result without measuring (recorded with
`same_as`), and do not count as trials.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from plaidc.backends import BackendUnavailable, build_fingerprint
from plaidc.diagnostics import CompileError, Diagnostic, InternalError
from plaidc.stripe.ir import Block
from plaidc.targets import TargetConfig
from plaidc.tune.db import Record, TuneDb, TuneKey, now, plaidc_version, trials_of, tuning_key
from plaidc.tune.measure import Outcome, metric_of
from plaidc.tune.search import Search
from plaidc.tune.space import Point, Space, apply_point, build_space, point_key

FINISHED = ("complete", "exhausted")


class Measurer(Protocol):
    def __call__(self, stripe_text: str, cfg: TargetConfig) -> Outcome: ...


class Comparer(Protocol):
    def compare(self, candidates: Sequence[tuple[str, TargetConfig]], rounds: int) -> Outcome: ...


# The confirmation of a CPU session (wall-clock times): the fastest few distinct programs and
# the config's own point, re-measured side by side in interleaved rounds; a point other than
# the config's is chosen only when its median is faster by the margin there and it beat the
# config's point in so many rounds that chance alone would do so at most CONFIRM_ALPHA of the
# time (a one-sided sign test: 12 of 15 rounds), so that the noise of a busy machine does not
# choose it.
CONFIRM_TOP = 3
CONFIRM_ROUNDS = 15
CONFIRM_MARGIN = 0.02
CONFIRM_ALPHA = 0.05


def wins_needed(rounds: int, alpha: float = CONFIRM_ALPHA) -> int:
    """The fewest wins in `rounds` fair coin tosses that chance reaches with probability at
    most `alpha` (one-sided sign test); rounds + 1 where no number does."""
    for wins in range(rounds + 1):
        tail = sum(math.comb(rounds, k) for k in range(wins, rounds + 1)) / 2**rounds
        if tail <= alpha:
            return wins
    return rounds + 1


class Progress(Protocol):
    def trial(self, number: int, total: int, outcome: Outcome, best: Record | None) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class TuneRequest:
    program: Block
    label: str  # the program's file, as given
    cfg: TargetConfig
    stage: str
    trials: int = 64
    time_budget: float | None = None
    resume: bool = False
    nearest: bool = False
    seed: int = 0


@dataclass
class TuneSummary:
    key: str
    session: str
    space_size: int
    measured: int = 0
    reused: int = 0
    failed: dict[str, int] = field(default_factory=dict)
    reason: str = "complete"
    best: Record | None = None
    default: Record | None = None
    confirm: Record | None = None  # the side-by-side re-measure's record (CPU targets)
    notes: list[str] = field(default_factory=list)


def shapes_of(program: Block) -> dict[str, list[Any]]:
    """The program's inputs and outputs: name -> [dtype, sizes] (records keep them for
    `--nearest` and `--list`)."""
    from plaidc.interp import program_io

    io = program_io(program)
    return {
        name: [shape.dtype.value, list(shape.sizes)]
        for name, shape in sorted((io.inputs | io.outputs).items())
    }


def tune(
    request: TuneRequest,
    db: TuneDb,
    measure: Measurer,
    progress: Progress,
    note: Callable[[str], None],
    search: type[Search] = Search,
) -> TuneSummary:
    """Run a session; `search` proposes the points (bench/tune_sweep.py's random stand-in for
    a sweep replaces it)."""
    from plaidc.driver import resolve_steps, run_pipeline
    from plaidc.stripe.printer import print_stripe

    cfg, stage = request.cfg, request.stage
    space = build_space(cfg, stage)
    if not space.params:
        where = f"stage '{stage}' of target '{cfg.name}'"
        raise CompileError(
            [
                Diagnostic(
                    f"nothing to tune: the search space of {where} is empty (its config's "
                    "[tune] table names no tunable option of the stage's steps or [codegen])"
                )
            ]
        )
    key = tuning_key(request.program, cfg, stage)
    records = db.records()
    previous = trials_of(records, key.key)
    session, done, total = _session(request, records, key.key, note)
    summary = TuneSummary(key.key, session, space.size)
    seeds = [space.default_point()]
    if request.nearest:
        seeds += _nearest_seed(request, records, key, space, note)
    searcher = search(space, seeds, seed=request.seed + done)
    results: dict[str, Record] = {}  # fingerprint -> the record that measured it
    for record in previous:
        if space.contains(record["params"]):
            ok = record["result"]["status"] == "ok"
            searcher.record(record["params"], record["result"]["value"] if ok else None)
            if record.get("fingerprint") and "same_as" not in record:
                results.setdefault(record["fingerprint"], record)
            _track(summary, record, space)
    base = {
        "kind": "trial",
        "key": key.key,
        "parts": key.parts,
        "session": session,
        "of": total,
        "program": request.label,
        "shapes": shapes_of(request.program),
        "target": cfg.name,
        "stage": stage,
        "metric": metric_of(cfg),
        "plaidc": plaidc_version(),
    }
    start = time.monotonic()
    trial = done
    proposals = 0
    try:
        while trial < total:
            if request.time_budget is not None and time.monotonic() - start > request.time_budget:
                summary.reason = "time budget"
                break
            point = searcher.propose()
            proposals += 1
            if point is None or proposals > 50 * total + space.size:
                summary.reason = "exhausted"
                break
            point_cfg, steps = apply_point(cfg, stage, point)
            record = {**base, "params": point, "date": now()}
            try:
                final = run_pipeline(request.program, resolve_steps(steps))
                text = print_stripe(final)
                fingerprint = _fingerprint(final, text, point_cfg)
            except (CompileError, InternalError) as err:
                outcome = Outcome("crash", metric_of(cfg), message=f"pipeline: {_message(err)}")
                fingerprint = None
            else:
                if fingerprint in results:  # the same program: its result, unmeasured
                    same = results[fingerprint]
                    db.append({**record, "result": same["result"], "same_as": fingerprint,
                               "fingerprint": fingerprint, "trial": None})  # fmt: skip
                    searcher.record(point, _value(same))
                    summary.reused += 1
                    continue
                outcome = measure(text, point_cfg)
            trial += 1
            record.update(trial=trial, result=outcome.to_json(), fingerprint=fingerprint)
            db.append(record)
            if fingerprint is not None and outcome.status != "timeout":
                results[fingerprint] = record
            searcher.record(point, outcome.value if outcome.status == "ok" else None)
            summary.measured += 1
            _track(summary, record, space)
            progress.trial(trial, total, outcome, summary.best)
    except KeyboardInterrupt:
        summary.reason = "interrupted"
    finally:
        progress.close()
        db.append(
            {"kind": "end", "key": key.key, "session": session, "trials": trial,
             "of": total, "reason": summary.reason, "date": now()}
        )  # fmt: skip
    if (
        summary.reason != "interrupted"
        and metric_of(cfg) == "seconds"
        and hasattr(measure, "compare")
    ):
        try:
            summary.confirm = _confirm(request, summary, results, measure, note)  # type: ignore[arg-type]
        except KeyboardInterrupt:
            note("plaidc tune: confirmation interrupted; the fastest trial stands")
        if summary.confirm is not None:
            db.append({**summary.confirm, "key": key.key, "session": session, "date": now(),
                       "plaidc": plaidc_version()})  # fmt: skip
    return summary


def _confirm(
    request: TuneRequest,
    summary: TuneSummary,
    results: Mapping[str, Record],
    measure: Comparer,
    note: Callable[[str], None],
) -> Record | None:
    """Re-measure the fastest CONFIRM_TOP distinct correct programs and the config's own point
    side by side (one child, CONFIRM_ROUNDS interleaved rounds), as a `confirm` record whose
    `chosen` is `_choose`'s. None where there is nothing to choose between."""
    from plaidc.driver import resolve_steps, run_pipeline
    from plaidc.stripe.printer import print_stripe

    ranked = sorted(
        (r for r in results.values() if r["result"]["status"] == "ok"),
        key=lambda r: r["result"]["value"],
    )
    chosen = ranked[:CONFIRM_TOP]
    default = summary.default
    if default is not None and all(r["fingerprint"] != default["fingerprint"] for r in chosen):
        chosen.append(default)
    if len(chosen) < 2:
        return None
    candidates = []
    for record in chosen:
        point_cfg, steps = apply_point(request.cfg, request.stage, record["params"])
        text = print_stripe(run_pipeline(request.program, resolve_steps(steps)))
        candidates.append((text, point_cfg))
    note(f"plaidc tune: confirming the best {len(chosen)} side by side ({CONFIRM_ROUNDS} rounds)")
    outcome = measure.compare(candidates, CONFIRM_ROUNDS)
    if outcome.status != "ok":
        note(f"plaidc tune: warning: the confirmation failed ({outcome.status}: "
             f"{outcome.message}); the fastest trial stands")  # fmt: skip
        return None
    medians, spread = outcome.extra["medians"], outcome.extra["spread"]
    own = next(
        (i for i, r in enumerate(chosen) if default and r["fingerprint"] == default["fingerprint"]),
        None,
    )
    best = _choose(medians, outcome.extra.get("blocks"), own)
    return {
        "kind": "confirm",
        "rounds": CONFIRM_ROUNDS,
        "margin": CONFIRM_MARGIN,
        "wins_needed": wins_needed(CONFIRM_ROUNDS),
        "candidates": [
            {
                "params": r["params"],
                "fingerprint": r["fingerprint"],
                "value": medians[i],
                "spread": spread[i],
                "default": i == own,
            }
            for i, r in enumerate(chosen)
        ],
        "chosen": best,
    }


def _choose(
    medians: Sequence[float], blocks: Sequence[Sequence[float]] | None, own: int | None
) -> int:
    """The candidate a confirmation chooses: the config's own point (`own`) unless another's
    median is CONFIRM_MARGIN below its and, round by round (`blocks`: each candidate's block
    medians in round order), it was the faster in `wins_needed` of the rounds; among several
    such, the lowest median. Without the config's point, the lowest median."""
    fastest = min(range(len(medians)), key=lambda i: medians[i])
    if own is None:
        return fastest
    better = []
    for i, median in enumerate(medians):
        if i == own or median > medians[own] * (1 - CONFIRM_MARGIN):
            continue
        if blocks is not None:
            mine, theirs = blocks[i], blocks[own]
            wins = sum(a < b for a, b in zip(mine, theirs, strict=True))
            if wins < wins_needed(len(mine)):
                continue
        better.append(i)
    return min(better, key=lambda i: medians[i]) if better else own


def _message(err: CompileError | InternalError) -> str:
    if isinstance(err, CompileError) and err.diagnostics:
        return err.diagnostics[0].message
    return str(err)


def _value(record: Record) -> float | None:
    result = record["result"]
    return result["value"] if result["status"] == "ok" else None


def _track(summary: TuneSummary, record: Record, space: Space) -> None:
    status = record["result"]["status"]
    if status != "ok":
        summary.failed[status] = summary.failed.get(status, 0) + 1
        return
    if summary.best is None or record["result"]["value"] < summary.best["result"]["value"]:
        summary.best = record
    if point_key(record["params"]) == point_key(space.default_point()):
        summary.default = record


def _fingerprint(final: Block, stripe_text: str, cfg: TargetConfig) -> str:
    """Which program a point builds: the backend's digest of its emitted code where it has one
    (so `[codegen]` values the program does not use make no new program), else the final Stripe
    and every `[codegen]` value."""
    try:
        built = build_fingerprint(final, cfg)
    except BackendUnavailable:
        built = None  # the measuring child reports it
    if built is not None:
        return built
    data = json.dumps({"stripe": stripe_text, "codegen": cfg.codegen}, sort_keys=True, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:24]


def _session(
    request: TuneRequest, records: list[Record], key: str, note: Callable[[str], None]
) -> tuple[str, int, int]:
    """(session id, trials it already has, its planned trials): a new session, or with
    `--resume` the latest unfinished one of the key."""
    sessions: dict[str, dict[str, Any]] = {}
    for record in records:
        if record["key"] != key:
            continue
        info = sessions.setdefault(record["session"], {"trials": 0, "of": 0, "end": None})
        if record["kind"] == "end":
            info["end"] = record.get("reason")
        elif record.get("trial") is not None:
            info["trials"] += 1
            info["of"] = max(info["of"], int(record.get("of") or 0))
    unfinished = [s for s, info in sessions.items() if info["end"] not in FINISHED]
    if request.resume:
        if unfinished:
            info = sessions[unfinished[-1]]
            note(
                f"plaidc tune: resuming session {unfinished[-1]} at trial "
                f"{info['trials']}/{info['of']}"
            )
            return unfinished[-1], info["trials"], info["of"] or request.trials
        note("plaidc tune: no unfinished session of this program to resume; starting one")
    elif unfinished:
        info = sessions[unfinished[-1]]
        note(
            f"plaidc tune: note: session {unfinished[-1]} stopped at {info['trials']}/"
            f"{info['of']} trials ({info['end'] or 'no end record'}); --resume continues it"
        )
    return uuid.uuid4().hex[:12], 0, request.trials


def _nearest_seed(
    request: TuneRequest, records: list[Record], key: TuneKey, space: Space, note: Any
) -> list[Point]:
    """The best point of the tuned record closest in shape: same program file, config,
    pipeline and host, the same inputs and outputs with the same ranks; distance is the sum of
    |log2| ratios of the sizes."""
    own = shapes_of(request.program)
    best_by_key: dict[str, Record] = {}
    for record in records:
        if record.get("kind") != "trial" or record["key"] == key.key:
            continue
        parts = record.get("parts", {})
        if record.get("program") != request.label or any(
            parts.get(p) != key.parts[p] for p in ("config", "host")
        ):
            continue
        if record["result"]["status"] != "ok" or not space.contains(record["params"]):
            continue
        held = best_by_key.get(record["key"])
        if held is None or record["result"]["value"] < held["result"]["value"]:
            best_by_key[record["key"]] = record
    ranked = []
    for record in best_by_key.values():
        distance = _shape_distance(own, record.get("shapes", {}))
        if distance is not None:
            ranked.append((distance, record))
    if not ranked:
        note("plaidc tune: --nearest: no tuned record of this program to start from")
        return []
    distance, record = min(ranked, key=lambda r: r[0])
    note(f"plaidc tune: --nearest: starting from key {record['key']} (distance {distance:.2f})")
    return [record["params"]]


def _shape_distance(a: Mapping[str, Any], b: Mapping[str, Any]) -> float | None:
    if set(a) != set(b):
        return None
    total = 0.0
    for name, (dtype, sizes) in a.items():
        other_dtype, other = b[name]
        if dtype != other_dtype or len(sizes) != len(other):
            return None
        total += sum(
            abs(math.log2(max(x, 1) / max(y, 1))) for x, y in zip(sizes, other, strict=True)
        )
    return total
