"""Where each player finished in a tournament: the one place where the season ranking
reads a tournament's places (RULES.md 5.8, 7)."""

from tournaments.models import Tournament
from tournaments.services.reading import load_state


def player_places(tournament: Tournament) -> tuple[dict[int, tuple[int, int]], dict[int, str]]:
    """``(places, names)``: each placed player's best place range ``(first, last)`` by
    player id, as the tournament's own ranking gives it (``TournamentState.player_places``:
    a card night's bracket, a Leben or points event's settled standings; Stechen and lots
    applied; a player by his best card), and the name of every player who held a card
    (placed or not). A night not yet over places only the players out so far. 4 queries
    (a few more with recorded Stechen or lots)."""
    state = load_state(tournament)
    names = {card.player_id: card.player.name for card in state.cards.values()}
    return state.player_places(), names
