"""Reading a tournament: ``load_state`` reads it whole in a fixed number of queries, and
``TournamentState`` answers what the pages, printouts and writers ask of it; the reads
of a draw being typed in at the venue and of a walkover. The texts a stored result is
described with are ``services.result_texts``; what is counted before round 1 is
``services.counts``.

Nothing here writes, except ``locked``, which reads the tournament row for update at the
start of every writer's transaction.
"""

from dataclasses import dataclass
from functools import cached_property

from base.errors import RuleError, gettext_noop
from tournaments import bracket, danish, draw, formats, ledger, ranking
from tournaments.models import (
    Card,
    Format,
    Kind,
    Pairing,
    Pull,
    Result,
    Round,
    Stage,
    TieBreak,
    Tournament,
)
from tournaments.services.result_texts import winner_name

CARD_COUNTS = tuple(2**k for k in range(3, 11))
"""Cards a tournament may lay out: a power of two, 8 to 1024 (RULES.md 5.1)."""

DRAWABLE_COUNTS = tuple(2**k for k in range(1, 11))
"""Cards a night can be played with: also 4 and 2, reached by lowering (RULES.md 5.1)."""

SCORES = {2: ("2:0", "2:1"), 3: ("3:0", "3:1", "3:2")}
"""Bummerl scores a match can end with, by the Bummerl needed to win (RULES.md 5.3)."""


def draw_scores(t: Tournament) -> tuple[str, ...]:
    """The scores of ``match_scores`` that are a draw, no winner (a points match of even
    Bummerl ending level, "1:1", RULES.md 6); none for a Partie."""
    return tuple(s for s in match_scores(t) if danish.level(s))


def match_scores(t: Tournament) -> tuple[str, ...]:
    """The scores a match of ``t`` can end with: ``SCORES`` of its Partie, or for a points
    event those of its match setting and Schneider (RULES.md 6, ``danish.match_scores``)."""
    if t.format != Format.POINTS:
        return SCORES[t.match_bummerl]
    return danish.match_scores(t.match_bummerl, t.match_games, t.schneider_counts)


