#!/usr/bin/env python3
"""Throughput of our scorers against a peer implementation, on the same generated hands.

    python scripts/bench_scoring.py [--rules riichi] [--n 2000] [--rounds 3] [--seed 2012]

Each rule system is one entry of SYSTEMS: how to generate seeded hands, how to score one with our
engine, and how to score it with the peer library (with the peer's input prepared beforehand, so
only scoring is timed on both sides). Every round uses hands neither side has seen (a fresh seed);
a warm-up round on other hands loads modules and fills caches that any real run would have. The
median round is reported.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _checkout  # noqa: F401 - the checkout's packages by their installed names


@dataclass(frozen=True)
class System:
    """One rule system's benchmark: hands, our scorer, the peer (name, input preparation, scorer)."""

    generate: Callable[[int, int], list[Any]]
    ours: Callable[[], Callable[[Any], Any]]
    peer_name: str
    peer: Callable[[], tuple[Callable[[Any], Any], Callable[[Any], Any]]]


def _riichi() -> System:
    from mahjong_camera_scorer.scoring.options import resolve
    from mahjong_camera_scorer.scoring.riichi import OPTIONS, score
    from tests.scoring.riichi_hands import generate, peer_args, peer_rules

    def ours() -> Callable[[Any], Any]:
        options = resolve(OPTIONS)
        return lambda hand: score(hand, options)

    def peer() -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        from mahjong.hand_calculating.hand import HandCalculator

        rules = peer_rules()
        estimate = HandCalculator.estimate_hand_value
        return (lambda hand: peer_args(hand, rules)), (lambda args: estimate(**args))

    return System(lambda n, seed: generate(n, seed), ours, "PyPI mahjong", peer)


def _mcr() -> System:
    from mahjong_camera_scorer.scoring.mcr import OPTIONS, score
    from mahjong_camera_scorer.scoring.options import resolve
    from tests.scoring.mcr_hands import gb_arguments, generate_hands

    def ours() -> Callable[[Any], Any]:
        options = resolve(OPTIONS)
        return lambda hand: score(hand, options)

    def peer() -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        from MahjongGB import MahjongFanCalculator

        return gb_arguments, (lambda args: MahjongFanCalculator(*args))

    return System(lambda n, seed: generate_hands(n, seed), ours, "PyMahjongGB", peer)


#: rule system → its benchmark (add e.g. "mcr": _mcr when a peer exists for it)
SYSTEMS: dict[str, Callable[[], System]] = {"riichi": _riichi, "mcr": _mcr}


def _rate(fn: Callable[[Any], Any], inputs: list[Any]) -> float:
    start = time.perf_counter()
    for x in inputs:
        fn(x)
    return len(inputs) / (time.perf_counter() - start)


def bench(name: str, n: int, rounds: int, seed: int) -> float:
    system = SYSTEMS[name]()
    ours = system.ours()
    prepare, peer = system.peer()
    warm = system.generate(n, seed - 1)
    _rate(ours, warm)
    _rate(peer, [prepare(h) for h in warm])
    ours_rates, peer_rates = [], []
    for i in range(rounds):
        hands = system.generate(n, seed + i)
        prepared = [prepare(h) for h in hands]
        ours_rates.append(_rate(ours, hands))
        peer_rates.append(_rate(peer, prepared))
    a, b = statistics.median(ours_rates), statistics.median(peer_rates)
    print(f"[{name}] {n} hands x {rounds} rounds (median)")
    print(f"  ours          {a:10.0f} hands/s")
    print(f"  {system.peer_name:<13} {b:10.0f} hands/s")
    print(f"  ratio         {a / b:10.2f}x")
    return a / b


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="riichi", help=f"comma-separated, from {', '.join(SYSTEMS)}")
    parser.add_argument("--n", type=int, default=2000, help="hands per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2012)
    args = parser.parse_args(argv)
    for name in args.rules.split(","):
        if name not in SYSTEMS:
            parser.error(f"no benchmark for {name!r} (have {', '.join(SYSTEMS)})")
        bench(name, args.n, args.rounds, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
