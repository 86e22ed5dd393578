"""What a Preisschnapsen night counts before round 1: the Karten in play (sold minus
withdrawn) and those reserved for registrations, the number of cards the desk offers
to lower to, and a waiting registration's place in line. Nothing here writes.
"""

from django.db.models import Sum

from tournaments import draw
from tournaments.models import (
    HOLDING_REGISTRATION,
    Card,
    Registration,
    RegistrationStatus,
    Tournament,
)


def count_in_play(tournament: Tournament) -> int:
    """Before round 1: the cards that will be drawn, i.e. sold minus withdrawn (RULES.md
    5.1, 5.7). The draw check, the lowering, the sale and the desk's offer all count these."""
    return Card.objects.not_withdrawn().filter(tournament=tournament).count()


def count_reserved(tournament: Tournament) -> int:
    """Before round 1: the cards held by the tournament's registrations that are
    registered or offered and not yet checked in (``HOLDING_REGISTRATION``); neither a
    sale at the door nor another registration takes them. One query."""
    rows = Registration.objects.filter(tournament=tournament, status__in=HOLDING_REGISTRATION)
    return rows.aggregate(n=Sum("cards"))["n"] or 0


def lower_offer(tournament: Tournament, in_play: int) -> int | None:
    """The number of cards the desk offers to lower to before round 1 (RULES.md 5.1):
    ``draw.smallest_cards(in_play)`` when the draw is refused for too few cards sold and
    lowering makes it possible, else None. ``in_play``: how many cards are in play
    (``count_in_play``: a card withdrawn before round 1 is not drawn, RULES.md 5.7)."""
    if in_play < draw.LOWEST_CARDS or in_play > tournament.cards // 2:
        return None
    return draw.smallest_cards(in_play)


def waiting_position(registration: Registration) -> int | None:
    """A waiting registration's place on the waiting list (1: the first in line); None
    for one that does not wait."""
    if registration.status != RegistrationStatus.WAITING:
        return None
    earlier = Registration.objects.filter(
        tournament_id=registration.tournament_id,
        status=RegistrationStatus.WAITING,
        pk__lt=registration.pk,
    )
    return earlier.count() + 1
