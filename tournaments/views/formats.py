"""The pages of the Leben and points formats (RULES.md 5.10, 6) beside the card night's:
the desk's part (the standings board, buying a life, a player's team), the public
standings board for the screen in the room, and the printed standings."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from base.htmx import partial_or_page
from base.printing import pdf_response
from clubs.forms import read_id, rule_error_text
from clubs.models import Role
from scoring.rules import RuleError
from tournaments import formats
from tournaments.categories import overall_prizes, undecided
from tournaments.forms import SellForm
from tournaments.models import Format, Tournament
from tournaments.money import euro
from tournaments.printing import cash_context
from tournaments.services import formats as writers
from tournaments.services.reading import load_state
from tournaments.views.common import tournament_for
from tournaments.views.ranking import draw_audit

CASH_KEYS = ("cash", "players", "unpaid", "split", "paid_out", "left_in_box")
"""The keys of ``printing.cash_context`` the desk of a Leben or points event shows."""


def desk_context(tournament, access, state, sell_form=None, checks=()) -> dict:
    """The desk page's context for a Leben or points event: the keys of the card night's
    desk, filled from the standings board (``formats.board``), plus ``board``;
    ``can_rebuy`` and ``life_price`` for the board's *+1 life*."""
    board = formats.board(state)
    cards = sorted(state.cards.values(), key=lambda c: c.number)
    entries = [c for c in cards if c.withdrawn_round is None]
    refusal = None
    if not state.rounds and len(entries) < 2:
        refusal = _("At least two players are needed.")
    alive = {line.card.pk for line in board.lines if line.place is None}
    if board.finished:
        alive = set()
    return {
        "club": tournament.club,
        "tournament": tournament,
        "state": state,
        "cards": cards,
        # The Kassa as the card night's: cards and lives bought (RULES.md 5.10)
        **{k: v for k, v in cash_context(tournament, state).items() if k in CASH_KEYS},
        "in_play": alive,
        "playing": formats.withdrawable(state, board),  # may be withdrawn (RULES.md 5.7)
        "checks": list(checks),
        "undecided": undecided(state),  # prizes waiting in shared ranges (RULES.md 5.8)
        "players_in": len(alive),
        "sell_form": sell_form or SellForm(initial={"key": uuid.uuid4()}),
        "access": access,
        "next_pot": board.next_count if board.next_round else None,
        "open_matches": board.open_matches,
        "next_round": len(state.rounds) + 1,
        "in_progress": None,
        "cancellable": not state.rounds,  # a sale until its entry is drawn (RULES.md 5.1)
        "draw_refusal": refusal,
        "lower_to": None,
        "bracket_url": reverse("bracket", kwargs={"token": tournament.public_token}),
        "board": board,
        # who may buy a life now (the service's rule, RULES.md 5.10)
        "life_buyers": {
            line.card.pk for line in board.lines if writers.can_buy_life(state, line.card, board)
        },
        "life_price": tournament.life_price,
        **draw_audit(state),
    }


@login_required
@require_POST
def buy_life(request, slug, tournament_id, card_id):
    """Buy one more life for a Leben player (organisers); ``seen``: the lives bought the
    desk showed, so a second tap buys nothing."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    seen = read_id(request.POST, "seen", min_value=0)
    try:
        # A missing or garbled ``seen`` is refused as an out-of-date page.
        shown = -1 if seen is None else seen
        card = writers.buy_life(t, card_id, access.actor, shown)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        messages.success(
            request,
            ngettext(
                "%(name)s bought a life for %(price)s, paid: %(n)s life left.",
                "%(name)s bought a life for %(price)s, paid: %(n)s lives left.",
                card.lives_left,
            )
            % {"name": card.player.name, "n": card.lives_left, "price": euro(t.life_price)},
        )
    return redirect(reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#board")


@login_required
@require_POST
def set_team(request, slug, tournament_id, card_id):
    """Name a player's team in a points event (organisers); empty: no team."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    try:
        writers.set_team(t, card_id, request.POST.get("team", "")[:200], access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    return redirect(reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#board")


def board_context(t: Tournament) -> dict:
    """The public standings board (no private data): the board and the prize list."""
    state = load_state(t)
    board = formats.board(state)
    return {
        "tournament": t,
        "board": board,
        "prizes": overall_prizes(state),
        "rounds": len(state.rounds),
        **draw_audit(state),
    }


def public_board(request, t: Tournament):
    """The live standings board for the screen in the room; htmx polls the partial."""
    return partial_or_page(request, "tournaments/standings.html", "live", board_context(t))


@login_required
@require_safe
def print_standings(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id)
    if t.format == Format.CARDS:
        raise Http404
    return pdf_response(request, "print/standings.html", board_context(t), f"wertung-{t.pk}.pdf")
