"""Concurrent writers: K processes, each merging into its own athletes, total merges per second."""

from __future__ import annotations

import multiprocessing
import random
import time
from typing import Any

from vault.api import open_vault
from vault.bench.workload import turn
from vault.domain.models import FactIn


def _worker(
    url: str,
    seed: int,
    athletes: int,
    worker: int,
    workers: int,
    merges: int,
    barrier: Any,
    results: Any,
) -> None:
    rng = random.Random(seed + 7919 * (worker + 1))
    jobs = []
    for n in range(merges + 1):  # athletes worker, worker + K, worker + 2K, ...: never shared
        index = (worker + workers * n) % athletes
        t = turn(rng, seed, index, 1_000_000 + n)
        jobs.append(
            (
                t.athlete,
                [
                    FactIn(text=c.text, category=c.category, confidence=c.confidence)
                    for c in t.candidates
                ],
                t.now,
            )
        )
    with open_vault(url) as vault:
        vault.merge(*jobs[0][:2], now=jobs[0][2])  # connect and warm up before the clock starts
        barrier.wait()
        start = time.perf_counter_ns()
        for athlete, candidates, now in jobs[1:]:
            vault.merge(athlete, candidates, now=now)
        results.put((start, time.perf_counter_ns()))


def merges_per_second(url: str, seed: int, athletes: int, workers: int, merges: int) -> float:
    """Run `workers` processes of `merges` merges each; total merges / wall time of the slowest."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(workers)
    results = context.Queue()
    processes = [
        context.Process(
            target=_worker, args=(url, seed, athletes, w, workers, merges, barrier, results)
        )
        for w in range(workers)
    ]
    for process in processes:
        process.start()
    spans: list[tuple[int, int]] = [results.get(timeout=600) for _ in processes]
    for process in processes:
        process.join()
        if process.exitcode != 0:
            raise RuntimeError(f"a writer process failed (exit code {process.exitcode})")
    elapsed = max(end for _, end in spans) - min(start for start, _ in spans)
    return workers * merges / (elapsed / 1e9)
