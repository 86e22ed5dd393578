"""Calendar days of the club (Europe/Vienna): which moments a season holds.

A sheet falls into the season of the day it was opened, a tournament into the season
of the day it starts, both read on the Vienna calendar (a sheet opened at 00:30 on
1 January, Vienna time, belongs to the new year's season though it is still
31 December in UTC). ``moments`` turns a range of days into a half-open range of
aware datetimes, so the database compares stored moments and needs no time zone.
"""

import datetime as dt
from zoneinfo import ZoneInfo

CLUB_ZONE = ZoneInfo("Europe/Vienna")


def start_of(day: dt.date) -> dt.datetime:
    """Midnight at the start of ``day`` in Vienna (aware)."""
    return dt.datetime.combine(day, dt.time.min, tzinfo=CLUB_ZONE)


def moments(first_day: dt.date | None, last_day: dt.date | None, field: str) -> dict:
    """Filter arguments for ``field`` (a DateTimeField) between the start of
    ``first_day`` and the end of ``last_day``; None on either side: open."""
    found = {}
    if first_day is not None:
        found[f"{field}__gte"] = start_of(first_day)
    if last_day is not None:
        found[f"{field}__lt"] = start_of(last_day + dt.timedelta(days=1))
    return found
