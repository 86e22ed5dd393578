"""Pairings as the tournament pages and printouts show them: ``Row`` (a pairing with its
cards, result and state), ``BlankRow`` (a box of a round still to come on the printed
bracket) and ``Column`` (a round, or the placement matches, of a bracket).
``bracket_columns`` builds the columns once for the live bracket and the printed one.

The names every page, printout and history line gives a round and a match are made here
and nowhere else: ``round_name`` (*Finale*, *Halbfinale*, *Viertelfinale*,
*Achtelfinale*, earlier rounds "Runde 1 (128)"), ``place_name`` ("Spiel um Platz 3",
"Spiel um Platz 5–8") and ``match_name`` ("Viertelfinale, Partie 3")."""

from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.models import Card, Pairing, Report, Result, Side, Stage
from tournaments.prizes import Place
from tournaments.services.reading import TournamentState
from tournaments.services.result_texts import ENTERED, describe_result, winner_name

_NAMED_ROUNDS = {
    1: gettext_noop("Final"),
    2: gettext_noop("Semi-final"),
    4: gettext_noop("Quarter-final"),
    8: gettext_noop("Round of 16"),
}
"""The rounds with a name of their own, by pot size (the matches the round has)."""


def round_name(number: int, pot_size: int, knockout: bool = True) -> str:
    """The name of round ``number`` drawn from pots of ``pot_size`` numbers (RULES.md 5.2,
    5.4), translated: pots of 1 are the final, of 2 the semi-final, of 4 the
    quarter-final, of 8 the round of 16; a round with larger pots is "Round 1 (128)",
    the cards it starts with in brackets (twice the pot size). Not ``knockout`` (a Leben
    or points event, RULES.md 5.10, 6, whose rounds keep their number of pairings in
    ``pot_size``): "Round 3"."""
    if not knockout:
        return _("Round %(n)s") % {"n": number}
    if pot_size in _NAMED_ROUNDS:
        return _(_NAMED_ROUNDS[pot_size])
    return _("Round %(n)s (%(cards)s)") % {"n": number, "cards": 2 * pot_size}


def place_name(label: str) -> str:
    """The name of a placement match by its ``Pairing.label`` (``Place``, RULES.md 5.5):
    "Match for place 3", "Match for places 5–8" (the drawn quarter-final losers)."""
    place = Place(label)
    if place is Place.FIFTH_TO_EIGHTH:
        return _("Match for places %(first)s–%(last)s") % {"first": 5, "last": 8}
    return _("Match for place %(n)s") % {"n": place.first}


def match_name(
    round_number: int | None,
    pot_size: int | None,
    number: int | str,
    label: str = "",
    knockout: bool = True,
) -> str:
    """A match as pages, sheets and the history name it: a placement match by its
    ``label`` (``place_name``), the final by its round name, any other match "round name,
    match ``number``" ("Quarter-final, match 3"). ``round_number``/``pot_size`` None:
    the round is not known (a round taken back): "Round 2, match 3"."""
    if label:
        return place_name(label)
    if pot_size is None or round_number is None or not knockout:
        return _("Round %(n)s, match %(m)s") % {"n": round_number, "m": number}
    if pot_size == 1:
        return round_name(round_number, pot_size)
    return _("%(round)s, match %(m)s") % {"round": round_name(round_number, pot_size), "m": number}


def pairing_name(pairing: Pairing) -> str:
    """``match_name`` of a pairing (its ``round`` is read when not loaded)."""
    if pairing.stage == Stage.PLACEMENT:
        return place_name(pairing.label)
    round_ = pairing.round
    assert round_ is not None  # a pairing of the main draw has its round
    return match_name(round_.number, round_.pot_size, pairing.number, knockout=round_.knockout)


def meeting_name(pairing: Pairing) -> str:
    """A match as a refused merge of its two players names it (``clubs.players``):
    "Preisschnapsen (05.12.2026), Quarter-final, match 3"."""
    t = pairing.tournament
    return f"{t.name} ({timezone.localtime(t.starts_at):%d.%m.%Y}), {pairing_name(pairing)}"


def score_text(name: str, score: str) -> str:
    """A score read with the winner's name: "Anna 2:1"."""
    return f"{name} {score}"


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
    cards ``left``/``right`` (None for none), the live ``result``, the
    ``winner`` card, the ``withdrawn`` card ids, ``seen`` (the live result's id or
    "none", for result forms), the score sheet's ``conflict`` and the ``table`` the match
    is played at (None: none). A page adds its form's ``action`` URL and a ``stale``
    refusal; a match's printed score sheet its ``title`` and the match link's QR code
    (``qr``, a ``data:`` URI) or, while the tournament checks results, the two players'
    links' codes (``side_qrs``: left, right)."""

    pairing: Pairing
    label: int | Place
    kind: str
    left: Card | None
    right: Card | None
    result: Result | None
    winner: Card | None
    withdrawn: frozenset | set
    seen: int | str
    conflict: dict | None
    table: int | None = None
    action: str = ""
    stale: Stale | None = None
    title: str = ""
    qr: str = ""
    side_qrs: tuple[str, ...] = ()

    def with_(self, **changes) -> "Row":
        """A copy with ``changes`` (``action``, ``stale``)."""
        return replace(self, **changes)

    @property
    def name(self) -> str:
        """The match's name (``pairing_name``): "Quarter-final, match 3"."""
        return pairing_name(self.pairing)

    @property
    def result_text(self) -> str:
        """The live result, who entered it and when, as the lock of its match page says
        it (``describe_result``); "" while open."""
        return self._described(None)

    @property
    def entered(self) -> str:
        """Who entered the live result and when, short, as the round page says it beside
        the result; "" while open."""
        return self._described(ENTERED)

    def _described(self, texts) -> str:
        if self.result is None:
            return ""
        cards = {c.pk: c for c in (self.winner, self.left, self.right) if c is not None}
        return describe_result(self.result, cards or None, texts, self.pairing)

    @property
    def score(self) -> str:
        """The result read with the winner's name ("Anna 2:1", "Draw 1:1"); "" while open."""
        if self.result is None:
            return ""
        if self.winner is None:
            return score_text(winner_name(None), self.result.score)
        return score_text(self.winner.player.name, self.result.score)


