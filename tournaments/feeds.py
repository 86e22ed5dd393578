"""Calendar feeds (iCalendar, RFC 5545, written with the ``icalendar`` library): a club's
nights, and the nights a registered player stands for.

Each night is one ``VEVENT`` whose ``UID`` never changes, so a calendar that subscribed
moves the event when the night's name, time or venue change instead of adding a second
one: ``night-<tournament id>@<club slug>.bummerl`` in the club's feed, and
``night-<tournament id>-registration-<registration id>@<club slug>.bummerl`` in a
registered player's, so that a calendar app holding both feeds (or two players' feeds)
keeps each event apart instead of merging or hiding one. ``DTSTART``/``DTEND`` are in UTC,
the end ``nights.NIGHT_HOURS`` after the start; ``DTSTAMP`` is when the feed was made.
"""

import datetime
from collections.abc import Callable, Iterable

from django.utils import timezone
from django.utils.translation import ngettext
from icalendar import Calendar, Event

from tournaments.models import Tournament
from tournaments.nights import night_end

CONTENT_TYPE = "text/calendar; charset=utf-8"
PRODUCT = "-//Bummerl//Schnapsen nights//DE"


def night_uid(t: Tournament, club_slug: str) -> str:
    """The night's ``UID`` in the club's feed: ``night-<id>@<club slug>.bummerl``."""
    return f"night-{t.pk}@{club_slug}.bummerl"


def registration_uid(t: Tournament, club_slug: str, registration_id: int) -> str:
    """The night's ``UID`` in a registered player's feed, by his registration for it:
    ``night-<id>-registration-<registration id>@<club slug>.bummerl``."""
    return f"night-{t.pk}-registration-{registration_id}@{club_slug}.bummerl"


def night_event(
    t: Tournament,
    club_slug: str,
    url: str,
    stamp: datetime.datetime,
    note: str = "",
    uid: str = "",
) -> Event:
    """The ``VEVENT`` of night ``t``: ``uid`` (its club feed's, ``night_uid``, when
    empty), ``stamp`` as DTSTAMP, the night's name
    as SUMMARY, start and end, the venue as LOCATION (left out when empty), ``url`` (a
    whole address) as URL and, with ``note``, a DESCRIPTION."""
    event = Event()
    event.add("uid", uid or night_uid(t, club_slug))
    event.add("dtstamp", stamp)
    event.add("summary", t.name)
    event.add("dtstart", t.starts_at.astimezone(datetime.UTC))
    event.add("dtend", night_end(t).astimezone(datetime.UTC))
    if t.venue:
        event.add("location", t.venue)
    event.add("url", url)
    if note:
        event.add("description", note)
    return event


def calendar(
    title: str,
    club_slug: str,
    nights: Iterable[Tournament],
    url_of: Callable[[Tournament], str],
    note_of: Callable[[Tournament], str] | None = None,
    uid_of: Callable[[Tournament], str] | None = None,
) -> bytes:
    """The feed of ``nights`` as iCalendar bytes (UTF-8, CRLF lines): ``title`` as its
    name (``X-WR-CALNAME``), each night's URL from ``url_of``, with ``note_of`` its
    description and with ``uid_of`` its UID (else ``night_uid``)."""
    cal = Calendar()
    cal.add("prodid", PRODUCT)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", title)
    stamp = timezone.now().astimezone(datetime.UTC).replace(microsecond=0)
    for t in nights:
        note = note_of(t) if note_of else ""
        uid = uid_of(t) if uid_of else ""
        cal.add_component(night_event(t, club_slug, url_of(t), stamp, note, uid))
    return cal.to_ical()


def registration_note(cards: int, status_label: str) -> str:
    """A registered player's line under his night: "2 cards · registered"."""
    text = ngettext("%(cards)s card · %(status)s", "%(cards)s cards · %(status)s", cards)
    return text % {"cards": cards, "status": status_label}
