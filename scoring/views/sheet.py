"""The score sheet page and what hangs off it: the sheet, its export, its private link
and its history. The entry forms' writes are in ``scoring.views.entry``.

Every view resolves the sheet with ``scoring.access.sheet_for`` (``with_sheet_access``)
and reads it through ``scoring.reading.read_sheet``. htmx requests get the ``#sheet``
partial; plain requests get the whole page, so the sheet works without JavaScript too.
A page shown again in the same state is taken as kept (``scoring.fragments``).
"""

import uuid
from functools import wraps

import segno
from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template import Context
from django.template.backends.django import Template as DjangoTemplate
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from base.errors import RuleError
from base.htmx import vary_on_htmx, wants_partial
from base.links import absolute_url
from clubs import audit
from clubs.forms import read_id, rule_error_text
from scoring import fragments, reading, upkeep
from scoring.access import SignInRequired, refreshed, sheet_for, sign_in
from scoring.display import (
    describe_change,
    describe_entry,
    entry_options,
    game_end,
    saved_gains,
    sheet_rows,
    tiebreak_dealer,
)
from scoring.forms import EntryForm
from scoring.models import Sheet
from scoring.rules import bauern
from scoring.transfer import export_document


def with_sheet_access(func, *, version: bool = False, post_writes: bool = True):
    """Resolve access first; an anonymous visitor without a link is sent to sign in.
    ``version``: the access carries the sheet's version, read in the same query.
    ``post_writes``: a POST needs the right to write (not for a POST that only asks
    for something again, as a failed printout's button does)."""

    @wraps(func)
    def wrapper(request, *args, pk=None, token=None, **kwargs):
        write = post_writes and request.method == "POST"
        try:
            access = sheet_for(request, pk=pk, token=token, write=write, version=version)
        except SignInRequired:
            # bummerl.middleware.SignInMiddleware answers an htmx request (401) and
            # sends a POST back to the page it came from once signed in.
            return vary_on_htmx(sign_in(request))
        return func(request, access, *args, **kwargs)

    return wrapper


RECENT_ROWS = 30
"""The sheet shows the newest rows; the whole list is one tap away (``?all=1``)."""


def sheet_context(
    request,
    access,
    scored,
    form=None,
    saved=None,
    error=None,
    notice=None,
    show_all=False,
    stale=None,
    marked=False,
):
    """The sheet page's context. ``marked``: rendered with the markers of
    ``scoring.fragments`` for the CSRF token and the one-time keys (``fragments.fill``
    puts them in), and the unbound entry forms taken as kept (``entry_forms``)."""
    state = scored.state
    players = scored.players
    if form is None and not marked:
        form = EntryForm(players=players, rules=state.rules)
    if not show_all:
        scored = reading.recent_part(scored)
    rows = sheet_rows(scored)
    hidden = 0 if show_all else max(0, len(rows) - RECENT_ROWS)
    base = access.url("page")
    # The badges name who deals next: the third player while a tie-break deal is due
    # (RULES.md 3.3), nobody once the Partie is decided.
    third = tiebreak_dealer(state)
    badges: dict[str, int | None]
    if state.is_closed:
        badges = {"dealer": None, "rufer": None}
    elif third is not None:
        badges = {"dealer": third, "rufer": None}
    else:
        two = state.variant == "schnapsen"
        badges = {"dealer": state.dealer, "rufer": None if two else state.rufer}
    tiebreak = None
    if third is not None:
        tiebreak = {
            "names": [players[s].name for s in state.awaiting_tiebreak],
            "dealer": players[third].name,
        }
    context = {
        "access": access,
        "sheet": access.sheet,
        "sheet_name": access.sheet.name_with(players),
        "state": state,
        "players": players,
        "teams": teams_of(state, players),
        "seats": seat_columns(players, state, badges),
        # The deal list, newest first, as one piece of HTML (a template loop over the
        # lines took a third of the page's rendering).
        "deal_list": mark_safe(
            "".join(
                reversed(
                    deal_lines(
                        rows[hidden:],
                        base,
                        access.can_write,
                        state.counts_down,
                        bummerl=state.variant == "schnapsen",
                    )
                )
            )
        ),
        # Lines shown only with ?all=1: the oldest rows, the deals of finished games.
        "hidden_rows": hidden + scored.first,
        "undo_url": f"{base}deals/{saved.pk}/void/" if saved else "",
        "rufer": state.rufer,
        "saved": saved,
        "saved_text": describe_entry(saved.entry, players, state.rules) if saved else "",
        # Two players: who got how many points by the saved deal ("Anna 2 Punkte").
        "saved_points": saved_gains(scored, saved) if state.variant == "schnapsen" else "",
        **series_context(access, scored),
        "game_end": game_end(scored, saved),
        "tiebreak": tiebreak,
        "error": error,
        "notice": notice,
        "stale": stale,
        # The state every write form was rendered from (reading.ScoredSheet.version).
        "after": scored.version,
        # Every form on the page has its own one-time key: two taps on two forms are
        # two entries, two taps on one form are one.
        "keys": fragments.KEYS if marked else {"redeal": uuid.uuid4(), "ended": uuid.uuid4()},
        # Joined to the page's address like the rows' (scoring.urls: one sheet's paths).
        "links": {
            "record": f"{base}record/",
            "page": base,
            "export": f"{base}export.json",
            "print_summary": f"{base}print/summary.pdf",
            "print_blank": f"{base}print/blank.pdf",
            "link": f"{base}link/",
            "history": f"{base}history/",
        },
    }
    if marked:
        context["csrf_token"] = fragments.CSRF
    if form is not None:
        context["form"] = form
        context["options"] = entry_options(form, players, state.rules, state.rufer)
    elif access.can_write and state.partie_winner is None and not state.awaiting_tiebreak:
        context["entry_forms"] = entry_forms(request, access, context)
    return context


