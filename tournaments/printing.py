"""What the printed Preisschnapsen documents show: bracket sheet, draw list, match score
sheets, prize list, cash report, the call list of a draw at the venue and the list of
where each player plays. Each function returns a template context for
``bummerl.printing``; the desk shows the cash report and the lists from the same."""

from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from bummerl.printing import qr_png
from clubs.models import Player
from tournaments import sheet_grid
from tournaments.models import Card, Pull, ResultCheck, Round, Tournament
from tournaments.prizes import cash, player_cash
from tournaments.rows import Row, SheetRow, bracket_columns, round_name, rows
from tournaments.services.reading import TournamentState, load_state, physical_session


@dataclass(frozen=True)
class PrizeLine:
    """A line of the printed prize list: prize ``place``, its ``description`` and the
    ``card`` that won it (None while not known)."""

    place: int
    description: str
    card: Card | None


ONE_PAGE_CARDS = 64
"""Up to this many cards the bracket fits one A4 landscape page, rounds side by side."""


def bracket_context(t: Tournament) -> dict:
    """Every round as a column; before round 1 a blank bracket to fill in by hand."""
    state = load_state(t)
    return {
        "tournament": t,
        "columns": bracket_columns(state, blank_for=t.cards),
        "one_page": t.cards <= ONE_PAGE_CARDS,
        "small": t.cards > 16,
    }


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

    def sheet(row: Row) -> SheetRow:
        pairing = row.pairing
        if checked:
            sides = (pairing.left_token, pairing.right_token)
            side_qrs = tuple(
                qr_png(build_url(reverse("side_link", kwargs={"token": token}))) for token in sides
            )
            return SheetRow(**vars(row), title=row.name, side_qrs=side_qrs)
        qr = qr_png(build_url(reverse("match_link", kwargs={"token": pairing.token})))
        return SheetRow(**vars(row), title=row.name, qr=qr)

    headings = tuple(_("Bummerl %(n)s") % {"n": n} for n in range(1, 2 * t.match_bummerl))
    return {
        "tournament": t,
        "rows": [sheet(row) for row in rows(state, pairings) if row.kind == "match"],
        "grid": sheet_grid.grid(headings),
    }


def prizes_context(t: Tournament) -> dict:
    state = load_state(t)
    awarded = {a.place: state.cards[a.card] for a in state.awards()}
    prizes = [
        PrizeLine(int(p["place"]), p["description"], awarded.get(int(p["place"])))
        for p in sorted(t.prizes, key=lambda p: int(p["place"]))
    ]
    return {"tournament": t, "prizes": prizes}


@dataclass(frozen=True)
class PrizeWon:
    """A prize handed out (``prizes.Award``) with its ``card`` and the money its holder
    still ``owes`` (euros, 0: all paid)."""

    place: int
    description: str
    card: Card
    owes: object


def cash_context(t: Tournament, state: TournamentState | None = None) -> dict:
    """The cash report (the desk's and the PDF's): the takings (cards paid at the entry
    fee), what is unpaid and by whom, the money per player, the prizes handed out so far
    with who won them (a prize is as typed: goods or money)."""
    state = state or load_state(t)
    cards = list(state.cards.values())
    players = player_cash(t.entry_fee, t.max_cards, cards)
    owes = {line.player.pk: line.owed for line in players}
    prizes = [
        PrizeWon(a.place, a.description, state.cards[a.card], owes[a.player])
        for a in state.awards()
    ]
    return {
        "tournament": t,
        "cash": cash(t.entry_fee, cards),
        "players": players,
        "unpaid": [line for line in players if line.unpaid],
        "prizes": prizes,
        "printed_at": timezone.localtime(),
    }


@dataclass(frozen=True)
class Call:
    """A holder called up at a draw at the venue: ``position`` in the call list (1 …),
    the ``player``, his ``cards`` (numbers, in the order he draws them), the numbers
    he pulled so far (``pulled``: "left 3", put-back pulls left out), and whether he is
    ``done``, drawing ``now``, or waiting; ``owed``: euros he has not paid yet."""

    position: int
    player: Player
    cards: tuple[int, ...]
    pulled: tuple[tuple[str, int], ...]
    done: bool
    now: bool
    owed: object


def call_list(state: TournamentState, round_: Round) -> list[Call]:
    """The call list of the draw of ``round_`` being typed in (RULES.md 5.2, 5.4): every
    holder in the order the site calls them (``draw.physical_order``: in later rounds the
    holders of several cards first), each once with all his cards, as far as drawn."""
    session = physical_session(state, round_)
    owes = {
        line.player.pk: line.owed
        for line in player_cash(
            state.tournament.entry_fee, state.tournament.max_cards, state.cards.values()
        )
    }
    pulled: dict[int, list[tuple[str, int]]] = {}
    for pull in session.pulls:
        if not pull.put_back:
            pulled.setdefault(pull.player, []).append((str(pull.pot), pull.number))
    turn = session.next_turn()
    calls = []
    for holder in session.holders:
        own = pulled.get(holder.player, [])
        calls.append(
            Call(
                position=len(calls) + 1,
                player=state.cards[holder.cards[0]].player,
                cards=tuple(state.cards[c].number for c in holder.cards),
                pulled=tuple(own),
                done=len(own) == len(holder.cards),
                now=turn is not None and turn[0] == holder.player,
                owed=owes.get(holder.player, 0),
            )
        )
    return calls


def calls_context(t: Tournament, round_: Round) -> dict:
    state = load_state(t)
    return {
        "tournament": t,
        "round": round_,
        "round_name": round_name(round_.number, round_.pot_size),
        "calls": call_list(state, round_),
    }


@dataclass(frozen=True)
class Seat:
    """A line of "where do I play": ``player`` with ``card`` plays ``row`` (its match's
    name, table and opponent) against ``other``."""

    player: Player
    card: Card
    other: Card
    row: Row


def seats(state: TournamentState) -> list[Seat]:
    """Where each player plays in the latest round drawn: a line per card in an open
    match (main draw and the placement matches listed with it), sorted by the player's
    name in German order (``Player.name_key``), then by card number."""
    current = state.current
    if current is None or current.drawn_at is None:
        return []
    pairings = [*state.pairings[current.pk], *state.placement]
    lines = []
    for row in rows(state, pairings):
        if row.kind != "match" or row.result is not None:
            continue
        lines.append(Seat(row.left.player, row.left, row.right, row))
        lines.append(Seat(row.right.player, row.right, row.left, row))
    return sorted(lines, key=lambda s: (s.player.name_key, s.player.pk, s.card.number))


def seats_context(t: Tournament) -> dict:
    state = load_state(t)
    current = state.current if state.current and state.current.drawn_at else None
    return {
        "tournament": t,
        "round_name": round_name(current.number, current.pot_size) if current else "",
        "seats": seats(state),
    }
