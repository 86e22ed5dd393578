"""The placement matches and the money of a Preisschnapsen (RULES.md 5.5, 5.10), pure
Python. ``Place`` names the placement matches; ``cash`` and ``still_in`` give the
desk's and the live bracket's figures: money taken and open, and the players still in;
``player_cash`` the money per player (cards, paid, owed, cards left under the limit,
lives bought); ``split`` the prizes in money, a split of the takings (RULES.md 5.5).
Who wins which prize is the ledger's (``tournaments.ledger``).

Where RULES.md is silent, decided here: a prize is money when its description starts
with a share of the takings ("40 %", "12,5 % und ein Pokal") or an amount ("€ 50",
"50 €", "50 Euro"); the takings it is a share of are what is in the box (cards paid and
lives bought, ``Cash.in_box``); the house keeps what the money prizes leave, its share
and the remainders of rounding down together.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from enum import StrEnum
from typing import Any, Protocol


class Named(Protocol):
    """A player as the figures here read him: ``clubs.models.Player``, or anything with
    its ``pk``, ``name`` and ``name_key`` (German order, ``base.text.german_key``)."""

    @property
    def pk(self) -> Any: ...

    @property
    def name(self) -> str: ...

    @property
    def name_key(self) -> str: ...


PERCENT = re.compile(r"^\s*(\d{1,3}(?:[.,]\d{1,2})?)\s*(?:%|Prozent\b)", re.IGNORECASE)
AMOUNT = re.compile(
    r"^\s*(?:€\s*(\d{1,7}(?:[.,]\d{1,2})?)|(\d{1,7}(?:[.,]\d{1,2})?)\s*(?:€|EUR\b|Euro\b))",
    re.IGNORECASE,
)
PERCENT_KIND, AMOUNT_KIND = "percent", "amount"


class Place(StrEnum):
    """The label of a placement match (RULES.md 5.5): the semi-final losers play for 3
    (``THIRD``); the quarter-final losers are paired for 5 to 8 (``FIFTH_TO_EIGHTH``),
    whose winners then play for 5 (``FIFTH``) and whose losers for 7 (``SEVENTH``).
    The value is the label as stored and shown ("3", "5", "7", "5-8")."""

    THIRD = "3"
    FIFTH = "5"
    SEVENTH = "7"
    FIFTH_TO_EIGHTH = "5-8"

    @property
    def label(self) -> str:
        """As pages and printouts show it: "3", "5-8"."""
        return self.value

    @property
    def first(self) -> int:
        """The best place the match decides: 3, 5, 7, 5."""
        return int(self.value.split("-")[0])


@dataclass(frozen=True)
class Cash:
    """The money at the desk: ``sold`` cards, ``paid`` of them, at ``entry_fee`` euros a
    card; ``open`` cards not paid yet; ``lives`` bought (Leben, RULES.md 5.10) at
    ``life_fee`` euros each, paid when bought. The amounts in euros, to the cent:
    ``in_box`` (what was taken: cards paid and lives) = ``total`` (everything sold) −
    ``open_amount``."""

    sold: int
    paid: int
    entry_fee: Decimal
    lives: int = 0
    life_fee: Decimal = Decimal(0)

    @property
    def open(self) -> int:
        return self.sold - self.paid

    @property
    def paid_amount(self) -> Decimal:
        """Euros paid for cards so far."""
        return self.paid * self.entry_fee

    @property
    def sold_amount(self) -> Decimal:
        """Euros of every card sold, paid or not."""
        return self.sold * self.entry_fee

    @property
    def open_amount(self) -> Decimal:
        """Euros still to be paid for the cards sold."""
        return self.open * self.entry_fee

    @property
    def lives_amount(self) -> Decimal:
        """Euros of the lives bought (all paid)."""
        return self.lives * self.life_fee

    @property
    def in_box(self) -> Decimal:
        """The takings in the box: cards paid and lives bought."""
        return self.paid_amount + self.lives_amount

    @property
    def total(self) -> Decimal:
        """Everything sold: every card at the entry fee and every life at the life fee."""
        return self.sold_amount + self.lives_amount


def cash(entry_fee: Decimal, cards: Iterable, life_fee: Decimal = Decimal(0)) -> Cash:
    """``Cash`` of the cards sold (anything with ``paid`` and ``rebuys``, the lives its
    player bought), withdrawn ones included: their money was taken (RULES.md 5.7); the
    lives bought at ``life_fee`` each (``Tournament.life_price``)."""
    cards = list(cards)
    return Cash(
        sold=len(cards),
        paid=sum(1 for card in cards if card.paid),
        entry_fee=Decimal(entry_fee),
        lives=sum(getattr(card, "rebuys", 0) for card in cards),
        life_fee=Decimal(life_fee),
    )


@dataclass(frozen=True)
class PlayerCash:
    """A player's money at the desk: his ``cards`` (by number), the ``unpaid`` ones among
    them, at ``entry_fee`` euros a card, and ``left``, the cards he may still buy under
    the most per player (RULES.md 5.1); ``lives`` he bought (Leben, 5.10) at
    ``life_fee`` each, paid when bought."""

    player: Named
    cards: tuple
    unpaid: tuple
    entry_fee: Decimal
    left: int
    lives: int = 0
    life_fee: Decimal = Decimal(0)

    @property
    def paid(self) -> int:
        return len(self.cards) - len(self.unpaid)

    @property
    def lives_amount(self) -> Decimal:
        return self.lives * self.life_fee

    @property
    def paid_amount(self) -> Decimal:
        """Euros he paid: his paid cards and his lives."""
        return self.paid * self.entry_fee + self.lives_amount

    @property
    def unpaid_numbers(self) -> str:
        """The numbers of the unpaid cards: "2, 5"."""
        return ", ".join(str(card.number) for card in self.unpaid)

    @property
    def owed(self) -> Decimal:
        """Euros he still owes: his unpaid cards at the fee (lives are paid when bought)."""
        return len(self.unpaid) * self.entry_fee


def player_cash(
    entry_fee: Decimal, max_cards: int, cards: Iterable, life_fee: Decimal = Decimal(0)
) -> list[PlayerCash]:
    """``PlayerCash`` of every holder of ``cards`` (anything with ``number``, ``paid``,
    ``player_id``, ``player`` and ``rebuys``; withdrawn cards included, their money was
    taken), sorted by name in German order (``player.name_key``). ``left`` is never
    below 0 (a merge may leave a player above the limit); ``lives`` bought at
    ``life_fee`` each."""
    held: dict[int, list] = {}
    for card in cards:
        held.setdefault(card.player_id, []).append(card)
    lines = []
    for own in held.values():
        own.sort(key=lambda card: card.number)
        lines.append(
            PlayerCash(
                player=own[0].player,
                cards=tuple(own),
                unpaid=tuple(card for card in own if not card.paid),
                entry_fee=Decimal(entry_fee),
                left=max(0, max_cards - len(own)),
                lives=sum(getattr(card, "rebuys", 0) for card in own),
                life_fee=Decimal(life_fee),
            )
        )
    return sorted(lines, key=lambda line: (line.player.name_key, line.player.pk))


@dataclass(frozen=True)
class StillIn:
    """A player still in the tournament and the number of cards he still holds."""

    player: Named
    cards: int


def still_in(cards: Iterable) -> list[StillIn]:
    """The players holding the ``cards`` still in play (anything with ``player_id`` and
    ``player``, e.g. the cards of ``TournamentState.in_play()``), most cards first, then by name
    (``player.name_key``); ``len`` of it is the number of players in."""
    holdings: dict[int, list] = {}
    for card in cards:
        holdings.setdefault(card.player_id, []).append(card)
    return sorted(
        (StillIn(held[0].player, len(held)) for held in holdings.values()),
        key=lambda item: (-item.cards, item.player.name_key),
    )


def prize_money(description: str) -> tuple[str, Decimal] | None:
    """What a prize's ``description`` pays in money: (``"percent"``, 40) for a share of
    the takings ("40 %", "12,5 % und Pokal"), (``"amount"``, 50) for euros ("€ 50",
    "50 €", "50 Euro"), None for goods ("Geschenkkorb"). A comma or a point before the
    decimals."""
    found = PERCENT.match(description)
    if found:
        return PERCENT_KIND, Decimal(found.group(1).replace(",", "."))
    found = AMOUNT.match(description)
    if found:
        return AMOUNT_KIND, Decimal((found.group(1) or found.group(2)).replace(",", "."))
    return None


@dataclass(frozen=True)
class Payout:
    """A prize in money: prize ``place`` of the list ``label`` ("" overall, else the
    category's name) with its ``description``; ``kind`` and ``value`` as typed
    (``prize_money``); ``amount``: the euros it pays (a share rounded down to whole
    euros, RULES.md 5.5)."""

    label: str
    place: int
    description: str
    kind: str
    value: Decimal
    amount: Decimal


@dataclass(frozen=True)
class Split:
    """The takings split (RULES.md 5.5): ``takings`` in euros, the ``payouts`` (money
    prizes, in list order), ``prize_money`` their sum and ``house`` what stays with the
    house: takings − prize money (negative when fixed amounts pass the takings)."""

    takings: Decimal
    payouts: tuple[Payout, ...]

    @property
    def prize_money(self) -> Decimal:
        return sum((p.amount for p in self.payouts), Decimal(0))

    @property
    def house(self) -> Decimal:
        return self.takings - self.prize_money

    @property
    def short(self) -> bool:
        """The money prizes pass the takings (fixed amounts on a small night)."""
        return self.house < 0


def split(takings: Decimal, prizes: Iterable[tuple[str, int, str]]) -> Split:
    """The money prizes of ``prizes`` ((label, place, description) of the overall list,
    label "", and of each category list) out of ``takings`` euros: a share is
    ``takings × percent / 100`` rounded down to whole euros, an amount is paid as typed."""
    takings = Decimal(takings)
    payouts = []
    for label, place, description in prizes:
        money = prize_money(description)
        if money is None:
            continue
        kind, value = money
        amount = value
        if kind == PERCENT_KIND:
            amount = (takings * value / 100).quantize(Decimal(1), rounding=ROUND_DOWN)
        payouts.append(Payout(label, place, description, kind, value, amount))
    return Split(takings, tuple(payouts))
