"""What the printed Preisschnapsen documents show and how a night's printout is made
(``night_pdf``: in the request or by the task worker, one ``*_job`` per printout): draw
list, match score sheets (one per Partie, with its QR code), prize list and cash report.
The bracket sheet is ``tournaments.bracket_sheet``; the call list, *Wo spiele ich?* and
the personal links are ``tournaments.venue_lists``. Each context function returns a
template context for ``base.printing``; the desk shows the cash report from the same."""

from dataclasses import dataclass, replace
from decimal import Decimal

from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from base.links import absolute_url
from base.printing import pdf_response, qr_png, queued_pdf_response
from clubs.models import AuditEntry
from tournaments import sheet_grid
from tournaments.bracket_sheet import bracket_context
from tournaments.categories import category_lists, listed, money_split
from tournaments.models import Card, Pull, ResultCheck, Round, Tournament
from tournaments.prizes import cash, player_cash
from tournaments.rows import Row, rows
from tournaments.services.reading import TournamentState, load_state
from tournaments.venue_lists import calls_context, personal_links_context, seats_context

HEAVY_SHEETS = 32
"""A round with more matches than this has its match sheets made by the task worker
(``base.printing.queued_pdf_response``): the 512 sheets of a 1024-card night's round 1
take some 4 s to read (a QR code each) and 9 s to lay out, measured on a small laptop;
32 take well under a second."""

HEAVY_CARDS = 512
"""A night of this many cards or more has its bracket, draw list, call list, *Wo spiele
ich?*, cash report, personal links and (Leben and points nights) standings made by the
task worker: on a 1024-card night each takes from 1.3 s (the bracket) to 7.6 s (*Wo
spiele ich?*), measured (``make bench``); the standings of 1024 entries some 8 s."""


def night_state(t: Tournament) -> str:
    """What a printout of ``t`` shows, as a short text that changes with it: the id of
    the club's latest history entry (every writer records one) and the tournament's."""
    latest = AuditEntry.objects.filter(club_id=t.club_id).order_by("-id").values_list("id")[:1]
    return f"{t.pk}:{next(iter(latest), (0,))[0]}"


printout_view = require_http_methods(["GET", "HEAD", "POST"])
"""The methods of a printout's view: POST is the button that begins a failed printout
again (``base.printing.queued_pdf_response``)."""


def night_pdf(request, t: Tournament, job: str, args: tuple, filename: str, *, heavy: bool):
    """The printout ``job`` of ``t`` (a function of this module: ``job(t.pk, *args,
    base=…)`` -> (template, context)) as an inline PDF named ``filename``: made in the
    request, or when ``heavy`` by the task worker (``queued_pdf_response``, kept per
    ``night_state``). ``base``: the site's address, for the QR codes' links."""
    if request.method == "POST" and not heavy:  # made in the request: nothing to begin again
        return HttpResponseRedirect(request.get_full_path(), status=303)
    if heavy:
        path = f"{__name__}.{job}"
        return queued_pdf_response(request, path, (t.pk, *args), filename, night_state(t))
    template, context = globals()[job](t.pk, *args, base=absolute_url(request, "/").rstrip("/"))
    return pdf_response(request, template, context, filename)


def _night(tournament_id: int) -> Tournament:
    return Tournament.objects.select_related("club").get(pk=tournament_id)


def bracket_job(tournament_id: int, *, base: str) -> tuple[str, dict]:
    """The bracket sheet (``night_pdf``)."""
    return "print/bracket.html", bracket_context(_night(tournament_id))


def match_sheets_job(tournament_id: int, round_id: int, *, base: str) -> tuple[str, dict]:
    """The match sheets of a round, their QR codes' links on ``base`` (``night_pdf``)."""
    t = _night(tournament_id)
    round_ = Round.objects.get(pk=round_id, tournament=t)
    return "print/match_sheets.html", match_sheets_context(t, round_, lambda path: base + path)


def draw_job(tournament_id: int, round_id: int, *, base: str) -> tuple[str, dict]:
    """The draw list of a round (``night_pdf``)."""
    t = _night(tournament_id)
    return "print/draw.html", draw_context(t, Round.objects.get(pk=round_id, tournament=t))


def seats_job(tournament_id: int, *, base: str) -> tuple[str, dict]:
    """*Wo spiele ich?* (``night_pdf``)."""
    return "print/seats.html", seats_context(_night(tournament_id))


def cash_job(tournament_id: int, *, base: str) -> tuple[str, dict]:
    """The cash report (``night_pdf``)."""
    return "print/cash.html", cash_context(_night(tournament_id))


