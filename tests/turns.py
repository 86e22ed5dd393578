"""Figures measured in turns: ``make bench`` compares a request or a printout with its
yardstick by calling them one after the other, round by round, so that both are measured
under the same load (a virtual machine's speed drifts by half within a minute)."""

import statistics
import time


def cpu_ms(call) -> float:
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def in_turns(*calls, rounds: int, before=None) -> list[float]:
    """Medians of the CPU time of each of ``calls``, called in turns, round by round
    (after one round to warm up), so that all are measured under the same load of the
    machine. ``before``: called before each round, not measured."""
    times = [[] for _ in calls]
    for round_ in range(rounds + 1):
        if before is not None:
            before()
        taken = [cpu_ms(call) for call in calls]
        if round_:
            for kept, ms in zip(times, taken, strict=True):
                kept.append(ms)
    return [statistics.median(kept) for kept in times]
