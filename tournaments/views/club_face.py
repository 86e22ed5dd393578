"""The club's public face (issue 28), for clubs whose owner made it public
(``Club.public_page``): its page (``/k/<slug>/``: upcoming nights, results), the same as
JSON and as a calendar feed, the stylesheet of its colour, and the widgets other sites
show in a frame (the next nights, a night's live bracket). A registered player's own
calendar hangs under his registration's private link.

Every answer here is read only and carries no phone, e-mail, payment, transfer
reference or private link (``tournaments.nights``); anything of a club that is not
public answers 404.
"""

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from base.csp import frameable
from base.links import absolute_url
from clubs.models import Club
from tournaments import feeds, nights
from tournaments.models import ACTIVE_REGISTRATION, Format, Registration, Tournament
from tournaments.views.public import public_bracket_context, public_tournament

BRACKET_REFRESH = 30
"""Seconds after which a framed live bracket loads itself again (a ``<meta>`` refresh:
the widget runs no script)."""


def public_club(slug: str) -> Club:
    """The club of ``slug`` when its page is public; 404 otherwise (unknown or not)."""
    club = Club.objects.filter(slug=slug, public_page=True).first()
    if club is None:
        raise Http404
    return club


def _club_context(request, club: Club) -> dict:
    return {
        "club": club,
        "upcoming": nights.upcoming_nights(club),
        "played": nights.played_nights(club),
        "calendar_url": absolute_url(request, reverse("club_calendar", kwargs={"slug": club.slug})),
    }


@require_safe
def club_page(request, slug):
    """The club's public page: its upcoming nights (date, time, venue, format, free
    cards, a link to each night's public page) and the results of the nights played
    (the prizes given or the first places, a link to the bracket)."""
    club = public_club(slug)
    return render(request, "tournaments/club_page.html", _club_context(request, club))


def night_json(request, t: Tournament) -> dict:
    """A night as the club's JSON gives it (no contact, payment or private link)."""
    return {
        "name": t.name,
        "starts_at": t.starts_at.isoformat(),
        "ends_at": nights.night_end(t).isoformat(),
        "venue": t.venue,
        "format": t.format,
        "cards": t.cards,
        "max_cards": t.max_cards,
        "entry_fee": str(t.entry_fee),
        "match_bummerl": t.match_bummerl,
        "url": absolute_url(request, nights.public_path(t)),
    }


@require_safe
def club_json(request, slug):
    """The club's page as JSON: ``club`` (``name``, ``slug``, ``colour``, ``url``),
    ``upcoming`` (each night's ``name``, ``starts_at``/``ends_at`` (ISO 8601, UTC),
    ``venue``, ``format``, ``cards``, ``max_cards``, ``entry_fee`` (euros, a decimal
    string), ``match_bummerl``, ``url``, ``free`` cards, ``registration_open``,
    ``started``) and ``results`` (each night's fields as above and ``placed``: ``first``,
    ``last``, ``name``, ``prize``)."""
    club = public_club(slug)
    document = {
        "club": {
            "name": club.name,
            "slug": club.slug,
            "colour": club.colour,
            "url": absolute_url(request, reverse("club_page", kwargs={"slug": club.slug})),
        },
        "upcoming": [
            {
                **night_json(request, n.tournament),
                "free": n.free,
                "registration_open": n.registration_open,
                "started": n.started,
            }
            for n in nights.upcoming_nights(club)
        ],
        "results": [
            {
                **night_json(request, p.tournament),
                "placed": [
                    {"first": x.first, "last": x.last, "name": x.name, "prize": x.prize}
                    for x in p.placed
                ],
            }
            for p in nights.played_nights(club)
        ],
    }
    return JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 1})


