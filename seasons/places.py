"""Where each player finished in a tournament: the one adapter between the season
ranking and the tournament's own ranking.

>>> ADAPTER <<<  ``player_places`` is the only function of this app that reads a
tournament's places. It reads them from ``tournaments.services.reading`` (prizes
places 1 to 8 from the bracket, and the place range shared by the cards that went out
in the same round beyond them, RULES.md 5.8). When the tournament's ranking module
gives each player's place range itself, point this function at it and at nothing else.
"""

from tournaments.models import Tournament
from tournaments.services.reading import load_state


def player_places(tournament: Tournament) -> tuple[dict[int, tuple[int, int]], dict[int, str]]:
    """``(places, names)``: each placed player's best place range ``(first, last)`` by
    player id (a player with several cards is ranked by his best card, RULES.md 5.8;
    places 1 to 8 are single, ``(3, 3)``), and the name of every player who held a card
    (placed or not). A night not yet over places only the cards out so far. 4 queries."""
    state = load_state(tournament)
    names = {card.player_id: card.player.name for card in state.cards.values()}
    ranges = [(place, place, card) for place, card in state.places().items()]
    ranges += list(state.shared())
    places: dict[int, tuple[int, int]] = {}
    for first, last, card in sorted(ranges):
        player = state.cards[card].player_id
        places.setdefault(player, (first, last))
    return places, names
