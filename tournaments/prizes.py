"""Places and prizes of a Preisschnapsen (RULES.md 5.5), pure Python.

``places`` maps a place (1..8) to the card that holds it; ``award`` hands out the
prize list. With one prize per player, a player's lower prize passes to the next
place held by someone else, and every place after it moves up by one; past the places
decided one by one it passes into the range the next cards share (9-16 …), in card order.
"""

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Award:
    """Prize ``place`` (its description) goes to ``card`` of ``player``, who finished
    ``finished`` (the same as ``place`` unless prizes moved up)."""

    place: int
    description: str
    card: int
    player: int
    finished: int


def award(
    places: dict[int, tuple[int, int]],
    prizes: list[tuple[int, str]],
    one_per_player: bool,
    shared: Sequence[tuple[int, int, int]] = (),
) -> list[Award]:
    """Prizes in place order (RULES.md 5.5). ``places``: place -> (card, player) as far as
    known; ``prizes``: (place, description); ``shared``: (first place, card, player) of
    the cards that share a place range beyond the decided places (RULES.md 5.8), in the
    order a prize passed down reaches them (``bracket.shared_places``). A prize whose
    holder is not known yet is left out; with one prize per player a prize passes down
    past place 8 into a shared range once every place before it is known (``finished``
    is then the range's first place)."""
    if not one_per_player:
        return [
            Award(place, description, *places[place], place)
            for place, description in sorted(prizes)
            if place in places
        ]
    # The chain of moved-up prizes is known only as far as the places are known from 1 on.
    known = []
    while len(known) + 1 in places:
        known.append((len(known) + 1, places[len(known) + 1]))
    ranges: dict[int, list[tuple[int, tuple[int, int]]]] = {}
    for first, card, player in shared:
        ranges.setdefault(first, []).append((first, (card, player)))
    while len(known) + 1 in ranges:
        known.extend(ranges[len(known) + 1])
    awards: list[Award] = []
    winners: set[int] = set()
    cursor = 0
    for place, description in sorted(prizes):
        # A prize goes to its own place, or, when that player already won one, to the
        # next place held by someone else; a gap in the prize list moves nothing.
        cursor = max(cursor, place - 1)
        while cursor < len(known) and known[cursor][1][1] in winners:
            cursor += 1
        if cursor >= len(known):
            break
        finished, (card, player) = known[cursor]
        awards.append(Award(place, description, card, player, finished))
        winners.add(player)
        cursor += 1
    return awards
