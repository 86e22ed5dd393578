"""Sheets with known outcomes on known days, for the season tests and the bench."""

import datetime as dt
import uuid

from scoring import services
from scoring.models import Sheet
from scoring.rules import QuickDeal
from seasons.days import CLUB_ZONE
from tests import factories


def bummerl(sheet, loser: int, schneider: bool = False) -> None:
    """One Bummerl of two-player Schnapsen to seat ``loser``: a Schneider when he wins
    no point (counts 2 in the ``wiki`` rules), else he wins 1 point first."""
    winner = 1 - loser
    deals = [] if schneider else [QuickDeal(loser, 1)]
    deals += [QuickDeal(winner, 3), QuickDeal(winner, 3), QuickDeal(winner, 1)]
    for deal in deals:
        services.record_entry(sheet, deal, uuid.uuid4(), services.Actor())


def two_player_sheet(club, first, second, when: dt.datetime, losers=(), schneider=()):
    """A Schnapsen sheet of the players ``first`` and ``second`` opened at ``when``
    (Vienna time unless aware): one Bummerl per seat in ``losers``, Schneider where the
    same position of ``schneider`` is true."""
    sheet = services.open_sheet(club, "schnapsen", [first, second], factories.presets()["wiki"])
    for i, loser in enumerate(losers):
        bummerl(sheet, loser, schneider=i < len(schneider) and schneider[i])
    if when.tzinfo is None:
        when = when.replace(tzinfo=CLUB_ZONE)
    Sheet.objects.filter(pk=sheet.pk).update(created_at=when)
    return sheet
