"""``{% cup_ticks tournament %}`` on a night's desk: the organiser's form to count his
night in the cups of the bodies his club is a member of (``cups.services.
cups_for_night``), and to accept or decline the night as a cup's final where a cup
proposes it (``cups.services.proposed_finals``). The desk loads it by name, so that
``tournaments`` imports nothing of ``cups``; it renders nothing when no cup is on offer
or proposes the night. Three queries."""

from django import template

from cups.models import Night
from cups.services import cups_for_night, proposed_finals
from tournaments.models import Tournament

register = template.Library()


@register.inclusion_tag("cups/_ticks.html")
def cup_ticks(tournament: Tournament) -> dict:
    offered = cups_for_night(tournament)
    counted = set(
        Night.objects.live()
        .filter(tournament=tournament, cup__in=offered)
        .values_list("cup_id", flat=True)
    )
    return {
        "finals": proposed_finals(tournament),
        "tournament": tournament,
        "rows": [(cup, cup.pk in counted) for cup in offered],
        "bodies": sorted({cup.body for cup in offered}, key=lambda b: (b.name, b.pk)),
    }