def entry_forms(request, access, context) -> str:
    """The unbound entry forms of the sheet page with the markers of
    ``scoring.fragments``, as kept for the sheet and its Rufer (rendered and kept the
    first time): they differ from deal to deal only by who is Rufer."""
    state, players = context["state"], context["players"]
    key = fragments.forms_key(access, players, state.rufer)
    html = fragments.get(key)
    if html is None:
        form = EntryForm(
            players=players, rules=state.rules, initial={"key": fragments.KEYS["entry"]}
        )
        html = render_to_string(
            "scoring/sheet.html#entry-forms",
            {
                **context,
                "form": form,
                "options": entry_options(form, players, state.rules, state.rufer),
                "after": fragments.AFTER,
            },
            request,
        )
        fragments.put(key, html)
    return mark_safe(html)  # rendered by the template engine, markers only


def deal_lines(
    rows, base: str, can_write: bool, counts_down: bool, *, bummerl: bool = False
) -> list[str]:
    """The deal list's ``rows`` (``display.sheet_rows``) as HTML lines. ``base``: the
    page's address; ``bummerl``: a finished game is a Bummerl (two players, RULES.md 2),
    named so as the banner names it."""
    # One template context for the whole list: a context per line cost more than the line.
    found = get_template("scoring/sheet.html#deal-line")
    assert isinstance(found, DjangoTemplate)  # the site's one engine
    line = found.template
    context = Context(autoescape=True)
    lines: list[str] = []
    for row in rows:
        shown: tuple[tuple[str, object], ...]
        if row.game:
            shown = (("kind", "game"), ("game_number", row.game_number))
            shown += (("counts_down", counts_down), ("bummerl", bummerl))
            shown += (("final", row.final_text), ("text", row.text))
        elif row.line:
            # URLs joined by hand: reverse() per row would cost more than the row itself.
            deal = f"{base}deals/{row.deal.pk}/"
            shown = (("kind", "deal"), ("number", row.number), ("text", row.text))
            shown += (("points", row.points_text), ("can_write", can_write))
            shown += (("void", f"{deal}void/"), ("correct", f"{deal}correct/"))
        else:
            d = row.deal
            shown = (("kind", "voided"), ("text", row.text), ("voided_at", d.voided_at))
            shown += (("voided_by", d.voided_by), ("via_link", d.voided_via_link))
        with context.push(dict(shown)):
            lines.append(line.render(context))
    return lines


def seat_columns(players, state, badges) -> list[dict]:
    """The score table's columns, one per seat: ``name``, ``total`` (as the sheet shows
    it), ``tally`` (the Bummerl received, as text), whether the seat ``deals`` next or
    is ``rufer`` (``badges``), and its ``team`` (1 or 2, Bauernschnapsen; else None)."""
    teams = state.variant.teams
    return [
        {
            "name": player.name,
            "total": total,
            "tally": ngettext("%(n)s Bummerl", "%(n)s Bummerl", bummerl) % {"n": bummerl},
            "deals": seat == badges["dealer"],
            "rufer": seat == badges["rufer"],
            "team": bauern.team(seat) + 1 if teams else None,
        }
        for seat, (player, total, bummerl) in enumerate(
            zip(players, state.display_totals, state.tally, strict=True)
        )
    ]


def teams_of(state, players) -> list[dict]:
    """Bauernschnapsen: the two teams (seats 1+3, 2+4) and their names; an empty list
    for the other games."""
    if not state.variant.teams:
        return []
    return [
        {"number": t + 1, "names": " & ".join(players[s].name for s in bauern.team_seats(t))}
        for t in (0, 1)
    ]


def series_context(access, scored) -> dict:
    """Two players: the series score (``reading.series_score``), and once the Partie is
    decided the next Partie (its page when opened, else the form's one-time key)."""
    if scored.state.variant != "schnapsen":
        return {}
    series = reading.series_score(scored)
    context = {"series": series, "series_won": list(zip(scored.players, series.won, strict=True))}
    if scored.state.partie_winner is not None and not access.sheet.reports_result:
        following = reading.next_partie_of(access.sheet)
        context["next_partie_url"] = _page_of(access, following) if following else ""
        context["next_partie_key"] = uuid.uuid4()
    return context


