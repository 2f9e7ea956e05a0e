"""The search of `plaidc tune`: seeded by the cost model's choice, refined by a hill climb and
an evolutionary step, as Tensor Comprehensions' and Ansor's tuners do.

`propose` returns the next unvisited point or None when the space is exhausted:

1. the seeds, in order (the config's own point, the analytic cost model's choice; then a
   nearby tuned record's best point with `--nearest`);
2. an unvisited neighbour of the best point so far (one parameter one value up or down, in
   its declared order): a hill climb while it finds improvements;
3. otherwise, with the neighbourhood of the best exhausted, an offspring of the best few
   (tournament selection; a crossover of two parents or a mutation of one to random values);
4. otherwise a random unvisited point.

Wrong, crashed and timed-out points count as visited and never as parents. Deterministic for
a seed and a history.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from plaidc.tune.space import Point, Space, point_key

POPULATION = 8  # parents come from the best this many


class Search:
    def __init__(self, space: Space, seeds: Sequence[Point] = (), seed: int = 0) -> None:
        self.space = space
        self.seeds = [dict(s) for s in seeds if space.contains(s)]
        self.rng = random.Random(seed)
        self.visited: set[str] = set()
        self.scores: dict[str, tuple[float, Point]] = {}  # valid points: their value

    def record(self, point: Mapping[str, Any], value: float | None) -> None:
        """A measured point: `value` lower is better; None for a wrong/crashed/timed-out one."""
        key = point_key(point)
        self.visited.add(key)
        if value is not None:
            self.scores[key] = (value, dict(point))

    def exhausted(self) -> bool:
        return len(self.visited) >= self.space.size

    def best(self) -> tuple[float, Point] | None:
        return min(self.scores.values(), key=lambda s: s[0]) if self.scores else None

    def propose(self) -> Point | None:
        if self.exhausted():
            return None
        for seed in self.seeds:
            if point_key(seed) not in self.visited:
                return dict(seed)
        ranked = sorted(self.scores.values(), key=lambda s: s[0])
        if ranked:
            neighbours = [p for p in self._neighbours(ranked[0][1]) if not self._seen(p)]
            if neighbours:
                return self.rng.choice(neighbours)
            parents = [p for _, p in ranked[:POPULATION]]
            for _ in range(64):
                child = self._offspring(parents)
                if not self._seen(child):
                    return child
        return self._random_unvisited()

    def _seen(self, point: Point) -> bool:
        return point_key(point) in self.visited

    def _neighbours(self, point: Point) -> list[Point]:
        found = []
        for param in self.space.params:
            values = list(param.values)
            index = next(i for i, v in enumerate(values) if v == point[param.name])
            for step in (-1, 1):
                if 0 <= index + step < len(values):
                    found.append({**point, param.name: values[index + step]})
        return found

    def _tournament(self, parents: list[Point]) -> Point:
        a, b = self.rng.randrange(len(parents)), self.rng.randrange(len(parents))
        return parents[min(a, b)]  # parents are ranked: the lower index is the better one

    def _offspring(self, parents: list[Point]) -> Point:
        mother = self._tournament(parents)
        if len(parents) > 1 and self.rng.random() < 0.5:
            father = self._tournament(parents)
            child = {name: (mother if self.rng.random() < 0.5 else father)[name] for name in mother}
        else:
            child = dict(mother)
        for param in self.space.params:  # mutate each parameter with probability 1/n, >= one
            if self.rng.random() < 1.0 / len(self.space.params):
                child[param.name] = self.rng.choice(param.values)
        if child == mother:
            param = self.rng.choice(self.space.params)
            child[param.name] = self.rng.choice(param.values)
        return child

    def _random_unvisited(self) -> Point | None:
        for _ in range(256):
            point = {p.name: self.rng.choice(p.values) for p in self.space.params}
            if not self._seen(point):
                return point
        for point in self.space.points():  # a nearly exhausted space: the first left
            if not self._seen(point):
                return point
        return None