@dataclass
class TournamentState:
    """A tournament read in a fixed number of queries: its cards (by id), live rounds
    with their pairings and live results, placement pairings, and the bracket view."""

    tournament: Tournament
    cards: dict[int, Card]
    rounds: list[Round]
    pairings: dict[int, list[Pairing]]  # round id -> main pairings by number
    placement: list[Pairing]
    results: dict[int, Result]  # pairing id -> live result
    round_states: list[bracket.RoundState]
    placement_states: list[bracket.Match]
    matches: dict[int, bracket.Match]  # pairing id -> its bracket view

    @property
    def withdrawn(self) -> dict[int, int]:
        """Card id -> the round it was withdrawn in (0: before round 1), RULES.md 5.7."""
        return {
            pk: c.withdrawn_round for pk, c in self.cards.items() if c.withdrawn_round is not None
        }

    @property
    def drawn(self) -> bool:
        return bool(self.rounds)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def in_progress(self) -> Round | None:
        """A physical draw still being typed in."""
        current = self.current
        return current if current is not None and current.drawn_at is None else None

    def complete_rounds(self) -> list[bracket.RoundState]:
        return [s for s, r in zip(self.round_states, self.rounds, strict=True) if r.drawn_at]

    def in_play(self) -> list[int]:
        """The cards in play in the main draw, withdrawn cards left out (RULES.md 5.7)."""
        return bracket.cards_in_play(self.complete_rounds(), sorted(self.cards), self.withdrawn)

    def still_playing(self) -> set[int]:
        """The cards that still have a match ahead (main draw or placement)."""
        return bracket.still_playing(
            self.complete_rounds(), self.placement_states, sorted(self.cards), self.withdrawn
        )

    def places(self) -> dict[int, int]:
        """Place -> card for the places the final and the placement matches decide
        (``bracket.places``), as the bracket pages label them."""
        return bracket.places(self.round_states, self.placement_states, self.ended)

    @cached_property
    def ended(self) -> bool:
        """A card night's main draw has ended: its latest round is decided and no further
        one can be drawn (``bracket.finished``; the final, or a finalist withdrawn)."""
        return bracket.finished(self.complete_rounds(), sorted(self.cards), self.withdrawn)

    @cached_property
    def prize_lines(self) -> list[ledger.PrizeLine]:
        """The overall prize list, every prize given or open with its reason
        (``ledger.overall``, RULES.md 5.5, 5.7, 5.8): down the ranking, withdrawn cards
        win nothing; a Leben or points event gives its prizes once it is over (5.10, 6)."""
        t = self.tournament
        prizes = [(int(p["place"]), p["description"]) for p in t.prizes]
        ranked = self.ranking()
        if t.format == Format.CARDS:
            complete = len(ranked) == len(self.cards)
        else:
            complete = formats.board(self).finished
            ranked = ranked if complete else []
        return ledger.overall(ranked, prizes, t.one_prize_per_player, self.withdrawn, complete)

    def awards(self) -> list[ledger.PrizeLine]:
        """The overall prizes given so far (``prize_lines`` without the open ones)."""
        return [line for line in self.prize_lines if line.given]

    @cached_property
    def tie_breaks(self) -> list[TieBreak]:
        """The live orders of shared ranges (RULES.md 5.8), one query. With
        ``ranking_ties`` shared, a range is ordered only to decide a prize inside it
        (``ties.deciding``)."""
        return list(TieBreak.objects.live().filter(tournament=self.tournament))

    @cached_property
    def _ranking(self) -> list[ranking.Ranked]:
        owners = {pk: c.player_id for pk, c in self.cards.items()}
        orders = {tb.first: tb.order for tb in self.tie_breaks}
        return ranking.card_ranking(*self.placed(), owners, orders)

    def ranking(self) -> list[ranking.Ranked]:
        """Every placed card, best first (``ranking.card_ranking``); a range with a
        recorded Stechen or lot gives each card its own place."""
        return self._ranking

    def player_places(self) -> dict[int, tuple[int, int]]:
        """Player id -> (first, last) place of his best card (RULES.md 5.8), for the
        players whose every card is placed, best first."""
        unplaced = ledger.unplaced_players(
            {pk: c.player_id for pk, c in self.cards.items()}, self.ranking()
        )
        out: dict[int, tuple[int, int]] = {}
        for ranked in self.ranking():
            if ranked.player not in unplaced:
                out.setdefault(ranked.player, (ranked.first, ranked.last))
        return out

    @cached_property
    def groups(self) -> list[bracket.Group]:
        """A card night's settled place groups, best first (``bracket.ranking_groups``)."""
        numbers = {pk: c.number for pk, c in self.cards.items()}
        return bracket.ranking_groups(
            self.complete_rounds(),
            self.placement_states,
            sorted(self.cards),
            self.withdrawn,
            numbers,
        )

    def placed(self) -> tuple[dict[int, int], list[tuple[int, int, int]]]:
        """``(places, shared)`` as ``ranking.card_ranking`` takes them, before any
        Stechen or lots: a card night's from its bracket (``groups``), a Leben or points
        event's from its standings (``formats.settled``)."""
        if self.tournament.format != Format.CARDS:
            return formats.settled(self)
        return bracket.placed(self.groups)

    def next_pot_size(self) -> int | None:
        in_play = len(self.in_play()) if self.rounds else None
        return bracket.next_pot_size(self.round_states, self.tournament.cards, in_play)

    def tables(self) -> dict[int, int]:
        """Pairing id -> table number (1 …) of the matches of the latest round drawn:
        its main matches by number, then the placement matches made with it, dealt out
        over the tournament's ``tables`` in that order; with more matches than tables,
        match ``tables + 1`` plays at table 1 after match 1, and so on. Empty without
        tables or while a draw is being typed in. Byes and walkovers get none; results
        and withdrawals move no match to another table."""
        count = self.tournament.tables
        current = self.current
        if not count or current is None or current.drawn_at is None:
            return {}
        matches = [p for p in self.pairings[current.pk] if p.kind == Kind.MATCH]
        matches += [p for p in self.placement if p.round_id == current.pk and p.kind == Kind.MATCH]
        return {p.pk: i % count + 1 for i, p in enumerate(matches)}

    def match_of(self, pairing: Pairing) -> bracket.Match:
        """The bracket view of ``pairing`` (a withdrawal's match is a walkover)."""
        return self.matches.get(pairing.pk) or _match(pairing, self.results, self.withdrawn)

    def conflict(self, pairing: Pairing) -> dict | None:
        """What the match's score sheet says beside the stored result, when they differ
        (``{"sheet": "Anna 2:1", "result": "Ben 2:0"}``; None when they agree)."""
        return _conflict(pairing, self.results.get(pairing.pk), self.cards)

    @cached_property
    def _last_pairing(self) -> dict[int, int]:
        """Card id -> the pairing id it was drawn in last (rounds in order, then the
        placement matches)."""
        last: dict[int, int] = {}
        for p in [*(p for r in self.rounds for p in self.pairings[r.pk]), *self.placement]:
            for card in (p.left_id, p.right_id):
                if card is not None:
                    last[card] = p.pk
        return last

    def gone_after(self, pairing: Pairing) -> frozenset[int]:
        """The withdrawn cards whose last pairing this is (RULES.md 5.7): the bracket
        marks them there, so that a line does not end without a word."""
        return frozenset(
            c
            for c in (pairing.left_id, pairing.right_id)
            if c in self.withdrawn and self._last_pairing.get(c) == pairing.pk
        )


def _conflict(pairing: Pairing, result: Result | None, cards: dict[int, Card]) -> dict | None:
    """What the match's score sheet says beside the stored result, when they differ
    (the sheet decided, and no result or another one stands)."""
    if pairing.sheet_id is None or pairing.sheet_winner_id is None:
        return None
    said = (pairing.sheet_winner_id, pairing.sheet_score)
    if result is not None and (result.winner_id, result.score) == said:
        return None
    card = cards[pairing.sheet_winner_id]
    return {
        "sheet": f"{card.player.name} {pairing.sheet_score}",
        "result": f"{winner_name(result.winner_id, cards)} {result.score}" if result else "",
    }


