"""The desk page's context: one typed object (``DeskContext``) built once by
``desk_context``, for the card night (RULES.md 5) and for the Leben and points events
(5.10, 6), whose standings board fills the same fields."""

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.access import Access
from clubs.forms import rule_error_text
from scoring.rules import RuleError
from tournaments import draw, formats
from tournaments.categories import undecided
from tournaments.forms import SellForm, TablesForm
from tournaments.models import Card, Format, ResultCheck, Tournament
from tournaments.printing import cash_context
from tournaments.prizes import still_in
from tournaments.rows import Row, rows, waiting_reports
from tournaments.services.counts import lower_offer
from tournaments.services.formats import can_buy_life
from tournaments.services.reading import TournamentState
from tournaments.views.ranking import audit_context, draw_audit


@dataclass(frozen=True)
class Check:
    """A match to check at the desk: its score sheet says another outcome than the
    stored result (``row.conflict``); listed on the page of round ``round``."""

    round: int
    row: Row


def _optional(default=None):
    """A field one kind of desk has and the other has not: left out of the template's
    context while it is None."""
    return field(default=default, metadata={"optional": True})


@dataclass(frozen=True)
class DeskContext:
    """What the desk page shows. The first group every desk has; the optional fields
    are the card night's (``tables_form`` … ``category_lists``) or the other formats'
    (``board``, ``life_buyers``, ``life_price``)."""

    club: Any
    tournament: Tournament
    state: TournamentState
    access: Access
    cards: list[Card]
    in_play: set[int]  # the cards in play (card night) or still alive (board)
    playing: Any  # the cards that may be withdrawn (RULES.md 5.7)
    checks: list[Check]
    undecided: Any  # prizes waiting in shared ranges (RULES.md 5.8)
    players_in: int
    sell_form: SellForm
    next_pot: int | None
    open_matches: int
    next_round: int
    in_progress: Any  # a physical draw being typed in
    cancellable: bool  # a sale is cancelled until its card is drawn (RULES.md 5.1)
    draw_refusal: str | None
    lower_to: int | None
    bracket_url: str
    next_commitment: Any  # the draw commitment (RULES.md 5.12)
    last_digital: Any
    # the Kassa (``printing.cash_context``)
    cash: Any
    players: list
    unpaid: list
    split: Any
    paid_out: Any
    left_in_box: Any
    # results from the players' phones, in every format (``Tournament.result_check``)
    waiting: list
    result_checks: list
    new_key: Callable[[], uuid.UUID]
    # the card night's
    prizes: list | None = _optional()
    printed_at: datetime | None = _optional()
    tables_form: TablesForm | None = _optional()
    category_lists: list | None = _optional()  # category prizes (RULES.md 5.9)
    # the Leben and points events'
    board: Any = _optional()
    life_buyers: set[int] | None = _optional()  # who may buy a life now (RULES.md 5.10)
    life_price: Decimal | None = _optional()

    def as_context(self) -> dict[str, Any]:
        """The template's context: every field, the optional ones only when set."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if not (f.metadata.get("optional") and getattr(self, f.name) is None)
        }


def _round_one_refusal(tournament, state) -> tuple[str | None, int | None]:
    """Before round 1: why the draw would be refused (None when it can start) and the
    number of cards to lower to, when lowering helps (RULES.md 5.1)."""
    if state.rounds:
        return None, None
    in_play = len(state.in_play())  # sold minus withdrawn, as the draw counts (RULES.md 5.7)
    try:
        draw.check_can_draw_round_one(tournament.cards, in_play)
    except RuleError as error:
        return rule_error_text(error), lower_offer(tournament, in_play)
    return None, None


def _checks(state) -> list[Check]:
    """The matches to check, in round order, the placement matches (listed on the
    latest round's page) last."""
    checks = [
        Check(round_.number, row)
        for round_ in state.rounds
        for row in rows(state, state.pairings[round_.pk])
        if row.conflict
    ]
    checks += [
        Check(state.current.number, row) for row in rows(state, state.placement) if row.conflict
    ]
    return checks


def _cash(cash: dict) -> dict:
    """The Kassa's fields of ``printing.cash_context`` every desk shows."""
    keys = ("cash", "players", "unpaid", "split", "paid_out", "left_in_box")
    return {key: cash[key] for key in keys}


def _phones(state) -> dict:
    """The results from the players' phones every desk lists and checks, whatever the
    format: the reports waiting (disagreements first), the choice of how they become
    final, a fresh one-time key per form."""
    return {
        "waiting": waiting_reports(state),
        "result_checks": ResultCheck.choices,
        "new_key": uuid.uuid4,
    }


def desk_context(
    tournament: Tournament,
    access: Access,
    state: TournamentState,
    *,
    sell_form: SellForm | None = None,
    tables_form: TablesForm | None = None,
) -> DeskContext:
    """The desk of ``tournament`` as ``access`` sees it: the card night's, or a Leben or
    points event's filled from its standings board (``formats.board``)."""
    sell_form = sell_form or SellForm(initial={"key": uuid.uuid4()})
    cards = sorted(state.cards.values(), key=lambda c: c.number)
    bracket_url = reverse("bracket", kwargs={"token": tournament.public_token})
    cash = cash_context(tournament, state)
    if tournament.format != Format.CARDS:  # Leben and points events (RULES.md 5.10, 6)
        board = formats.board(state)
        entries = [c for c in cards if c.withdrawn_round is None]
        refusal = None
        if not state.rounds and len(entries) < 2:
            refusal = _("At least two players are needed.")
        alive = set() if board.finished else {ln.card.pk for ln in board.lines if ln.place is None}
        return DeskContext(
            club=tournament.club,
            tournament=tournament,
            state=state,
            access=access,
            cards=cards,
            in_play=alive,
            playing=formats.withdrawable(state, board),
            checks=_checks(state),
            undecided=undecided(state),
            players_in=len(alive),
            sell_form=sell_form,
            next_pot=board.next_count if board.next_round else None,
            open_matches=board.open_matches,
            next_round=len(state.rounds) + 1,
            in_progress=None,
            cancellable=not state.rounds,
            draw_refusal=refusal,
            lower_to=None,
            bracket_url=bracket_url,
            **draw_audit(state),
            **_cash(cash),
            **_phones(state),
            board=board,
            life_buyers={ln.card.pk for ln in board.lines if can_buy_life(state, ln.card, board)},
            life_price=tournament.life_price,
        )
    refusal, lower_to = _round_one_refusal(tournament, state)
    in_play = set(state.in_play())
    return DeskContext(
        club=tournament.club,
        tournament=tournament,
        state=state,
        access=access,
        cards=cards,
        in_play=in_play,
        playing=state.still_playing() if state.rounds else in_play,
        checks=_checks(state),
        undecided=undecided(state),
        players_in=len(still_in(state.cards[card_id] for card_id in in_play)),
        sell_form=sell_form,
        next_pot=state.next_pot_size(),
        open_matches=state.round_states[-1].open_matches if state.round_states else 0,
        next_round=len(state.rounds) + 1,
        in_progress=state.in_progress,
        cancellable=not state.rounds and state.in_progress is None,
        draw_refusal=refusal,
        lower_to=lower_to,
        bracket_url=bracket_url,
        **audit_context(state),
        **_cash(cash),
        **_phones(state),
        prizes=cash["prizes"],
        printed_at=cash["printed_at"],
        tables_form=tables_form
        or TablesForm(initial={"tables": tournament.tables, "seen": tournament.tables}),
    )
