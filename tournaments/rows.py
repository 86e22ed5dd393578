"""Pairings as the tournament pages and printouts show them: ``Row`` (a pairing with its
cards, result and state), ``BlankRow`` (a box of a round still to come on the printed
bracket) and ``Column`` (a round, or the placement matches, of a bracket).
``bracket_columns`` builds the columns once for the live bracket and the printed one."""

from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from tournaments.models import Card, Pairing, Result
from tournaments.prizes import Place


@dataclass(frozen=True)
class Offer:
    """An organiser's one-tap correction after his write was refused: his entry
    (``winner``, a card id, and ``score``) over the result that stands now (``seen``,
    its id)."""

    winner: int
    score: str
    seen: int


@dataclass(frozen=True)
class Stale:
    """A result write refused because the result changed meanwhile, shown on the row of
    ``pairing`` (its id): the refusal ``text`` and, for organisers, the ``offer``."""

    pairing: int
    text: str
    offer: Offer | None = None


@dataclass(frozen=True)
class Row:
    """One pairing as shown (``State.rows``): ``label`` is the match number, or the
    placement match's ``Place``; ``kind`` as shown ("match", "bye", "walkover"); the
    cards ``left``/``right`` (None for none), the live ``result`` and its texts, the
    ``winner`` card, the ``withdrawn`` card ids, ``seen`` (the live result's id or
    "none", for result forms) and the score sheet's ``conflict``. A page adds its form's
    ``action`` URL and a ``stale`` refusal."""

    pairing: Pairing
    label: int | Place
    kind: str
    left: Card | None
    right: Card | None
    result: Result | None
    result_text: str
    entered: str
    winner: Card | None
    withdrawn: frozenset | set
    seen: int | str
    conflict: dict | None
    action: str = ""
    stale: Stale | None = None

    @classmethod
    def of(cls, row: dict) -> "Row":
        """The row of ``State.rows``' dict."""
        pairing = row["pairing"]
        label = Place(pairing.label) if pairing.label else row["label"]
        return cls(**(row | {"label": label}))

    def with_(self, **changes) -> "Row":
        """A copy with ``changes`` (``action``, ``stale``)."""
        return replace(self, **changes)


@dataclass(frozen=True)
class SheetRow(Row):
    """A row printed as a match's score sheet, with its ``title`` and the match link's
    QR code (``qr``, a ``data:`` URI); while the tournament checks results, instead the
    two players' links' codes (``side_qrs``: left, right)."""

    title: str = ""
    qr: str = ""
    side_qrs: tuple[str, ...] = ()


@dataclass(frozen=True)
class BlankRow:
    """A box of a round still to come on the printed bracket, to fill in by hand."""

    label: int
    kind: str = "match"


@dataclass(frozen=True)
class Column:
    """A bracket's column: a round (``number``, with its ``open`` matches) or, with
    ``number`` None, the placement matches."""

    rows: tuple[Row | BlankRow, ...]
    number: int | None = None
    open: int = 0

    @property
    def title(self) -> str:
        if self.number is None:
            return _("Placement")
        return _("Round %(n)s") % {"n": self.number}


def rows(state, pairings: Iterable[Pairing]) -> list[Row]:
    """``state.rows(pairings)`` as ``Row``s."""
    return [Row.of(row) for row in state.rows(pairings)]


def bracket_columns(state, blank_for: int | None = None) -> list[Column]:
    """The bracket of ``state`` (``load_state``): a column per drawn round (a
    draw being entered at the venue is left out), then, with ``blank_for`` (the cards
    laid out), the rounds still to come as blank boxes (halving down to the final),
    then the placement matches, if any."""
    columns = [
        Column(
            tuple(rows(state, state.pairings[round_.pk])), round_.number, round_state.open_matches
        )
        for round_, round_state in zip(state.rounds, state.round_states, strict=True)
        if round_.drawn_at is not None
    ]
    if blank_for is not None:
        pot = blank_for // 2 // (2 ** len(columns))
        number = len(columns) + 1
        while pot >= 1:
            columns.append(Column(tuple(BlankRow(n) for n in range(1, pot + 1)), number))
            pot //= 2
            number += 1
    if state.placement:
        columns.append(Column(tuple(rows(state, state.placement))))
    return columns