@dataclass(frozen=True)
class BlankRow:
    """A box of a round still to come on the printed bracket, to fill in by hand."""

    label: int
    kind: str = "match"


@dataclass(frozen=True)
class Column:
    """A bracket's column: a round (``number``, drawn from pots of ``pot``, with its
    ``open`` matches; ``knockout`` False for a Leben or points round) or, with
    ``number`` None, the placement matches."""

    rows: tuple[Row | BlankRow, ...]
    number: int | None = None
    open: int = 0
    pot: int = 0
    knockout: bool = True

    @property
    def title(self) -> str:
        """ "Placement", or the round's name (``round_name``)."""
        if self.number is None:
            return _("Placement")
        return round_name(self.number, self.pot or len(self.rows), self.knockout)


def rows(state: TournamentState, pairings: Iterable[Pairing]) -> list[Row]:
    """Pairings as pages and printouts show them (``Row``): the cards (with players), the
    kind as shown (a withdrawal's match is a walkover), the live result (its texts are
    ``Row.result_text`` and ``Row.entered``, made where a page shows them), the winning
    card, the withdrawn cards (with those whose last pairing this is, RULES.md 5.7), the
    state a result form is rendered from (``seen``: the live result's id or "none"),
    the score sheet's ``conflict`` and the ``table`` it is played at (None: none)."""
    tables = state.tables()
    found = []
    for p in pairings:
        result = state.results.get(p.pk)
        match = state.match_of(p)
        winner = result.winner_id if result else (match.advancing if match.walkover else None)
        found.append(
            Row(
                pairing=p,
                label=Place(p.label) if p.label else p.number,
                kind=match.shown_kind,
                left=state.cards.get(p.left_id) if p.left_id is not None else None,
                right=state.cards.get(p.right_id) if p.right_id is not None else None,
                result=result,
                winner=state.cards.get(winner) if winner else None,
                withdrawn=match.withdrawn | state.gone_after(p),
                seen=result.pk if result else "none",
                conflict=state.conflict(p),
                table=tables.get(p.pk),
            )
        )
    return found


def bracket_columns(state, blank_for: int | None = None) -> list[Column]:
    """The bracket of ``state`` (``load_state``): a column per drawn round (a
    draw being entered at the venue is left out), then, with ``blank_for`` (the cards
    laid out), the rounds still to come as blank boxes (halving down to the final),
    then the placement matches, if any."""
    columns = [
        Column(
            tuple(rows(state, state.pairings[round_.pk])),
            round_.number,
            round_state.open_matches,
            round_.pot_size,
            round_.knockout,
        )
        for round_, round_state in zip(state.rounds, state.round_states, strict=True)
        if round_.drawn_at is not None
    ]
    if blank_for is not None:
        pot = blank_for // 2 // (2 ** len(columns))
        number = len(columns) + 1
        while pot >= 1:
            columns.append(Column(tuple(BlankRow(n) for n in range(1, pot + 1)), number, pot=pot))
            pot //= 2
            number += 1
    if state.placement:
        columns.append(Column(tuple(rows(state, state.placement))))
    return columns


@dataclass(frozen=True)
class Waiting:
    """A match with reported results waiting (``Tournament.result_check`` "confirm"):
    its pairing ``row`` (a ``rows.Row``), the round page it is listed on (``round``),
    the open ``reports`` (left side first) and whether they ``disagree``."""

    round: int
    row: object
    reports: tuple
    disagree: bool


def waiting_reports(state: TournamentState) -> list[Waiting]:
    """The matches of ``state`` whose reports wait for the other player or the desk:
    disagreements first, then in round and match order. One query."""
    reports: dict[int, list[Report]] = {}
    for report in Report.objects.open().filter(pairing__tournament=state.tournament):
        reports.setdefault(report.pairing_id, []).append(report)
    if not reports:
        return []
    waiting = []
    listed = [(r.number, p) for r in state.rounds for p in state.pairings[r.pk]]
    if state.current is not None:  # placement matches come after a round
        listed += [(state.current.number, p) for p in state.placement]
    number_of = {p.pk: n for n, p in listed}
    pairings = [p for _n, p in listed if p.pk in reports and p.pk not in state.results]
    for row in rows(state, pairings):
        mine = sorted(reports[row.pairing.pk], key=lambda r: r.side != Side.LEFT)
        for report in mine:
            report.winner = (  # None: a draw
                state.cards.get(report.winner_id) if report.winner_id is not None else None
            )
        disagree = len({(r.winner_id, r.score) for r in mine}) > 1
        waiting.append(Waiting(number_of[row.pairing.pk], row, tuple(mine), disagree))
    waiting.sort(key=lambda w: not w.disagree)
    return waiting