def _page_of(access, sheet: Sheet) -> str:
    """The page of ``sheet`` the way ``access`` reached this one (account or link)."""
    if access.namespace == "entry":
        return reverse("entry:page", kwargs={"token": sheet.entry_token})
    return reverse("sheet:page", kwargs={"pk": sheet.pk})


@require_POST
@with_sheet_access
def next_partie(request, access):
    """Open the next Partie on the same seats (``upkeep.open_next_partie``) and go to
    it; a second tap, or the other phone, lands on the same new sheet."""
    if not access.can_write:
        return HttpResponse(status=403)
    try:
        key = uuid.UUID(request.POST.get("key", ""))
    except ValueError:
        return HttpResponse(status=400)
    try:
        following = upkeep.open_next_partie(access.sheet, key, access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
        return vary_on_htmx(redirect(access.url("page")))
    url = _page_of(access, following)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return vary_on_htmx(response)
    return vary_on_htmx(redirect(url))


def render_sheet(request, access, scored, status=200, keep=None, **extra):
    """The sheet page (or its ``#sheet`` partial) of ``scored``, rendered with the
    markers of ``scoring.fragments`` and filled in for this response. ``keep``: the
    cache key (``fragments.key``) under which to keep it, when it may be kept (no bound
    form, no banner, ``fragments.keeps``)."""
    if request.method == "POST":
        access = refreshed(access)
    context = sheet_context(request, access, scored, marked=True, **extra)
    name = "scoring/sheet.html#sheet" if wants_partial(request) else "scoring/sheet.html"
    html = render_to_string(name, context, request)
    banners = ("form", "saved", "error", "notice", "stale")
    if (
        keep
        and not any(extra.get(k) for k in banners)
        and fragments.keeps(access.sheet, scored.state)
    ):
        fragments.put(keep, html)
    return vary_on_htmx(HttpResponse(fragments.fill(html, request, scored.version), status=status))


def _as_read(scored, stats) -> bool:
    """Whether ``scored`` is the sheet as ``stats`` (read just before, the key of its
    kept page) tell it: no write, no account renamed in between (the players' names
    shown are those of the access, which the key takes too)."""
    struck_by = (stats.struck_by or "").split(" ")
    return scored.version == stats.version and all(
        d.voided_by in struck_by for d in scored.deals if d.voided_by is not None
    )


@require_safe
@with_sheet_access
def page(request, access):
    """The sheet. Shown again in the same state (without ``?saved=`` or a message to
    show), it is taken as kept (``scoring.fragments``): 4 queries (the session, its
    user, the access with the players, the deals' aggregate); else read, rendered
    and kept."""
    show_all = request.GET.get("all") == "1"
    saved_id = read_id(request.GET, "saved")  # the deal just saved (None: none, or garbled)
    sheet = access.sheet
    stats = keep = None
    if saved_id is None and fragments.may_have(sheet) and not messages.get_messages(request):
        stats = reading.sheet_stats(sheet, struck_by=True)
        keep = fragments.key(request, access, stats)
        html = fragments.get(keep)
        if html is not None:
            return vary_on_htmx(HttpResponse(fragments.fill(html, request, stats.version)))
    players = access.players
    if show_all:
        scored = reading.read_sheet(sheet, players)
    else:
        scored = reading.read_recent(sheet, players, stats=stats)
    if stats is not None and not _as_read(scored, stats):
        keep = None  # written or renamed meanwhile: the body shown is not that of the key
    saved = None
    if saved_id is not None:
        saved = next((d for d in scored.deals if d.pk == saved_id and d.voided_at is None), None)
    return render_sheet(request, access, scored, saved=saved, show_all=show_all, keep=keep)


@require_safe
@with_sheet_access
def export(request, access):
    document = export_document(reading.read_sheet(access.sheet, access.players))
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="bummerl-{access.sheet.pk}.json"'
    return response


@require_safe
@with_sheet_access
def link(request, access):
    """The private entry link with its QR code (organisers, signed in)."""
    if not access.can_manage:
        return HttpResponse(status=403)
    url = absolute_url(request, f"/e/{access.sheet.entry_token}/")
    qr = segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff")
    return render(
        request,
        "scoring/link.html",
        {
            "access": access,
            "sheet": access.sheet,
            "sheet_name": access.sheet.name_with(access.players),
            "url": url,
            "qr": qr,
        },
    )


@require_POST
@with_sheet_access
def link_change(request, access, action):
    if not access.can_manage:
        return HttpResponse(status=403)
    if action == "revoke":
        upkeep.revoke_link(access.sheet, access.actor)
    elif action == "renew":
        upkeep.renew_link(access.sheet, access.actor)
    else:
        return HttpResponse(status=404)
    return redirect(access.url("link"))


@require_safe
@with_sheet_access
def history(request, access):
    """Who changed what on this sheet, and when (organisers)."""
    if not access.can_manage:
        return HttpResponse(status=403)
    entries = audit.history("sheet", access.sheet.pk)[:500]
    rows = audit.history_rows(
        entries, describe_change(reading.read_sheet(access.sheet, access.players))
    )
    return render(
        request,
        "audit.html",
        {"title": str(access.sheet), "rows": rows, "back": access.url("page")},
    )