def _ics(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=feeds.CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@require_safe
def club_calendar(request, slug):
    """The club's calendar feed (``feeds.calendar``): its nights from
    ``nights.FEED_DAYS`` days back on, each with its public page as URL."""
    club = public_club(slug)
    body = feeds.calendar(
        club.name,
        club.slug,
        nights.feed_nights(club),
        lambda t: absolute_url(request, nights.public_path(t)),
    )
    return _ics(body, f"{club.slug}.ics")


@require_safe
def registration_calendar(request, token):
    """A registered player's calendar, under his registration's feed token
    (``/p/cal/<feed_token>/calendar.ics``, never the token that changes or cancels it): the
    nights of that club he stands registered for
    (a status of ``ACTIVE_REGISTRATION``; this registration and those of the same folded
    name and the same contact), each with its cards and status. It names the nights' public pages only, never a registration's link; the
    club's page need not be public. 404 for an unknown token."""
    r = Registration.objects.filter(feed_token=token).select_related("tournament__club").first()
    if r is None:
        raise Http404
    club = r.tournament.club
    # His other registrations are those made with the same name and the same contact:
    # a name alone is anybody's to type, so without a contact the feed has this one only.
    mine = Registration.objects.filter(pk=r.pk)
    if r.contact:
        mine = Registration.objects.filter(
            tournament__club=club, name_fold=r.name_fold, contact__iexact=r.contact
        )
    standing = {s.tournament_id: s for s in mine.filter(status__in=ACTIVE_REGISTRATION)}
    rows = Tournament.objects.filter(pk__in=standing).order_by("starts_at", "id")
    body = feeds.calendar(
        f"{club.name} · {r.name}",
        club.slug,
        rows,
        lambda t: absolute_url(request, nights.public_path(t)),
        lambda t: feeds.registration_note(
            standing[t.pk].cards, str(standing[t.pk].get_status_display())
        ),
        lambda t: feeds.registration_uid(t, club.slug, standing[t.pk].pk),
    )
    return _ics(body, "anmeldungen.ics")


@require_safe
def feed_moved(request, token):
    """The feed's first address, under the registration's own link
    (``/p/r/<token>/calendar.ics``): 410 Gone for every token, known or not, so that the
    link that cancels a registration opens no feed and tells nothing of it."""
    return HttpResponse(status=410)


def text_colour(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (``#rrggbb``), by its
    relative luminance (WCAG 2: the contrast of each against it)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "#000000" if (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) else "#ffffff"


@require_safe
def colour_css(request, slug):
    """The club's colour as a stylesheet (``--club``, and ``--club-text`` to write on
    it) for its public page and widgets: pages carry no inline style (``base.csp``)."""
    club = public_club(slug)
    body = f":root {{ --club: {club.colour}; --club-text: {text_colour(club.colour)}; }}\n"
    return HttpResponse(body, content_type="text/css; charset=utf-8")


@require_safe
@frameable
def nights_widget(request, slug):
    """Widget: the club's next nights (date, time, venue, format, free cards), each
    linked to its public page (opened outside the frame)."""
    club = public_club(slug)
    context = {
        "club": club,
        "upcoming": nights.upcoming_nights(club)[: nights.WIDGET_NIGHTS],
        "club_url": absolute_url(request, reverse("club_page", kwargs={"slug": club.slug})),
        "title": _("Next nights"),
    }
    return render(request, "widgets/nights.html", context)


@require_safe
@frameable
def bracket_widget(request, token):
    """Widget: a night's live bracket (the public bracket's columns and prizes), loaded
    again every ``BRACKET_REFRESH`` seconds. 404 unless the night's club page is public,
    and for a Leben or points event (their standings board has no widget)."""
    t = public_tournament(token)
    if not t.club.public_page or t.format != Format.CARDS:
        raise Http404
    context = public_bracket_context(t)
    context.update(
        club=t.club,
        refresh=BRACKET_REFRESH,
        title=t.name,
        club_url=absolute_url(request, nights.public_path(t)),
    )
    return render(request, "widgets/bracket.html", context)
