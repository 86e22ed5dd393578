"""What the public is told of a club's nights (issue 28): an announced night's rules in
words, and for the club's public page, its JSON, its calendar feed and its widgets the
upcoming nights and the results of the nights played.

Words: an *upcoming* night is a main event (no consolation) of the club that starts
later, or started less than ``NIGHT_HOURS`` ago and is not finished (it is being
played: *started*); a *past*
night started before now, was drawn and is *finished*: every card holds a place (a
knock-out night) or the standings are final (Leben, points). Its *placed* lines are
its prizes given (``TournamentState.awards``) or, without a prize list, its first
``TOP_PLACES`` places.

Nothing here reads a registration's name, contact, payment, transfer reference or
private link: the public is told dates, rules, free cards, names of the placed players
and each night's public link (``Tournament.public_token``, on the room screen's QR code
anyway).
"""

import datetime
from dataclasses import dataclass

from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club
from scoring.display import option_words
from tournaments import formats
from tournaments.models import Format, Round, Tournament
from tournaments.services import registrations
from tournaments.services.counts import with_card_counts
from tournaments.services.reading import TournamentState, load_state
from tournaments.services.sheets import match_rule_set

NIGHT_HOURS = 5
"""How long a night lasts when nothing says (the model keeps no end): the calendar's
end of a night, and how long a started night still counts as upcoming."""

UPCOMING_MOST = 20
"""The most upcoming nights listed (the soonest first)."""

WIDGET_NIGHTS = 5
"""The upcoming nights a widget lists."""

PAST_MOST = 10
"""The most nights played whose results are listed (the latest first); each costs the
few queries of ``load_state``, so a page reads at most this many."""

FEED_DAYS = 60
"""A club's calendar feed holds its upcoming nights and those of this many days back."""

FEED_MOST = 100
"""The most nights of a calendar feed (the earliest of them first)."""

TOP_PLACES = 3
"""The places a finished night without a prize list shows."""


def night_rules(t: Tournament) -> list[tuple[str, str]]:
    """The rules of night ``t`` in words, translated, as ``(label, text)`` lines: the rule
    set its match sheets use (``match_rule_set``: the night's, else the preset), a match
    (to ``match_bummerl``, or exactly ``match_games`` Bummerl), what a Schneider counts,
    then the rule set's options of a two-player deal (``scoring.display.option_words``;
    neither without a rule set: presets not seeded). One query at most (the preset)."""
    rule_set = match_rule_set(t)
    if t.match_games:
        match = _("exactly %(n)s Bummerl") % {"n": t.match_games}
    else:
        match = _("won with %(n)s Bummerl") % {"n": t.match_bummerl}
    schneider = ngettext("counts %(n)s Bummerl", "counts %(n)s Bummerl", t.schneider_counts) % {
        "n": t.schneider_counts
    }
    lines = [(_("A match"), match), (_("A Schneider"), schneider)]
    if rule_set is None:
        return lines
    return [(_("Rule set"), str(rule_set)), *lines, *option_words(rule_set.rules)]


def public_path(t: Tournament) -> str:
    """The path of the night's public page (its announcement, then its live bracket)."""
    return reverse("bracket", kwargs={"token": t.public_token})


@dataclass(frozen=True)
class Upcoming:
    """An upcoming night: its ``free`` cards (``counts.with_card_counts``), ``registration_open`` while its public registration takes
    players (``registrations.window_open``), ``started`` once it began."""

    tournament: Tournament
    free: int
    registration_open: bool
    started: bool = False

    @property
    def path(self) -> str:
        return public_path(self.tournament)


def _main_nights(club: Club):
    return Tournament.objects.filter(club=club, parent__isnull=True)


def upcoming_nights(club: Club, now: datetime.datetime | None = None) -> list[Upcoming]:
    """The club's upcoming nights (module docstring), the soonest first, at most
    ``UPCOMING_MOST``; one query, and ``load_state`` for each night started in the last
    ``NIGHT_HOURS`` (is it finished?)."""
    now = now or timezone.now()
    rows = with_card_counts(
        _main_nights(club).filter(starts_at__gte=now - datetime.timedelta(hours=NIGHT_HOURS))
    ).order_by("starts_at", "id")[:UPCOMING_MOST]
    found = []
    for t in rows:
        t.club = club
        started = t.starts_at <= now
        if started and finished(load_state(t)):
            continue
        found.append(Upcoming(t, t.free, registrations.window_open(t, now), started))
    return found


@dataclass(frozen=True)
class Placed:
    """A line of a night's result: places ``first`` to ``last`` (equal: one place), the
    player's ``name``, the ``prize`` won ("" without a prize list)."""

    first: int
    last: int
    name: str
    prize: str = ""


@dataclass(frozen=True)
class Played:
    """A finished night and its ``placed`` lines, best first."""

    tournament: Tournament
    placed: list[Placed]

    @property
    def path(self) -> str:
        return public_path(self.tournament)


def finished(state: TournamentState) -> bool:
    """Whether the night of ``state`` is over: drawn, and every card placed (knock-out)
    or its standings final (Leben, points events)."""
    if not state.drawn:
        return False
    if state.tournament.format == Format.CARDS:
        return bool(state.cards) and len(state.ranking()) == len(state.cards)
    return formats.board(state).finished


def placed_lines(state: TournamentState) -> list[Placed]:
    """The prizes given, each with its winner's places, or without a prize list the
    first ``TOP_PLACES`` places of the ranking (one line per player, his best card)."""
    names = {pk: c.player.name for pk, c in state.cards.items()}
    if state.tournament.prizes:
        return [
            Placed(
                line.first or line.place,
                line.last or line.place,
                names[line.card],
                line.description,
            )
            for line in state.awards()
            if line.card is not None  # an award has its card
        ]
    lines, seen = [], set()
    for ranked in state.ranking():
        if ranked.first > TOP_PLACES:
            break
        if ranked.player not in seen:
            seen.add(ranked.player)
            lines.append(Placed(ranked.first, ranked.last, names[ranked.card]))
    return lines


def played_nights(
    club: Club, now: datetime.datetime | None = None, most: int = PAST_MOST
) -> list[Played]:
    """The club's finished nights (module docstring) among its ``most`` latest drawn ones
    that started before ``now``, the latest first, with their placed lines. One query,
    then ``load_state`` (4 to 5 queries) per night read."""
    now = now or timezone.now()
    drawn = Round.objects.live().filter(tournament=OuterRef("pk"))
    rows = (
        _main_nights(club)
        .filter(Exists(drawn), starts_at__lt=now)
        .order_by("-starts_at", "-id")[:most]
    )
    played = []
    for t in rows:
        t.club = club
        state = load_state(t)
        if finished(state):
            played.append(Played(t, placed_lines(state)))
    return played


def feed_nights(club: Club, now: datetime.datetime | None = None) -> list[Tournament]:
    """The nights of the club's calendar feed: its main events from ``FEED_DAYS`` days
    back on, the earliest first, at most ``FEED_MOST``. One query."""
    now = now or timezone.now()
    since = now - datetime.timedelta(days=FEED_DAYS)
    rows = _main_nights(club).filter(starts_at__gte=since).order_by("starts_at", "id")
    return list(rows[:FEED_MOST])


def night_end(t: Tournament) -> datetime.datetime:
    """When night ``t`` ends for a calendar: ``NIGHT_HOURS`` after its start."""
    return t.starts_at + datetime.timedelta(hours=NIGHT_HOURS)
