"""The whole ranking of a Preisschnapsen, and the prize lists it awards (RULES.md 5.5,
5.8, 5.9): pure Python over ids, no Django.

Words used here:

- a *place range* ``(first, last)``: the places a card or player holds; ``first ==
  last`` for a place of its own, ``(9, 16)`` for the cards that went out in the round of
  the last 16 and share it (``ranking_ties`` ``shared``).
- an *order* of a range: the cards of a shared range in the order a *Stechen* (one-deal
  play-offs the organiser records) or a drawing of lots (``lot_order``) put them; an
  ordered range gives each card a place of its own.
- a player's place is that of his best card (RULES.md 5.8).

Where RULES.md is silent, this module decides:

- Only cards whose place is settled are ranked (a round's losers once the round after
  it is drawn, 1 to 8 as the final and the placement matches decide them); a card
  withdrawn before round 1 never played and has no place.
- Prizes are handed out down the ranking. In a range that is shared and not ordered,
  the prizes go in the order the range lists its cards (card number, the sale order),
  as with a prize passed down under one prize per player: an organiser who wants the
  cards to play or draw for it chooses ``stechen`` or ``lot``.
- A category list (RULES.md 5.9) goes down the player ranking among the players of the
  category; a prize of that list is given to the next eligible player even when a
  gap is in the list's places (place 1 and 3 given, no 2: the second eligible player
  gets nothing, the third gets prize 3). With ``category_with_overall`` off, a player
  who won an overall prize is skipped; a player may win in several categories.
"""

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.draw import _below

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
    ``shared``: (first, last, card) of the cards sharing a range (``bracket.shared_places``,
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


def player_places(
    places: Mapping[int, int],
    shared: Iterable[tuple[int, int, int]],
    owners: Mapping[int, int],
    orders: Mapping[int, Sequence[int]] | None = None,
) -> dict[int, tuple[int, int]]:
    """Player -> (first, last) place of his best card (RULES.md 5.8), for every player
    with a placed card; arguments as for ``card_ranking``. Iterating the result goes
    down the ranking (best first; within a shared range in the range's card order)."""
    out: dict[int, tuple[int, int]] = {}
    for ranked in card_ranking(places, shared, owners, orders):
        out.setdefault(ranked.player, (ranked.first, ranked.last))
    return out


def lot_order(cards: Sequence[int], seed: int) -> list[int]:
    """The cards of a shared range in the order a drawing of lots gives them (RULES.md
    5.8 ``lot``): the cards sorted, then a Fisher-Yates shuffle driven by
    ``random.Random(seed).random()`` alone, so the same seed gives the same order on any
    Python version (as the draw, ``tournaments.draw``)."""
    rng = random.Random(seed)
    out = sorted(cards)
    for i in range(len(out) - 1, 0, -1):
        j = _below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@dataclass(frozen=True)
class Prize:
    """Prize ``place`` of a list (``description``) goes to ``card`` of ``player``, who
    finished at ``first`` to ``last``."""

    place: int
    description: str
    card: int
    player: int
    first: int
    last: int


def category_awards(
    ranking: Sequence[Ranked],
    prizes: Sequence[tuple[int, str]],
    members: set[int],
    overall_winners: set[int],
    with_overall: bool,
) -> list[Prize]:
    """The prize list of one category (RULES.md 5.9): ``prizes`` (place, description)
    handed down the ``ranking`` (``card_ranking``) to the players in ``members``, each
    player once (by his best card), skipping ``overall_winners`` (players with an
    overall prize) unless ``with_overall``. A prize whose player is not known yet
    (the ranking not that far) is left out."""
    eligible: list[Ranked] = []
    seen: set[int] = set()
    for ranked in ranking:
        if ranked.player in seen:
            continue
        seen.add(ranked.player)
        if ranked.player not in members:
            continue
        if not with_overall and ranked.player in overall_winners:
            continue
        eligible.append(ranked)
    out = []
    for place, description in sorted(prizes):
        if place - 1 < len(eligible):
            r = eligible[place - 1]
            out.append(Prize(place, description, r.card, r.player, r.first, r.last))
    return out
