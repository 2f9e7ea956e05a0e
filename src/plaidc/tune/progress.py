"""Progress of `plaidc tune`: on a terminal a live line (tqdm: trial i/N, elapsed, ETA, best so
far and what it achieves), off a terminal one plain line per trial."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from plaidc.tune.measure import Outcome


def show_value(value: float | None, metric: str) -> str:
    if value is None:
        return "-"
    if metric == "cycles":
        return f"{int(value)} cycles"
    return f"{value * 1e3:.4g} ms"


def achievement(record: dict[str, Any] | None, flops: float) -> str:
    """What the best so far achieves: the Cube's busy share on the NPU, GFLOP/s on a CPU."""
    if record is None:
        return ""
    result = record["result"]
    if result.get("metric") == "cycles":
        busy = result.get("cube_utilisation")
        return f", Cube busy {busy:.1%}" if isinstance(busy, (int, float)) else ""
    if flops and result.get("value"):
        return f", {flops / result['value'] / 1e9:.3g} GFLOP/s"
    return ""


class TuneProgress:
    def __init__(self, metric: str, flops: float = 0.0, stream: TextIO | None = None) -> None:
        self.metric = metric
        self.flops = flops
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.first: int | None = None
        self.bar: Any = None
        self.live = self.stream.isatty()

    def trial(self, number: int, total: int, outcome: Outcome, best: dict[str, Any] | None) -> None:
        if self.first is None:
            self.first = number - 1
        best_text = show_value(best["result"]["value"] if best else None, self.metric)
        best_text += achievement(best, self.flops)
        if self.live:
            from tqdm import tqdm

            if self.bar is None:
                self.bar = tqdm(
                    total=total, initial=self.first, unit="trial", desc="tune", file=self.stream
                )
            self.bar.set_postfix_str(f"best {best_text}", refresh=False)
            self.bar.update(1)
            return
        elapsed = time.monotonic() - self.start
        done = number - self.first
        eta = elapsed / done * (total - number) if done else 0.0
        what = show_value(outcome.value, self.metric) if outcome.status == "ok" else outcome.status
        print(
            f"trial {number}/{total}: {what}; best {best_text}; "
            f"elapsed {elapsed:.0f} s, ETA {eta:.0f} s",
            file=self.stream,
            flush=True,
        )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
