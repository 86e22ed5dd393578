"""The lists of a Preisschnapsen night at the venue, for the desk's page and the
printouts: the call list of a draw at the venue (``call_list``), *Wo spiele ich?*
(where each player plays his Partien, ``seats``, and the Freilose, ``byes``) and the
players' personal links with their QR codes (``personal_links``).
"""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _

from base.printing import qr_png
from clubs.models import Player
from tournaments.models import Card, Round, Tournament
from tournaments.personal import personal_token
from tournaments.prizes import player_cash
from tournaments.rows import Row, round_name, rows
from tournaments.services.reading import TournamentState, load_state, physical_session


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
    calls: list[Call] = []
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
        "round_name": round_name(round_.number, round_.pot_size, round_.knockout),
        "calls": call_list(state, round_),
    }


@dataclass(frozen=True)
class Seat:
    """A line of "where do I play": ``player`` with ``card`` plays ``row`` (its match's
    name, table and opponent) against ``other``. A player with several open matches in
    the round (several cards, RULES.md 5.3) plays them in order: this is his ``order``-th
    of ``of`` (1-based), and ``before`` is the match he plays just before it (None for
    his first)."""

    player: Player
    card: Card
    other: Card
    row: Row
    order: int = 1
    of: int = 1
    before: Row | None = None

    @property
    def order_text(self) -> str:
        """Which of his matches this is, for a player with several: "match 1 of 2",
        "match 2 of 2, after table 3" (with tables; without: "after <match name>");
        "" for a player with one match."""
        if self.of == 1:
            return ""
        numbers = {"n": self.order, "count": self.of}
        if self.before is None:
            return _("match %(n)s of %(count)s") % numbers
        if self.before.table:
            return _("match %(n)s of %(count)s, after table %(table)s") % (
                numbers | {"table": self.before.table}
            )
        return _("match %(n)s of %(count)s, after %(match)s") % (
            numbers | {"match": self.before.name}
        )


def seats(state: TournamentState) -> list[Seat]:
    """Where each player plays in the latest round drawn: a line per card in an open
    match (main draw and the placement matches listed with it), sorted by the player's
    name in German order (``Player.name_key``), then by the order he plays his matches
    in: the order the matches are dealt out over the tables (``TournamentState.tables``:
    by match number, the placement matches after the main ones), which is by table
    number, then match number, while no table is used twice, and puts a match that
    waits for a table after the matches played before it there."""
    current = state.current
    if current is None or current.drawn_at is None:
        return []
    pairings = [*state.pairings[current.pk], *state.placement]
    mine: dict[int, list[tuple[Card, Card, Row]]] = {}
    for row in rows(state, pairings):  # in the order the tables are dealt
        left, right = row.left, row.right
        if row.kind != "match" or row.result is not None or left is None or right is None:
            continue  # (a match has both its cards)
        mine.setdefault(left.player_id, []).append((left, right, row))
        mine.setdefault(right.player_id, []).append((right, left, row))
    lines = []
    for matches in mine.values():
        for i, (card, other, row) in enumerate(matches):
            before = matches[i - 1][2] if i else None
            lines.append(Seat(card.player, card, other, row, i + 1, len(matches), before))
    return sorted(lines, key=lambda s: (s.player.name_key, s.player.pk, s.order))


def byes(state: TournamentState) -> list[Card]:
    """The cards with a bye (*Freilos*, RULES.md 5.2, 5.10) in the latest round drawn, by
    the holder's name in German order, then card number."""
    current = state.current
    if current is None or current.drawn_at is None:
        return []
    found = [
        row.left
        for row in rows(state, state.pairings[current.pk])
        if row.kind == "bye" and row.left is not None  # (a bye has its card)
    ]
    return sorted(found, key=lambda c: (c.player.name_key, c.player_id, c.number))


def current_round_name(state: TournamentState) -> str:
    """The name of the latest round drawn (``round_name``); "" before the draw or while
    a draw is typed in."""
    current = state.current if state.current and state.current.drawn_at else None
    if current is None:
        return ""
    return round_name(current.number, current.pot_size, current.knockout)


def seats_context(t: Tournament) -> dict:
    state = load_state(t)
    return {
        "tournament": t,
        "round_name": current_round_name(state),
        "seats": seats(state),
    }


@dataclass(frozen=True)
class PersonalLink:
    """A player's personal link for the night (``tournaments.personal``) as the desk
    hands it out: the ``player``, his card ``numbers``, the whole address ``url`` and its
    QR code ``qr`` (as the page or printout draws it)."""

    player: Player
    numbers: tuple[int, ...]
    url: str
    qr: str


def personal_links(state: TournamentState, url_of, qr_of) -> list[PersonalLink]:
    """One ``PersonalLink`` per player holding a card of the tournament, by name in German
    order: ``url_of`` makes the whole address of a path (``base.links.absolute_url``),
    ``qr_of`` its QR code (``qr_svg`` on a page, ``qr_png`` in a PDF). Organisers only:
    the links are private (each shows one player's night)."""
    t = state.tournament
    holders: dict[int, list[Card]] = {}
    for card in state.cards.values():
        holders.setdefault(card.player_id, []).append(card)
    out = []
    for cards in sorted(holders.values(), key=lambda cs: (cs[0].player.name_key, cs[0].player_id)):
        path = reverse("personal", kwargs={"token": personal_token(t.pk, cards[0].player_id)})
        url = url_of(path)
        numbers = tuple(sorted(c.number for c in cards))
        out.append(PersonalLink(cards[0].player, numbers, url, qr_of(url)))
    return out


def personal_links_context(t: Tournament, url_of) -> dict:
    """The printout "Personal links": a small card per player with his link's QR code."""
    return {"tournament": t, "links": personal_links(load_state(t), url_of, qr_png)}