NOT_CHECKED = object()
"""``seen`` of a write that is not from a rendered form (the score sheet, simulations)."""


def _match(
    pairing: Pairing, results: dict[int, Result], withdrawn: dict[int, int] | None = None
) -> bracket.Match:
    """The bracket view of a pairing. A card withdrawn (RULES.md 5.7) counts in the main
    pairing of the round it was withdrawn in and in any placement pairing."""
    result = results.get(pairing.pk)
    out: frozenset[int] = frozenset()
    if withdrawn:
        round_ = pairing.round if pairing.stage == Stage.MAIN else None
        number = round_.number if round_ is not None else None
        out = frozenset(
            c
            for c in (pairing.left_id, pairing.right_id)
            if c in withdrawn and (number is None or withdrawn[c] == number)
        )
    return bracket.Match(
        pairing.number,
        pairing.kind,
        pairing.left_id,
        pairing.right_id,
        result.winner_id if result else None,
        pairing.label,
        out,
        level=result is not None and result.winner_id is None,
    )


def load_state(tournament: Tournament) -> TournamentState:
    """Read the whole tournament: 4 queries, whatever its size."""
    cards = {c.pk: c for c in Card.objects.filter(tournament=tournament).select_related("player")}
    rounds = list(Round.objects.live().filter(tournament=tournament))
    for round_ in rounds:
        round_.tournament = tournament  # read by ``Round.knockout`` (the round's name)
    all_pairings = list(
        Pairing.objects.live().filter(tournament=tournament).order_by("stage", "number")
    )
    results = {
        r.pairing_id: r
        for r in Result.objects.live()
        .filter(pairing__tournament=tournament)
        .select_related("recorded_by")
    }
    withdrawn = {pk: c.withdrawn_round for pk, c in cards.items() if c.withdrawn_round is not None}
    by_id = {r.pk: r for r in rounds}
    live_rounds = {r.pk for r in rounds}
    pairings: dict[int, list[Pairing]] = {r.pk: [] for r in rounds}
    placement = []
    for p in all_pairings:
        if p.round_id in by_id:
            p.round = by_id[p.round_id]  # no query per pairing
        if p.stage == Stage.PLACEMENT:
            if p.round_id is None or p.round_id in live_rounds:
                placement.append(p)
        elif p.round_id in live_rounds:
            pairings[p.round_id].append(p)
    matches = {
        p.pk: _match(p, results, withdrawn)
        for p in [*placement, *(p for r in rounds for p in pairings[r.pk])]
    }
    round_states = [
        bracket.RoundState(r.number, r.pot_size, tuple(matches[p.pk] for p in pairings[r.pk]))
        for r in rounds
    ]
    return TournamentState(
        tournament,
        cards,
        rounds,
        pairings,
        placement,
        results,
        round_states,
        [matches[p.pk] for p in placement],
        matches,
    )


def locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the transaction ends: every writer takes it first,
    so writes on one tournament are served one after the other."""
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)


def withdrawn_in(pairing: Pairing) -> list[Card]:
    """The withdrawn cards that make this pairing a walkover (RULES.md 5.7)."""
    cards = (
        Card.objects.withdrawn()
        .filter(pk__in=[c for c in (pairing.left_id, pairing.right_id) if c is not None])
        .select_related("player")
    )
    if pairing.stage == Stage.MAIN:
        assert pairing.round is not None  # a pairing of the main draw has its round
        return [c for c in cards if c.withdrawn_round == pairing.round.number]
    return list(cards)


def refuse_walkover(pairing: Pairing) -> None:
    """Raise RuleError on ``pairing`` when a withdrawn card made it a walkover (RULES.md
    5.7): such a match takes no result, report or score sheet."""
    gone = withdrawn_in(pairing)
    if gone:
        raise RuleError(
            "pairing",
            gettext_noop("%(name)s (card %(card)s) was withdrawn: the match is a walkover."),
            name=gone[0].player.name,
            card=gone[0].number,
        )


def physical_session(state: TournamentState, round_: Round) -> draw.DrawSession:
    """The draw session of a round being typed in, with its pulls so far replayed."""
    cards = {pk: c.player_id for pk, c in state.cards.items()}
    previous = [r for r in state.round_states if r.number < round_.number]
    in_play = bracket.cards_in_play(previous, sorted(state.cards), state.withdrawn)
    order = draw.physical_order(bracket.holders(cards, in_play), later_round=round_.number > 1)
    session = draw.DrawSession(order, round_.pot_size)
    for pull in Pull.objects.live().filter(round=round_).order_by("index"):
        session.pull(pull.number)
    return session


def latest_pull(round_: Round) -> Pull | None:
    """The latest live pull of a draw at the venue (with its card and player), or None.
    Its id is the state the pull and undo forms are rendered from (0: no pull yet)."""
    return (
        Pull.objects.live()
        .filter(round=round_)
        .select_related("card", "player")
        .order_by("-index")
        .first()
    )