def personal_links_job(tournament_id: int, *, base: str) -> tuple[str, dict]:
    """The players' personal links, their QR codes on ``base`` (``night_pdf``)."""
    t = _night(tournament_id)
    return "print/personal_links.html", personal_links_context(t, lambda path: base + path)


def calls_job(tournament_id: int, round_id: int, *, base: str) -> tuple[str, dict]:
    """The call list of a physical draw being typed in (``night_pdf``)."""
    t = _night(tournament_id)
    round_ = Round.objects.get(pk=round_id, tournament=t)
    return "print/calls.html", calls_context(t, round_)


def draw_context(t: Tournament, round_: Round) -> dict:
    state = load_state(t)
    pulls = (
        Pull.objects.live().filter(round=round_).select_related("player", "card").order_by("index")
    )
    return {
        "tournament": t,
        "round": round_,
        "rows": rows(state, state.pairings.get(round_.pk, [])),
        "pulls": pulls,
    }


def match_sheets_context(t: Tournament, round_: Round, build_url) -> dict:
    """One A6 sheet per match of the round (and the open placement matches with it), with
    the match link's QR code, or, while the tournament checks results
    (``result_check`` "confirm"), each player's link's code under his name."""
    state = load_state(t)
    checked = t.result_check == ResultCheck.CONFIRM
    pairings = list(state.pairings.get(round_.pk, []))
    if round_ == state.current:
        pairings += state.placement

    def sheet(row: Row) -> Row:
        pairing = row.pairing
        if checked:
            sides = (pairing.left_token, pairing.right_token)
            side_qrs = tuple(
                qr_png(build_url(reverse("side_link", kwargs={"token": token}))) for token in sides
            )
            return row.with_(title=row.name, side_qrs=side_qrs)
        qr = qr_png(build_url(reverse("match_link", kwargs={"token": pairing.token})))
        return row.with_(title=row.name, qr=qr)

    most = t.match_games or 2 * t.match_bummerl - 1  # the Bummerl a match can last
    headings = tuple(_("Bummerl %(n)s") % {"n": n} for n in range(1, most + 1))
    return {
        "tournament": t,
        "rows": [sheet(row) for row in rows(state, pairings) if row.kind == "match"],
        "grid": sheet_grid.grid(headings),
    }


def prizes_context(t: Tournament) -> dict:
    state = load_state(t)
    split = money_split(t, cash(t.entry_fee, state.cards.values(), t.life_price).in_box)
    money = {(p.label, p.place): p.amount for p in split.payouts}

    def priced(label, lines):
        return [replace(line, money=money.get((label, line.place))) for line in lines]

    lists = [
        replace(lst, lines=priced(lst.category.name, lst.lines)) for lst in category_lists(state)
    ]
    prizes = priced("", listed(state, state.prize_lines))  # every prize, given or open
    return {"tournament": t, "prizes": prizes, "category_lists": lists, "split": split}


@dataclass(frozen=True)
class PrizeWon:
    """A prize handed out (``ledger.PrizeLine``) with its ``card`` and the money its holder
    still ``owes`` (euros, 0: all paid)."""

    place: int
    description: str
    card: Card
    owes: Decimal
    money: Decimal | None = None


def cash_context(t: Tournament, state: TournamentState | None = None) -> dict:
    """The cash report (the desk's and the PDF's): ``cash``, the takings (cards paid at
    the entry fee and, in Leben, the lives bought at the life fee, RULES.md 5.10: what
    is in the box), what is unpaid and by whom (``unpaid``), the money per player
    (``players``), the prizes handed out so far with who won them (``prizes``, with the
    ``money`` each pays), the ``split`` of the takings into money prizes and the house's
    share (RULES.md 5.5), ``paid_out`` (the money prizes handed out so far) and
    ``left_in_box`` (what the box holds after them)."""
    state = state or load_state(t)
    cards = list(state.cards.values())
    players = player_cash(t.entry_fee, t.max_cards, cards, t.life_price)
    owes = {line.player.pk: line.owed for line in players}
    money = cash(t.entry_fee, cards, t.life_price)
    split = money_split(t, money.in_box)
    paying = {p.place: p.amount for p in split.payouts if not p.label}
    prizes = [
        PrizeWon(a.place, a.description, state.cards[a.card], owes[a.player], paying.get(a.place))
        for a in state.awards()
        if a.card is not None and a.player is not None  # (an award has both)
    ]
    paid_out = sum((p.money for p in prizes if p.money is not None), Decimal(0))
    return {
        "tournament": t,
        "cash": money,
        "split": split,
        "paid_out": paid_out,
        "left_in_box": money.in_box - paid_out,
        "players": players,
        "unpaid": [line for line in players if line.unpaid],
        "prizes": prizes,
        "printed_at": timezone.localtime(),
    }
