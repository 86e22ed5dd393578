"""What a Preisschnapsen night counts before round 1: the Karten in play (sold minus
withdrawn) and those reserved for registrations, the number of cards the desk offers
to lower to, and a waiting registration's place in line. Nothing here writes.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, F, IntegerField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce, Greatest

from tournaments import draw
from tournaments.models import (
    HOLDING_REGISTRATION,
    Card,
    Registration,
    RegistrationStatus,
    Tournament,
)

if TYPE_CHECKING:  # the stubs' own helper, installed with the type check only
    from django_stubs_ext import WithAnnotations


class CardCountFields(TypedDict):
    """The fields ``with_card_counts`` annotates."""

    in_play: int
    held: int
    free: int


def cards_in_play(tournament) -> QuerySet[Card]:
    """The cards of ``tournament`` (a Tournament, or ``OuterRef("pk")``) that will be
    drawn: sold minus withdrawn (RULES.md 5.1, 5.7)."""
    return Card.objects.not_withdrawn().filter(tournament=tournament)


def holding_registrations(tournament) -> QuerySet[Registration]:
    """The registrations of ``tournament`` (a Tournament, or ``OuterRef("pk")``) that
    hold cards: registered or offered and not yet checked in (``HOLDING_REGISTRATION``);
    neither a sale at the door nor another registration takes their cards."""
    return Registration.objects.filter(tournament=tournament, status__in=HOLDING_REGISTRATION)


def count_in_play(tournament: Tournament) -> int:
    """Before round 1: the cards that will be drawn (``cards_in_play``). The draw check,
    the lowering, the sale and the desk's offer all count these. One query."""
    return cards_in_play(tournament).count()


def count_reserved(tournament: Tournament) -> int:
    """Before round 1: the cards held by registrations (``holding_registrations``). One
    query."""
    return holding_registrations(tournament).aggregate(n=Sum("cards"))["n"] or 0


def with_card_counts(
    tournaments: QuerySet[Tournament],
) -> "QuerySet[WithAnnotations[Tournament, CardCountFields]]":
    """``tournaments`` with ``in_play`` (``cards_in_play``), ``held`` (the cards
    ``holding_registrations`` hold) and ``free`` annotated: the cards laid out that
    neither a card in play nor a registration holds, 0 or more. The one place of the
    free-cards rule: the registration, the sale at the door and the club's list of
    upcoming nights read it here. Adds two subqueries, no query of its own."""
    in_play = cards_in_play(OuterRef("pk")).values("tournament").annotate(n=Count("pk"))
    held = holding_registrations(OuterRef("pk")).values("tournament").annotate(n=Sum("cards"))
    return tournaments.annotate(
        in_play=Coalesce(Subquery(in_play.values("n"), output_field=IntegerField()), 0),
        held=Coalesce(Subquery(held.values("n"), output_field=IntegerField()), 0),
        free=Greatest(F("cards") - F("in_play") - F("held"), Value(0)),
    )


@dataclass(frozen=True)
class CardCounts:
    """A night's cards as ``with_card_counts`` counts them: ``in_play``, ``held`` by
    registrations, ``free`` (0 or more)."""

    in_play: int
    held: int
    free: int


def card_counts(tournament: Tournament) -> CardCounts:
    """The ``CardCounts`` of ``tournament`` as stored now. One query."""
    rows = with_card_counts(Tournament.objects.filter(pk=tournament.pk))
    return CardCounts(**rows.values("in_play", "held", "free").get())


def free_cards(tournament: Tournament) -> int:
    """The free cards of ``tournament`` as stored now (``with_card_counts``). One query."""
    return card_counts(tournament).free


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
