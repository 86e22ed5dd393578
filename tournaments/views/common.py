"""What every tournament page needs: the tournament behind the club's access check (whose
``Access.actor`` writes), the confirmation step and the rows of a pairing list."""

import re

from django.http import Http404
from django.shortcuts import render

from base.text import name_search
from clubs.access import Access, access_for
from clubs.models import Role
from tournaments.models import Kind, Tournament
from tournaments.rows import Row, rows


def tournament_for(request, slug, tournament_id, role=Role.MEMBER) -> tuple[Tournament, Access]:
    """The club's tournament and the user's ``Access`` to its club, after the club's
    access check (404 / 403, ``clubs.access.access_for``); 404 for another club's
    tournament."""
    access = access_for(request, slug, role)
    tournament = (
        Tournament.objects.filter(club=access.club, pk=tournament_id).select_related("club").first()
    )
    if tournament is None:
        raise Http404
    return tournament, access


def confirm(request, t, question, details, yes, back, fields=()):
    """A confirmation step that works without JavaScript: the page asks ``question`` and
    posts the same action again with ``confirm=1`` (and ``fields``)."""
    return render(
        request,
        "tournaments/confirm.html",
        {
            "club": t.club,
            "tournament": t,
            "question": question,
            "details": details,
            "yes": yes,
            "back": back,
            "action": request.path,
            "fields": list(fields),
        },
    )


def confirmed(request) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "1"


def pairing_rows(state, pairings, only_open=False, player_query="") -> list[Row]:
    """``rows.rows`` filtered: open matches only, or a player's name (umlauts folded)."""
    query = name_search(player_query) if player_query else None
    shown = []
    for row in rows(state, pairings):
        if query and not name_matches(row, query):
            continue
        if only_open and (row.kind != Kind.MATCH or row.result is not None):
            continue
        shown.append(row)
    return shown


def name_matches(row: Row, query: re.Pattern[str]) -> bool:
    """Whether a player of ``row`` has ``query`` (``base.text.name_search`` of a search)
    in his name (``Player.name_key``: umlauts folded, "oe" as "ö")."""
    return any(query.search(c.player.name_key) for c in (row.left, row.right) if c)
