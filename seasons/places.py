"""Where each player finished in a tournament: the one place where the season ranking
reads a tournament's places (RULES.md 5.8, 7)."""

from tournaments import formats
from tournaments.models import Format, Tournament
from tournaments.services.reading import load_state


def player_places(tournament: Tournament) -> tuple[dict[int, tuple[int, int]], dict[int, str]]:
    """``(places, names)``: each placed player's best place range ``(first, last)`` by
    player id, and the name of every player who held a card (placed or not). A card
    night ranks as its ranking page does (``TournamentState.player_places``: places 1
    to 8 single, the ranges shared beyond them unless a Stechen or lots ordered them, a
    player by his best card); a Leben or points event by its standings board. A night
    not yet over places only the players out so far. 4 queries."""
    state = load_state(tournament)
    names = {card.player_id: card.player.name for card in state.cards.values()}
    if tournament.format == Format.CARDS:
        return state.player_places(), names
    places: dict[int, tuple[int, int]] = {}
    for line in formats.board(state).lines:
        if line.place is not None:
            first, last = line.place, line.place_to or line.place
            best = places.get(line.card.player_id)
            if best is None or first < best[0]:
                places[line.card.player_id] = (first, last)
    return places, names
