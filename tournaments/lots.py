"""The randomness of every draw core (the knock-out draw, Leben, the Danish points draw,
lots between tied players): a seeded ``random.Random`` read through ``random()`` alone,
so that a draw replays the same on every Python version (RULES.md 5.2, 7: an auditable
draw is replayed from its seed).

Pure Python; no Django.
"""

import random
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A uniform index 0 .. n-1 (``n`` >= 1) from ``rng.random()`` alone."""
    return min(int(rng.random() * n), n - 1)


def shuffled(items: Iterable[T], rng: random.Random) -> list[T]:
    """A new list of ``items`` in a Fisher-Yates order driven by ``below``."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = below(rng, i + 1)
        result[i], result[j] = result[j], result[i]
    return result
