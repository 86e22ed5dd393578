"""Places and prizes of a Preisschnapsen (RULES.md 5.5), pure Python.

``places`` maps a place (1..8) to the card that holds it; ``award`` hands out the
prize list. With one prize per player, a player's lower prize passes to the next
place held by someone else, and every place after it moves up by one.
"""

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
) -> list[Award]:
    """Prizes in place order. ``places``: place -> (card, player) as far as known;
    ``prizes``: (place, description). A prize whose holder is not known yet is left out."""
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
