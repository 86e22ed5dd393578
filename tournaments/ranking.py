"""The whole ranking of a Preisschnapsen (RULES.md 5.8): pure Python over ids, no Django.

Words used here:

- a *place range* ``(first, last)``: the places a card or player holds; ``first ==
  last`` for a place of its own, ``(9, 16)`` for the cards that went out in the round of
  the last 16 and share it (``ranking_ties`` ``shared``).
- an *order* of a range: the cards of a shared range in the order a *Stechen* (one-deal
  play-offs the organiser records) or a drawing of lots (``lot_order``) put them; an
  ordered range gives each card a place of its own.
- a player's place is that of his best card (RULES.md 5.8).

Only cards whose place is settled are ranked (``bracket.ranking_groups``). Who wins
which prize down this ranking is the ledger's (``tournaments.ledger``).
"""

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.lots import below

SHARED, STECHEN, LOT = "shared", "stechen", "lot"
"""The values of the option ``ranking_ties`` (RULES.md 5.8)."""


@dataclass(frozen=True)
class Ranked:
    """``card`` of ``player`` holds places ``first`` to ``last`` (one place: equal)."""

    first: int
    last: int
    card: int
    player: int


def card_ranking(
    places: Mapping[int, int],
    shared: Iterable[tuple[int, int, int]],
    owners: Mapping[int, int],
    orders: Mapping[int, Sequence[int]] | None = None,
) -> list[Ranked]:
    """Every placed card, best first (RULES.md 5.8).

    ``places``: place -> card for the places decided one by one (``bracket.places``);
    ``shared``: (first, last, card) of the cards sharing a range (``bracket.ranking_groups``,
    in card-number order within a range); ``owners``: card -> player; ``orders``: first
    place of a range -> its cards in the order a Stechen or the lots gave (a range with
    an order gets places first, first + 1, …). An order that does not hold exactly the
    range's cards is ignored (the range stays shared): ValueError is not raised here,
    the writers check orders when they record them.
    """
    out = [Ranked(p, p, card, owners[card]) for p, card in sorted(places.items())]
    ranges: dict[int, list[tuple[int, int]]] = {}
    for first, last, card in shared:
        ranges.setdefault(first, []).append((last, card))
    for first in sorted(ranges):
        members = ranges[first]
        cards = [card for _last, card in members]
        order = list((orders or {}).get(first, ()))
        if sorted(order) == sorted(cards) and len(set(order)) == len(order):
            out.extend(Ranked(first + i, first + i, c, owners[c]) for i, c in enumerate(order))
        else:
            out.extend(Ranked(first, last, card, owners[card]) for last, card in members)
    return out


def lot_order(cards: Sequence[int], seed: int) -> list[int]:
    """The cards of a shared range in the order a drawing of lots gives them (RULES.md
    5.8 ``lot``): the cards sorted, then a Fisher-Yates shuffle driven by
    ``random.Random(seed).random()`` alone, so the same seed gives the same order on any
    Python version (as the draw, ``tournaments.draw``)."""
    rng = random.Random(seed)
    out = sorted(cards)
    for i in range(len(out) - 1, 0, -1):
        j = below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out
