"""Preisschnapsen pages, one module per part: ``desk`` (list, sales, payments,
withdrawals), ``draws``, ``results`` (round pages), ``public`` (match links, live
bracket), ``printouts``, ``export`` (JSON, history) and ``club_face`` (the club's public page,
feeds and widgets). The pages without sign-in are
named here for the site's URLs."""

from tournaments.views.club_face import feed_moved, registration_calendar
from tournaments.views.public import (
    bracket,
    match_link,
    match_sheet,
    personal,
    room_screen,
    side_link,
)
from tournaments.views.registrations import registration_link

__all__ = [
    "bracket",
    "match_link",
    "match_sheet",
    "personal",
    "room_screen",
    "side_link",
    "registration_link",
    "registration_calendar",
    "feed_moved",
]
