"""How long a match link works (the QR code on a match's score sheet, RULES.md 5).

A match link works from its draw until ``MATCH_LINK_HOURS`` hours (setting, default 12)
after the night ends. The night has no closing button: it ends with its last event, the
latest of a draw (a pairing made), a result recorded, a result voided and a result
reported from a player's phone. While results
keep coming the links stay open, however long the night; once the room is quiet they
close that many hours later, whatever date the tournament was announced for. A match
played on a score sheet: the sheet's private link closes with them (``sheet_link_open``),
so no deal, and no result it would make, comes in through it after the night.
"""

import datetime

from django.conf import settings
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from tournaments.models import Pairing, Report, Result, Tournament


def last_event(tournament: Tournament) -> datetime.datetime | None:
    """The time of the night's last draw, result, voided result or reported result; None
    before round 1 is drawn. One query."""

    def latest(model, lookup, field):
        rows = model.objects.filter(**{lookup: OuterRef("pk")}).values(lookup)
        return Subquery(rows.annotate(m=Max(field)).values("m")[:1])

    times = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(
            drawn=latest(Pairing, "tournament", "created_at"),
            recorded=latest(Result, "pairing__tournament", "recorded_at"),
            voided=latest(Result, "pairing__tournament", "voided_at"),
            reported=latest(Report, "pairing__tournament", "reported_at"),
        )
        .values_list("drawn", "recorded", "voided", "reported")
        .first()
    )
    known = [t for t in times or () if t is not None]
    return max(known) if known else None


def match_links_end(tournament: Tournament) -> datetime.datetime | None:
    """When the tournament's match links stop working: ``MATCH_LINK_HOURS`` after its
    last event (``last_event``); None before round 1 is drawn."""
    last = last_event(tournament)
    if last is None:
        return None
    return last + datetime.timedelta(hours=settings.MATCH_LINK_HOURS)


def match_link_open(tournament: Tournament) -> bool:
    """True while the tournament's match links work (see the module docstring)."""
    ends = match_links_end(tournament)
    return ends is not None and timezone.now() <= ends


def sheet_link_open(sender, sheet, **kwargs) -> bool | None:
    """``scoring.signals.link_open``: False when ``sheet`` is a match's score sheet and
    the night's match links have ended (``match_link_open``), True while they work,
    None for a sheet of no match. Two queries."""
    pairing = Pairing.objects.filter(sheet_id=sheet.pk).select_related("tournament").first()
    if pairing is None:
        return None
    return match_link_open(pairing.tournament)
