"""The only writers of tournaments: sell cards, draw rounds (digital or pull by pull),
record and correct results, undo a draw, create placement matches.

Every function runs in one transaction and first locks the tournament row, so two
organisers (or two phones on one match) are served one after the other; database
constraints (one live draw per round, one live result per pairing, one key per submit)
back every guard. Nothing is deleted: corrections void a result, undoing a draw marks
the round undone, and both stay in the history.
"""

import secrets
import uuid
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs import audit
from clubs.models import Club
from clubs.players import player_named
from clubs.text import german_key, name_fold
from scoring.models import Sheet
from scoring.rules.errors import RuleError, gettext_noop
from scoring.services import Actor, key_reused
from tournaments import bracket, draw
from tournaments.models import Card, Kind, Pairing, Pull, Result, Round, Stage, Tournament
from tournaments.prizes import award

CARD_COUNTS = tuple(2**k for k in range(3, 11))
"""Cards a tournament may lay out: a power of two, 8 to 1024 (RULES.md 5.1)."""

DRAWABLE_COUNTS = tuple(2**k for k in range(1, 11))
"""Cards a night can be played with: also 4 and 2, reached by lowering (RULES.md 5.1)."""

SCORES = {2: ("2:0", "2:1"), 3: ("3:0", "3:1", "3:2")}
"""Bummerl scores a match can end with, by the Bummerl needed to win (RULES.md 5.3)."""


# -- reading ------------------------------------------------------------------------


@dataclass
class State:
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

    def alive(self) -> list[int]:
        """The cards still in the main draw, withdrawn cards left out (RULES.md 5.7)."""
        return bracket.cards_left(self.complete_rounds(), sorted(self.cards), self.withdrawn)

    def still_playing(self) -> set[int]:
        """The cards that still have a match ahead (main draw or placement)."""
        return bracket.still_playing(
            self.complete_rounds(), self.placement_states, sorted(self.cards), self.withdrawn
        )

    def places(self) -> dict[int, int]:
        return bracket.places(self.round_states, self.placement_states)

    def awards(self):
        places = {p: (card, self.cards[card].player_id) for p, card in self.places().items()}
        prizes = [(int(p["place"]), p["description"]) for p in self.tournament.prizes]
        shared = [(first, card, self.cards[card].player_id) for first, _last, card in self.shared()]
        return award(places, prizes, self.tournament.one_prize_per_player, shared)

    def shared(self) -> list[tuple[int, int, int]]:
        """(first place, last place, card) of the cards out before the placement rounds
        (RULES.md 5.8), in card-number order within a range."""
        numbers = {pk: c.number for pk, c in self.cards.items()}
        return bracket.shared_places(self.round_states, numbers)

    def next_pot_size(self) -> int | None:
        left = len(self.alive()) if self.rounds else None
        return bracket.next_pot_size(self.round_states, self.tournament.cards, left)

    def rows(self, pairings) -> list[dict]:
        """Pairings as pages and printouts show them: the cards (with players), the kind
        as shown (a withdrawal's match is a walkover), the live result, the winning card,
        the withdrawn cards, the state a result form is rendered from (``seen``: the live
        result's id or "none") and ``conflict`` when the match's score sheet shows another
        outcome than the stored result."""
        rows = []
        for p in pairings:
            result = self.results.get(p.pk)
            match = self.matches.get(p.pk) or _match(p, self.results, self.withdrawn)
            winner = result.winner_id if result else (match.advancing if match.walkover else None)
            rows.append(
                {
                    "pairing": p,
                    "label": p.label or p.number,
                    "kind": match.shown_kind,
                    "left": self.cards.get(p.left_id),
                    "right": self.cards.get(p.right_id),
                    "result": result,
                    "result_text": describe_result(result, self.cards) if result else "",
                    "entered": describe_result(result, self.cards, ENTERED) if result else "",
                    "winner": self.cards.get(winner) if winner else None,
                    "withdrawn": match.withdrawn,
                    "seen": result.pk if result else "none",
                    "conflict": _conflict(p, result, self.cards),
                }
            )
        return rows


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
        "result": f"{cards[result.winner_id].player.name} {result.score}" if result else "",
    }


RESULT_STANDS = {
    "user": gettext_noop(
        "The result stands: %(winner)s %(score)s, entered by %(by)s at %(time)s; "
        "only the organisers can change it."
    ),
    "link": gettext_noop(
        "The result stands: %(winner)s %(score)s, entered with the match link at %(time)s; "
        "only the organisers can change it."
    ),
    "sheet": gettext_noop(
        "The result stands: %(winner)s %(score)s, decided on the score sheet at %(time)s; "
        "only the organisers can change it."
    ),
}
"""The lock of a match's score sheet while its result stands, by who entered it."""

MEANWHILE = {
    "user": gettext_noop("Meanwhile %(by)s entered %(winner)s %(score)s at %(time)s."),
    "link": gettext_noop(
        "Meanwhile %(winner)s %(score)s was entered with the match link at %(time)s."
    ),
    "sheet": gettext_noop("Meanwhile the score sheet decided %(winner)s %(score)s at %(time)s."),
}
"""A result write from an older state, refused: what happened since, by who entered it."""

ENTERED = {
    "user": gettext_noop("entered by %(by)s at %(time)s"),
    "link": gettext_noop("entered with the match link at %(time)s"),
    "sheet": gettext_noop("decided on the score sheet at %(time)s"),
}
"""Who entered a result and when, short, beside it on the round page."""

VOIDED_MEANWHILE = gettext_noop("Meanwhile the result was voided: the match is open again.")
SHEET_UNDONE = gettext_noop(
    "This draw was undone: the match no longer exists and this sheet takes no more deals."
)
SHEET_REMADE = gettext_noop(
    "This placement match was made again (a result it came from changed): "
    "this sheet takes no more deals."
)
SHEET_WITHDRAWN = gettext_noop(
    "%(name)s (card %(card)s) was withdrawn: the match is a walkover, "
    "this sheet takes no more deals."
)


def result_source(result: Result) -> str:
    """Who entered a result: "sheet" (its score sheet), "link" (the match link) or "user"."""
    if result.from_sheet:
        return "sheet"
    if result.recorded_by_id is None:
        return "link"
    return "user"


def result_params(result: Result, cards: dict[int, Card] | None = None) -> dict:
    """The placeholders of ``RESULT_STANDS`` and ``MEANWHILE``: winner (player name),
    score, by (the user's name), time (local HH:MM)."""
    card = (
        cards[result.winner_id]
        if cards
        else Card.objects.select_related("player").get(pk=result.winner_id)
    )
    user = result.recorded_by if result.recorded_by_id else None
    return {
        "winner": card.player.name,
        "score": result.score,
        "by": (user.get_full_name() or user.get_username()) if user else "",
        "time": timezone.localtime(result.recorded_at).strftime("%H:%M"),
    }


def describe_result(result: Result, cards: dict[int, Card] | None = None, texts=None) -> str:
    """The result, who entered it and when, translated for the page (``texts``:
    ``RESULT_STANDS`` by default, or ``ENTERED``)."""
    template = (texts or RESULT_STANDS)[result_source(result)]
    return gettext(template) % result_params(result, cards)


class StaleResult(RuleError):
    """A result write from an older state than the stored one (field ``pairing``):
    ``live`` is the result that stands now (None when it was voided meanwhile)."""

    def __init__(self, live: Result | None, cards: dict[int, Card] | None = None):
        self.live = live
        if live is None:
            super().__init__("pairing", VOIDED_MEANWHILE)
        else:
            super().__init__(
                "pairing", MEANWHILE[result_source(live)], **result_params(live, cards)
            )


NOT_CHECKED = object()
"""``seen`` of a write that is not from a rendered form (the score sheet, simulations)."""


def _match(
    pairing: Pairing, results: dict[int, Result], withdrawn: dict[int, int] | None = None
) -> bracket.Match:
    """The bracket view of a pairing. A card withdrawn (RULES.md 5.7) counts in the main
    pairing of the round it was withdrawn in and in any placement pairing."""
    result = results.get(pairing.pk)
    out = frozenset()
    if withdrawn:
        number = pairing.round.number if pairing.stage == Stage.MAIN else None
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
    )


def load_state(tournament: Tournament) -> State:
    """Read the whole tournament: 4 queries, whatever its size."""
    cards = {c.pk: c for c in Card.objects.filter(tournament=tournament).select_related("player")}
    rounds = list(Round.objects.filter(tournament=tournament, undone_at__isnull=True))
    all_pairings = list(
        Pairing.objects.filter(tournament=tournament, voided_at__isnull=True).order_by(
            "stage", "number"
        )
    )
    results = {
        r.pairing_id: r
        for r in Result.objects.filter(
            pairing__tournament=tournament, voided_at__isnull=True
        ).select_related("recorded_by")
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
    return State(
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


# -- before the night ----------------------------------------------------------------


def create_tournament(club: Club, actor: Actor, **fields) -> Tournament:
    """A new tournament; ``fields`` as the model's (checked by the form)."""
    if fields.get("cards") not in CARD_COUNTS:
        raise RuleError("cards", gettext_noop("The number of cards is a power of two, 8 to 1024."))
    return Tournament.objects.create(
        club=club, created_by=actor.user if actor.user_id else None, **fields
    )


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def sell_cards(
    tournament: Tournament,
    name: str,
    count: int,
    paid: bool,
    actor: Actor,
    key: uuid.UUID | None = None,
) -> list[Card]:
    """Sell ``count`` cards to the player called ``name`` (added to the club if new).

    RuleError on ``count`` (past the most per player, or past the cards laid out) and
    on ``name``; ``tournament`` once round 1 is drawn (RULES.md 5.1). The same ``key``
    again returns the cards it sold when it is the same sale (name, count, paid), and is
    refused on ``key`` when it is another (an old page's form).
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise RuleError("count", gettext_noop("Sell at least one card."))
    with transaction.atomic():
        t = _locked(tournament)
        if key is not None:
            earlier = list(Card.objects.filter(sale_key=key).select_related("player"))
            if earlier:
                first = earlier[0]
                same = (first.tournament_id, name_fold(first.player.name), len(earlier)) == (
                    t.pk,
                    name_fold(name),
                    count,
                ) and all(c.paid == paid for c in earlier)
                if not same:
                    raise key_reused()
                return earlier  # the same sale sent again
        if Round.objects.filter(tournament=t, undone_at__isnull=True).exists():
            raise RuleError(
                "tournament", gettext_noop("Round 1 is drawn: no more cards can be sold.")
            )
        player = player_named(t.club, name)
        held = Card.objects.filter(tournament=t, player=player).count()
        if held + count > t.max_cards:
            raise RuleError(
                "count",
                gettext_noop("%(name)s holds %(held)s of at most %(max)s cards."),
                name=player.name,
                held=held,
                max=t.max_cards,
            )
        sold = Card.objects.filter(tournament=t).count()  # card numbers go on after all sold
        in_play = cards_in_play(t)  # a card withdrawn before round 1 frees its place (5.7)
        if in_play + count > t.cards:
            raise RuleError(
                "count",
                gettext_noop("Only %(left)s of %(cards)s cards are left."),
                left=t.cards - in_play,
                cards=t.cards,
            )
        cards = Card.objects.bulk_create(
            Card(
                tournament=t,
                number=sold + i + 1,
                player=player,
                paid=paid,
                sold_by_id=actor.user_id,
                sale_key=key,
            )
            for i in range(count)
        )
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "cards sold",
            actor=actor,
            before=None,
            after={"player": player.name, "cards": [c.number for c in cards], "paid": paid},
        )
        return cards


def set_paid(card: Card, paid: bool, actor: Actor | None = None) -> None:
    with transaction.atomic():
        locked = Card.objects.select_for_update().select_related("tournament").get(pk=card.pk)
        if locked.paid == paid:
            return
        Card.objects.filter(pk=card.pk).update(paid=paid)
        audit.record(
            locked.tournament.club_id,
            "tournament",
            locked.tournament_id,
            "card paid",
            actor=actor,
            before={"card": locked.number, "paid": locked.paid},
            after={"card": locked.number, "paid": paid},
        )


def cards_in_play(tournament: Tournament) -> int:
    """Before round 1: the cards that will be drawn, i.e. sold minus withdrawn (RULES.md
    5.1, 5.7). The draw check, the lowering, the sale and the desk's offer all count these."""
    return Card.objects.filter(tournament=tournament, withdrawn_round__isnull=True).count()


def lower_offer(tournament: Tournament, sold: int) -> int | None:
    """The number of cards the desk offers to lower to before round 1 (RULES.md 5.1):
    ``draw.smallest_cards(sold)`` when the draw is refused for too few cards sold and
    lowering makes it possible, else None. ``sold``: the cards in play (``cards_in_play``:
    a card withdrawn before round 1 is not drawn, RULES.md 5.7)."""
    if sold < draw.LOWEST_CARDS or sold > tournament.cards // 2:
        return None
    return draw.smallest_cards(sold)


def lower_cards(tournament: Tournament, actor: Actor | None = None) -> int:
    """Lower N to the smallest power of two that holds the cards in play (sold minus
    withdrawn, RULES.md 5.1, 5.7), returns the new N. RuleError on ``cards`` once round 1
    is drawn (or typed in), when fewer than 2 cards are in play (sell more) and when more
    than half are in play already (nothing to lower: draw)."""
    with transaction.atomic():
        t = _locked(tournament)
        if Round.objects.filter(tournament=t, undone_at__isnull=True).exists():
            raise RuleError("cards", gettext_noop("Round 1 is drawn already."))
        sold = cards_in_play(t)
        offer = lower_offer(t, sold)
        if offer is None:
            # Too few to draw at all (the message says how many to sell), or nothing to lower.
            draw.check_can_draw_round_one(t.cards, sold)
            raise RuleError(
                "cards",
                gettext_noop(
                    "%(sold)s of %(cards)s cards are sold, more than half: the draw can start "
                    "without lowering."
                ),
                sold=sold,
                cards=t.cards,
            )
        before = t.cards
        t.cards = offer
        t.save(update_fields=["cards"])
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "cards lowered",
            actor=actor,
            before={"cards": before, "sold": sold},
            after={"cards": t.cards, "sold": sold},
        )
        return t.cards


# -- the draw -------------------------------------------------------------------------


def _next_round_holders(
    state: State, expected: int | None = None
) -> tuple[int, int, list[draw.Holder]]:
    """(number, pot size, holders) of the round to draw now; RuleError when none may be,
    and when ``expected`` (the round the desk showed) is not the round to draw now."""
    t = state.tournament
    if expected is not None and expected != len(state.rounds) + 1:
        raise RuleError(
            "round",
            gettext_noop("Round %(number)s is drawn already: this page was out of date."),
            number=expected,
        )
    if state.in_progress is not None:
        raise RuleError("round", gettext_noop("A draw is being typed in: finish or undo it first."))
    alive = state.alive()
    if not state.rounds:
        draw.check_can_draw_round_one(t.cards, len(alive))
    else:
        last = state.round_states[-1]
        if not last.decided:
            raise RuleError(
                "round",
                gettext_noop("Round %(number)s still has %(open)s open matches."),
                number=last.number,
                open=last.open_matches,
            )
    pot_size = state.next_pot_size()
    if pot_size is None and len(alive) < 2 and state.round_states[-1].pot_size > 1:
        raise RuleError(
            "round",
            gettext_noop("No further round: %(count)s cards are left in (withdrawals)."),
            count=len(alive),
        )
    if pot_size is None:
        raise RuleError("round", gettext_noop("The final is drawn: there is no further round."))
    cards = {pk: c.player_id for pk, c in state.cards.items()}
    return len(state.rounds) + 1, pot_size, bracket.holders(cards, alive)


def draw_round(
    tournament: Tournament, actor: Actor, seed: int | None = None, expected: int | None = None
) -> Round:
    """Draw the next round digitally with a random seed kept on the round (RULES.md 5.2,
    5.4); ``expected``: the round number the desk offered (refused when another one is
    due now)."""
    seed = secrets.randbits(48) if seed is None else seed
    try:
        with transaction.atomic():
            t = _locked(tournament)
            state = load_state(t)
            number, pot_size, holders = _next_round_holders(state, expected)
            result = draw.digital_draw(holders, pot_size, seed, later_round=number > 1)
            return _store_draw(t, state, number, pot_size, seed, result, actor)
    except IntegrityError:
        # Another organiser's draw of the same round committed first: keep that one.
        raise RuleError(
            "round", gettext_noop("This round was just drawn by someone else.")
        ) from None


def _store_draw(t, state, number, pot_size, seed, result: "draw.Draw", actor, round_=None) -> Round:
    now = timezone.now()
    if round_ is None:
        round_ = Round.objects.create(
            tournament=t,
            number=number,
            pot_size=pot_size,
            seed=seed,
            drawn_at=now,
            drawn_by_id=actor.user_id,
        )
        Pull.objects.bulk_create(_pull_row(round_, i, p) for i, p in enumerate(result.pulls))
    else:
        round_.drawn_at = now
        round_.save(update_fields=["drawn_at"])
    Pairing.objects.bulk_create(
        Pairing(
            tournament=t,
            round=round_,
            stage=Stage.MAIN,
            number=p.number,
            kind=str(p.kind),
            left_id=p.left,
            right_id=p.right,
        )
        for p in result.pairings
    )
    _create_placement(t, actor, round_)
    audit.record(
        t.club_id,
        "tournament",
        t.pk,
        "round drawn",
        actor=actor,
        before=None,
        after={"round": number, "seed": seed, "pairings": len(result.pairings)},
    )
    return round_


def _pull_row(round_: Round, index: int, pull: draw.Pull) -> Pull:
    return Pull(
        round=round_,
        index=index,
        player_id=pull.player,
        card_id=pull.card,
        pot=str(pull.pot),
        number=pull.number,
        put_back=pull.put_back,
    )


def _create_placement(t: Tournament, actor: Actor, round_: Round | None) -> None:
    """Create the placement matches that became due (RULES.md 5.5): a "5-8" pairing with
    one card is a bye, a pairing of two cards of one player a walkover."""
    state = load_state(t)
    for label, cards in bracket.placement_due(state.round_states, state.placement_states):
        if label == "5-8":
            seed = secrets.randbits(48)
            owners = {c: state.cards[c].player_id for c in cards}
            pairs = draw.placement_pairs(list(cards), seed, owners=owners)
            numbers = (1, 2)
        else:
            pairs = (tuple(cards),)
            numbers = ({"3": 3, "5": 4, "7": 5}[label],)
        for number, (left, right) in zip(numbers, pairs, strict=True):
            if right is None:
                kind = Kind.BYE
            elif state.cards[left].player_id == state.cards[right].player_id:
                kind = Kind.WALKOVER
            else:
                kind = Kind.MATCH
            Pairing.objects.create(
                tournament=t,
                round=round_,
                stage=Stage.PLACEMENT,
                number=number,
                label=label,
                kind=kind,
                left_id=left,
                right_id=right,
            )


def start_physical_draw(tournament: Tournament, actor: Actor, expected: int | None = None) -> Round:
    """Open the next round for a draw at the venue, typed in pull by pull (``expected``
    as for ``draw_round``)."""
    try:
        with transaction.atomic():
            t = _locked(tournament)
            state = load_state(t)
            number, pot_size, _holders = _next_round_holders(state, expected)
            return Round.objects.create(
                tournament=t,
                number=number,
                pot_size=pot_size,
                seed=None,
                drawn_at=None,
                drawn_by_id=actor.user_id,
            )
    except IntegrityError:
        raise RuleError(
            "round", gettext_noop("This round was just drawn by someone else.")
        ) from None


def physical_session(state: State, round_: Round) -> draw.DrawSession:
    """The draw session of a round being typed in, with its pulls so far replayed."""
    cards = {pk: c.player_id for pk, c in state.cards.items()}
    previous = [r for r in state.round_states if r.number < round_.number]
    alive = bracket.cards_left(previous, sorted(state.cards), state.withdrawn)
    order = draw.physical_order(bracket.holders(cards, alive), later_round=round_.number > 1)
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


def _pull_params(pull: Pull) -> dict:
    """A pull as refusals name it: its place in the draw (1-based), holder, card, number."""
    return {
        "pull": pull.index + 1,
        "name": pull.player.name,
        "card": pull.card.number,
        "number": pull.number,
    }


def _stale_pull(round_: Round, seen: int, state: State, session: draw.DrawSession) -> RuleError:
    """The refusal of a pull typed on a page rendered from pull ``seen`` (0: none), when
    another pull is the latest now: what happened since, and whose turn it is now."""
    turn = session.next_turn()
    card = state.cards[turn[1]] if turn else None
    now = {"next": card.player.name, "next_card": card.number} if card else {}
    earlier = (
        Pull.objects.filter(round=round_, pk=seen).select_related("card", "player").first()
        if seen
        else None
    )
    if earlier is not None and earlier.undone_at is not None:
        return RuleError(
            "number",
            gettext_noop(
                "Since this page was shown, pull %(pull)s (%(name)s, card %(card)s: "
                "%(number)s) was undone; now %(next)s (card %(next_card)s) is next."
            ),
            **_pull_params(earlier),
            **now,
        )
    latest = latest_pull(round_)
    if latest is not None and (earlier is not None or not seen):
        return RuleError(
            "number",
            gettext_noop(
                "Since this page was shown, pull %(pull)s was entered: %(name)s (card "
                "%(card)s) pulled %(number)s; now %(next)s (card %(next_card)s) is next."
            ),
            **_pull_params(latest),
            **now,
        )
    return RuleError(
        "number",
        gettext_noop("This page was out of date: now %(next)s (card %(next_card)s) is next."),
        **now,
    )


def add_pull(
    tournament: Tournament, round_id: int, number: int, actor: Actor, seen: int | None = None
) -> draw.Pull:
    """Record the number just pulled at the venue; DrawError says exactly what is wrong.
    The last pull completes the draw and creates the pairings.

    ``seen``: the id of the latest live pull the page showed (``latest_pull``; 0 when it
    showed none; None: not checked). A pull typed on an older page is refused on
    ``number`` with what happened since and whose turn it is now (issue: a stale page
    never writes something else than its user saw)."""
    with transaction.atomic():
        t = _locked(tournament)
        state = load_state(t)
        round_ = state.in_progress
        if round_ is None or round_.pk != round_id:
            raise RuleError("round", gettext_noop("No draw is being typed in."))
        session = physical_session(state, round_)
        if seen is not None:
            latest = latest_pull(round_)
            if seen != (latest.pk if latest else 0):
                raise _stale_pull(round_, seen, state, session)
        index = len(session.pulls)
        pull = session.pull(number)
        _pull_row(round_, index, pull).save()
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "pull entered",
            actor=actor,
            before=None,
            after={
                "round": round_.number,
                "card": state.cards[pull.card].number,
                "pot": str(pull.pot),
                "number": pull.number,
                "put_back": pull.put_back,
            },
        )
        if session.done:
            _store_draw(
                t, state, round_.number, round_.pot_size, None, session.result(), actor, round_
            )
        return pull


def undo_last_pull(
    tournament: Tournament, round_id: int, actor: Actor, pull: int | None = None
) -> Pull:
    """Undo the last pull of the latest draw at the venue (a number typed wrongly,
    RULES.md 5.6): it stays in the history, marked undone, and the same card pulls
    again. A put-back counts as a pull of its own. When that pull completed the draw,
    the draw is open again: its pairings (and the placement matches it made) are undone,
    as long as none has a result.

    ``pull``: the id of the pull the confirmation asked about (None: not checked). RuleError
    on ``round``: the round is not the latest draw at the venue (a digital draw is undone
    as a whole), it has no pull yet, results stand on its pairings, or ``pull`` is not the
    latest live pull (undone already, or another pull was entered since): a second tap
    never undoes a second pull."""
    with transaction.atomic():
        _lock_sheets_first(Pairing.objects.filter(round_id=round_id))
        t = _locked(tournament)
        state = load_state(t)
        round_ = state.current
        if round_ is None or round_.pk != round_id or round_.seed is not None:
            raise RuleError(
                "round",
                gettext_noop("Only the latest draw at the venue can be undone pull by pull."),
            )
        last = latest_pull(round_)
        if pull is not None and (last is None or pull != last.pk):
            raise _not_the_last_pull(round_, pull, last)
        if last is None:
            raise RuleError("round", gettext_noop("No number has been pulled yet."))
        reopened = 0
        if round_.drawn_at is not None:
            _refuse_if_decided(state, round_)
            made = Pairing.objects.filter(round=round_, voided_at__isnull=True)
            for sheet_id in made.exclude(sheet=None).values_list("sheet_id", flat=True):
                _lock_sheet(sheet_id, "closed", SHEET_UNDONE)
            reopened = made.update(voided_at=timezone.now())
            Round.objects.filter(pk=round_.pk).update(drawn_at=None)
        last.undone_at = timezone.now()
        last.undone_by_id = actor.user_id
        last.save(update_fields=["undone_at", "undone_by"])
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "pull undone",
            actor=actor,
            before={
                "round": round_.number,
                "pull": last.index + 1,
                "player": last.player.name,
                "card": last.card.number,
                "pot": last.pot,
                "number": last.number,
                "put_back": last.put_back,
            },
            after={"draw_reopened": True, "pairings_undone": reopened} if reopened else None,
        )
        return last


def _not_the_last_pull(round_: Round, asked: int, last: Pull | None) -> RuleError:
    """The refusal to undo pull ``asked`` (an id) when ``last`` is the latest live pull."""
    earlier = Pull.objects.filter(round=round_, pk=asked).first()
    if last is None:
        if earlier is not None:
            return RuleError(
                "round",
                gettext_noop("Pull %(asked)s is undone already; no pull is left."),
                asked=earlier.index + 1,
            )
        return RuleError("round", gettext_noop("No number has been pulled yet."))
    if earlier is not None and earlier.undone_at is not None:
        return RuleError(
            "round",
            gettext_noop(
                "Pull %(asked)s is undone already; the last one is now pull %(pull)s "
                "(%(name)s, card %(card)s: %(number)s)."
            ),
            asked=earlier.index + 1,
            **_pull_params(last),
        )
    return RuleError(
        "round",
        gettext_noop(
            "Pull %(pull)s is the last one now (%(name)s, card %(card)s: %(number)s): "
            "this page was out of date, nothing was undone."
        ),
        **_pull_params(last),
    )


def _refuse_if_decided(state: State, round_: Round) -> None:
    """RuleError naming the pairings of ``round_`` (and the placement matches its draw
    made) that have a result: they must be voided before the draw is undone."""
    decided = [p.number for p in state.pairings[round_.pk] if p.pk in state.results] + [
        p.label for p in state.placement if p.round_id == round_.pk and p.pk in state.results
    ]
    if decided:
        raise RuleError(
            "round",
            gettext_noop("Void the results of round %(number)s first (pairings %(list)s)."),
            number=round_.number,
            list=", ".join(str(d) for d in decided),
        )


def _lock_sheets_first(pairings) -> None:
    """Take the row locks of the score sheets of ``pairings`` (a Pairing queryset) before
    the tournament's. A write on a match's sheet locks the sheet, then (reporting its
    result) the tournament; a change here that locks or unlocks such sheets takes them in
    the same order, so the two never wait on each other (PostgreSQL would find a
    deadlock). SQLite's IMMEDIATE transactions serialise all writers anyway."""
    ids = sorted(pairings.exclude(sheet=None).values_list("sheet_id", flat=True))
    if ids:
        list(Sheet.objects.select_for_update().filter(pk__in=ids).order_by("pk").values("pk"))


def _lock_sheet(sheet_id: int | None, kind: str, template: str, **params) -> None:
    """Lock a match's score sheet (``Sheet.write_refusal`` reads it): kind ``result``
    while its result stands, ``closed`` when the match is gone."""
    if sheet_id is not None:
        Sheet.objects.filter(pk=sheet_id).update(
            locked_at=timezone.now(),
            lock={"kind": kind, "template": template, "params": params},
        )


def _unlock_sheet(sheet_id: int | None) -> None:
    if sheet_id is not None:
        Sheet.objects.filter(pk=sheet_id).update(locked_at=None, lock={})


def _lock_for_result(pairing: Pairing, result: Result) -> None:
    if pairing.sheet_id is not None:
        _lock_sheet(
            pairing.sheet_id,
            "result",
            RESULT_STANDS[result_source(result)],
            **result_params(result),
        )


def undo_draw(tournament: Tournament, round_id: int, actor: Actor) -> Round:
    """Undo the latest draw while none of its matches has a result; it stays in the
    history, marked undone. RuleError says which results must be voided first. The score
    sheets of its matches take no more deals (they say the draw was undone). A card
    withdrawn during the undone round counts as withdrawn in the round before (it is not
    drawn again, RULES.md 5.7)."""
    with transaction.atomic():
        _lock_sheets_first(Pairing.objects.filter(round_id=round_id))
        t = _locked(tournament)
        state = load_state(t)
        current = state.current
        if current is None or current.pk != round_id:
            raise RuleError("round", gettext_noop("Only the latest draw can be undone."))
        _refuse_if_decided(state, current)
        now = timezone.now()
        Round.objects.filter(pk=current.pk).update(undone_at=now, undone_by_id=actor.user_id)
        Pairing.objects.filter(round=current, stage=Stage.PLACEMENT).update(voided_at=now)
        for pairing in Pairing.objects.filter(round=current).exclude(sheet=None):
            _lock_sheet(pairing.sheet_id, "closed", SHEET_UNDONE)
        moved = list(
            Card.objects.filter(tournament=t, withdrawn_round=current.number).values_list(
                "number", flat=True
            )
        )
        if moved:
            Card.objects.filter(tournament=t, withdrawn_round=current.number).update(
                withdrawn_round=current.number - 1
            )
        current.undone_at = now
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "draw undone",
            actor=actor,
            before={"round": current.number},
            after={"withdrawn_cards_moved_back": moved} if moved else None,
        )
        return current


# -- results --------------------------------------------------------------------------


def _void_dependents(t: Tournament, pairing: Pairing) -> None:
    """The matches for 5/6 and 7/8 are drawn from the two "5-8" results: when one of those
    changes, they are made again (RULES.md 5.5); ``_check_editable`` has made sure they
    have no result yet. Their score sheets take no more deals."""
    if pairing.label == "5-8":
        dependents = Pairing.objects.filter(
            tournament=t, label__in=("5", "7"), voided_at__isnull=True
        )
        for sheet_id in dependents.exclude(sheet=None).values_list("sheet_id", flat=True):
            _lock_sheet(sheet_id, "closed", SHEET_REMADE)
        dependents.update(voided_at=timezone.now())


def _dependents(pairing: Pairing):
    """The pairings whose sheets a change of ``pairing``'s result may lock: itself, and
    for a "5-8" match the matches for 5 and 7."""
    query = Pairing.objects.filter(pk=pairing.pk)
    if pairing.label == "5-8":
        query = query | Pairing.objects.filter(
            tournament_id=pairing.tournament_id, label__in=("5", "7"), voided_at__isnull=True
        )
    return query


def _audit_result(result: Result | None) -> dict | None:
    if result is None:
        return None
    pairing = result.pairing
    return {
        "pairing": pairing.label or pairing.number,
        "round": pairing.round.number if pairing.round_id and pairing.stage == Stage.MAIN else None,
        "winner_card": result.winner.number,
        "score": result.score,
    }


def _check_editable(t: Tournament, pairing: Pairing) -> None:
    """A result may change while nothing was built on it (RULES.md 5.4)."""
    if pairing.stage == Stage.MAIN:
        later = (
            Round.objects.filter(
                tournament=t, undone_at__isnull=True, number__gt=pairing.round.number
            )
            .order_by("number")
            .first()
        )
        if later is not None:
            raise RuleError(
                "pairing",
                gettext_noop("Round %(number)s is drawn already: undo that draw first."),
                number=later.number,
            )
        return
    if (
        pairing.label == "5-8"
        and Result.objects.filter(
            pairing__tournament=t,
            pairing__label__in=("5", "7"),
            pairing__voided_at__isnull=True,
            voided_at__isnull=True,
        ).exists()
    ):
        raise RuleError(
            "pairing",
            gettext_noop("The matches for places 5 to 8 have results: void them first."),
        )


def _withdrawn_in(pairing: Pairing) -> list[Card]:
    """The withdrawn cards that make this pairing a walkover (RULES.md 5.7)."""
    cards = Card.objects.filter(
        pk__in=[c for c in (pairing.left_id, pairing.right_id) if c is not None],
        withdrawn_round__isnull=False,
    ).select_related("player")
    if pairing.stage == Stage.MAIN:
        return [c for c in cards if c.withdrawn_round == pairing.round.number]
    return list(cards)


def record_result(
    pairing: Pairing,
    winner: int,
    score: str,
    key: uuid.UUID,
    actor: Actor,
    from_sheet=False,
    seen=NOT_CHECKED,
) -> Result:
    """Decide a match: ``winner`` is the winning card's id, ``score`` the Bummerl (2:0, 2:1;
    3:x for matches to three). A repeated ``key`` returns the first result when it is the
    same (match, winner, score), and is refused on ``key`` when it is another; the same
    result sent again is answered with the stored one. ``seen``: the live result's id the
    form was rendered with (None: no result); when another result stands now,
    ``StaleResult`` says which, who entered it and when. A different result for a decided
    match is refused (correct it instead), and so is a result for a withdrawal's walkover."""
    return _write_result(pairing, winner, score, key, actor, False, from_sheet, seen)


def correct_result(
    pairing: Pairing,
    winner: int,
    score: str,
    key: uuid.UUID,
    actor: Actor,
    from_sheet=False,
    seen=NOT_CHECKED,
) -> Result:
    """Void the live result of the match and record this one; refused once the next
    round is drawn (the message says which draw to undo), and (``StaleResult``) when
    the result changed since the form showed ``seen``."""
    return _write_result(pairing, winner, score, key, actor, True, from_sheet, seen)


def _write_result(pairing, winner, score, key, actor, correct, from_sheet, seen=NOT_CHECKED):
    try:
        with transaction.atomic():
            _lock_sheets_first(_dependents(pairing))
            t = _locked(pairing.tournament)
            first = Result.objects.filter(key=key).first()
            if first is not None:
                return _repeated(first, pairing, winner, score)
            pairing = Pairing.objects.select_related("round").get(pk=pairing.pk)
            if pairing.voided_at is not None or (
                pairing.round is not None and pairing.round.undone_at is not None
            ):
                raise RuleError("pairing", gettext_noop("This pairing was undone."))
            if pairing.kind != Kind.MATCH:
                raise RuleError("pairing", gettext_noop("A bye or walkover has no result."))
            if winner not in (pairing.left_id, pairing.right_id):
                raise RuleError("winner", gettext_noop("The winner must be one of the two cards."))
            if score not in SCORES[t.match_bummerl]:
                raise RuleError(
                    "score",
                    gettext_noop("A match to %(n)s Bummerl ends %(scores)s."),
                    n=t.match_bummerl,
                    scores=" / ".join(SCORES[t.match_bummerl]),
                )
            live = (
                Result.objects.filter(pairing=pairing, voided_at__isnull=True)
                .select_related("recorded_by")
                .first()
            )
            if live is not None and not correct and (live.winner_id, live.score) == (winner, score):
                return live  # the same result sent again (or by two at once): nothing to do
            if seen is not NOT_CHECKED and (live.pk if live else None) != seen:
                raise StaleResult(live)
            if live is None:
                gone = _withdrawn_in(pairing)
                if gone:
                    raise RuleError(
                        "pairing",
                        gettext_noop(
                            "%(name)s (card %(card)s) was withdrawn: the match is a walkover."
                        ),
                        name=gone[0].player.name,
                        card=gone[0].number,
                    )
            if live is not None:
                if not correct:
                    if actor.organiser:
                        raise RuleError(
                            "pairing",
                            gettext_noop("This match already has a result: correct it instead."),
                        )
                    raise RuleError(
                        "pairing", RESULT_STANDS[result_source(live)], **result_params(live)
                    )
                _check_editable(t, pairing)
                Result.objects.filter(pk=live.pk).update(
                    voided_at=timezone.now(), voided_by_id=actor.user_id
                )
                _void_dependents(t, pairing)
            result = Result.objects.create(
                pairing=pairing,
                winner_id=winner,
                score=score,
                key=key,
                recorded_by_id=actor.user_id,
                via_link=actor.via_link,
                from_sheet=from_sheet,
            )
            result.recorded_by = actor.user if actor.user_id else None
            _lock_for_result(pairing, result)
            audit.record(
                t.club_id,
                "tournament",
                t.pk,
                "result corrected" if live else "result recorded",
                actor=actor,
                before=_audit_result(live),
                after=_audit_result(result),
            )
            if pairing.stage == Stage.PLACEMENT:
                _create_placement(t, actor, pairing.round)
            return result
    except IntegrityError:
        # Two phones sent results for one match at once: the first one stands.
        existing = Result.objects.filter(key=key).first()
        if existing is not None:
            return _repeated(existing, pairing, winner, score)
        live = Result.objects.filter(pairing=pairing, voided_at__isnull=True).first()
        raise StaleResult(live) from None


def _repeated(first: Result, pairing: Pairing, winner: int, score: str) -> Result:
    """The result a one-time key recorded, when this submit repeats it; RuleError on
    ``key`` when the key was used for another result (an old page's form)."""
    if (first.pairing_id, first.winner_id, first.score) != (pairing.pk, winner, score):
        raise key_reused()
    return first


# -- export ---------------------------------------------------------------------------


def export(tournament: Tournament) -> dict:
    """The tournament as JSON (the format of the Preisschnapsen issue, README). Withdrawn
    cards are listed under ``withdrawn`` with ``withdrawn_round`` (0: before round 1); a
    match that a withdrawal decided has kind ``walkover``, no score, and ``withdrawn``
    (the card numbers) (RULES.md 5.7)."""
    state = load_state(tournament)
    t = tournament

    def ref(card_id):
        if card_id is None:
            return None
        card = state.cards[card_id]
        return {"card": card.number, "player": card.player.name}

    def pairing_dict(p: Pairing) -> dict:
        result = state.results.get(p.pk)
        match = state.matches[p.pk]
        winner = match.advancing if match.decided else None
        return {
            "number": p.number,
            **({"label": p.label} if p.label else {}),
            "left": ref(p.left_id),
            "right": ref(p.right_id),
            "kind": match.shown_kind,
            "winner_card": state.cards[winner].number if winner else None,
            "score": result.score if result else None,
            **(
                {"withdrawn": sorted(state.cards[c].number for c in match.withdrawn)}
                if match.withdrawn
                else {}
            ),
        }

    pulls = {}
    for pull in Pull.objects.live().filter(round__in=state.rounds).select_related("player", "card"):
        pulls.setdefault(pull.round_id, []).append(pull)
    players: dict[str, list[int]] = {}
    for card in state.cards.values():
        players.setdefault(card.player.name, []).append(card.number)
    return {
        "name": t.name,
        "club": t.club.name,
        "starts_at": t.starts_at.isoformat(),
        "cards": t.cards,
        "max_cards": t.max_cards,
        "match_bummerl": t.match_bummerl,
        "entry_fee": f"{Decimal(t.entry_fee):.2f}",
        "one_prize_per_player": t.one_prize_per_player,
        "prize_list": t.prizes,
        "players": [
            {"name": name, "cards": sorted(cards)}
            for name, cards in sorted(
                players.items(), key=lambda item: (german_key(item[0]), item[0])
            )
        ],
        "withdrawn": [
            {
                "card": c.number,
                "player": c.player.name,
                "withdrawn_round": c.withdrawn_round,
            }
            for c in sorted(state.cards.values(), key=lambda c: c.number)
            if c.withdrawn_round is not None
        ],
        "rounds": [
            {
                "number": r.number,
                "pot_size": r.pot_size,
                "seed": r.seed,
                "pulls": [
                    {
                        "player": p.player.name,
                        "card": p.card.number,
                        "pot": p.pot,
                        "number": p.number,
                        "put_back": p.put_back,
                    }
                    for p in sorted(pulls.get(r.pk, []), key=lambda p: p.index)
                ],
                "pairings": [pairing_dict(p) for p in state.pairings[r.pk]],
            }
            for r in state.rounds
        ],
        "placement": [pairing_dict(p) for p in state.placement],
        "ranking": [
            {"place": first, "to": last, **ref(card)}
            for first, last, card in [(p, p, c) for p, c in sorted(state.places().items())]
            + state.shared()
        ],
        "prizes": [
            {
                "place": a.place,
                "description": a.description,
                "card": state.cards[a.card].number,
                "player": state.cards[a.card].player.name,
            }
            for a in state.awards()
        ],
    }


# -- a match played on a score sheet ----------------------------------------------------


def open_match_sheet(pairing: Pairing, actor: Actor):
    """The two-player score sheet of a match (made once): the tournament's Partie length,
    a Schneider counting one Bummerl (RULES.md 5.3). When its Partie is decided, the sheet
    records the match result by itself (``follow_match_sheet``). Refused (RuleError on
    ``pairing``) for a bye or walkover, a withdrawal's walkover, and a match whose result
    stands already (the message names it)."""
    from scoring import services as scoring
    from scoring.models import RuleSet

    with transaction.atomic():
        t = _locked(pairing.tournament)
        pairing = Pairing.objects.select_related("left__player", "right__player").get(pk=pairing.pk)
        if pairing.sheet_id is not None:
            return pairing.sheet
        if pairing.kind != Kind.MATCH:
            raise RuleError("pairing", gettext_noop("A bye or walkover has no result."))
        pairing.round = Round.objects.filter(pk=pairing.round_id).first()
        live = (
            Result.objects.filter(pairing=pairing, voided_at__isnull=True)
            .select_related("recorded_by")
            .first()
        )
        if live is not None:  # a result entered meanwhile: no sheet to change it
            raise RuleError("pairing", RESULT_STANDS[result_source(live)], **result_params(live))
        gone = _withdrawn_in(pairing)
        if gone:
            raise RuleError(
                "pairing",
                gettext_noop("%(name)s (card %(card)s) was withdrawn: the match is a walkover."),
                name=gone[0].player.name,
                card=gone[0].number,
            )
        preset = RuleSet.objects.filter(club__isnull=True, preset="wiki").first()
        rules = preset.rules.with_changes(
            options={"schneider_counts": 1, "partie_bummerl": t.match_bummerl}
        )
        sheet = scoring.open_sheet(
            t.club,
            "schnapsen",
            [pairing.left.player, pairing.right.player],
            preset,
            title=f"{t.name} · {pairing.label or pairing.number}",
            actor=scoring.Actor(actor.user),
            rules=rules,
        )
        sheet.reports_result = True
        sheet.save(update_fields=["reports_result"])
        pairing.sheet = sheet
        pairing.save(update_fields=["sheet"])
        return sheet


def follow_match_sheet(sender, sheet, state, key, **kwargs) -> None:
    """Receiver of ``scoring.signals.sheet_changed``: a match played on a score sheet has
    the result its sheet shows. What the sheet says is kept on the pairing (the desk flags
    a sheet that contradicts the stored result). A decided Partie records (or corrects)
    the match result; a correction on the sheet that undoes the Partie voids the result
    the sheet made. A RuleError (the next round is drawn already) refuses the change on
    the sheet. A result entered by hand is left alone: the organiser decides. Once a
    result stands only organisers still write on the sheet (``Sheet.write_refusal``)."""
    pairing = Pairing.objects.filter(sheet=sheet).select_related("tournament").first()
    if pairing is None:
        return
    actor = kwargs.get("actor") or Actor(None, via_link=True)
    winner = state.partie_winner
    winner_card = None if winner is None else (pairing.left_id if winner == 0 else pairing.right_id)
    score = "" if winner is None else f"{state.tally[1 - winner]}:{state.tally[winner]}"
    Pairing.objects.filter(pk=pairing.pk).update(sheet_winner_id=winner_card, sheet_score=score)
    pairing.sheet_winner_id, pairing.sheet_score = winner_card, score
    live = Result.objects.filter(pairing=pairing, voided_at__isnull=True).first()
    if live is not None and not live.from_sheet:
        return
    if winner is None:
        if live is not None:
            void_result(pairing, actor)
        return
    if live is not None and (live.winner_id, live.score) == (winner_card, score):
        return
    result_key = uuid.uuid5(uuid.NAMESPACE_URL, f"bummerl:sheet:{sheet.pk}:{key or uuid.uuid4()}")
    write = correct_result if live is not None else record_result
    write(pairing, winner_card, score, result_key, actor, from_sheet=True)


def void_result(pairing: Pairing, actor: Actor, seen=NOT_CHECKED) -> None:
    """Void the live result of a match (it stays in the history); refused once the next
    round is drawn, and (``StaleResult``) when another result than ``seen`` (the live
    result's id the form showed) stands now. Its score sheet takes deals again."""
    with transaction.atomic():
        _lock_sheets_first(_dependents(pairing))
        t = _locked(pairing.tournament)
        pairing = Pairing.objects.select_related("round").get(pk=pairing.pk)
        live = (
            Result.objects.filter(pairing=pairing, voided_at__isnull=True)
            .select_related("recorded_by")
            .first()
        )
        if live is None:
            return  # voided meanwhile: what the user wanted
        if seen is not NOT_CHECKED and live.pk != seen:
            raise StaleResult(live)
        _check_editable(t, pairing)
        Result.objects.filter(pk=live.pk).update(
            voided_at=timezone.now(), voided_by_id=actor.user_id
        )
        _void_dependents(t, pairing)
        gone = _withdrawn_in(pairing) if pairing.sheet_id is not None else []
        if gone:  # without its result the match is a withdrawal's walkover
            card = gone[0]
            _lock_sheet(
                pairing.sheet_id, "closed", SHEET_WITHDRAWN, name=card.player.name, card=card.number
            )
        else:
            _unlock_sheet(pairing.sheet_id)
        audit.record(
            t.club_id, "tournament", t.pk, "result voided", actor=actor, before=_audit_result(live)
        )


# -- withdrawal (RULES.md 5.7) -----------------------------------------------------------


def withdraw_card(tournament: Tournament, card_id: int, actor: Actor) -> Card:
    """Withdraw a card whose holder went home (RULES.md 5.7), in the round now being
    played (``Card.withdrawn_round``; 0 before round 1 is drawn).

    Before the next draw the card is not drawn (never a bye); an open match it is in
    (main draw or placement) becomes a walkover for the other card, and that match's
    score sheet takes no more deals. Its earlier results stay. RuleError on ``card``:
    unknown, withdrawn already, out already (no match ahead), or a draw is being typed in.
    """
    with transaction.atomic():
        _lock_sheets_first(
            Pairing.objects.filter(tournament_id=tournament.pk, voided_at__isnull=True).filter(
                models.Q(left_id=card_id) | models.Q(right_id=card_id)
            )
        )
        t = _locked(tournament)
        state = load_state(t)
        card = state.cards.get(card_id)
        if card is None:
            raise RuleError("card", gettext_noop("There is no such card in this tournament."))
        if card.withdrawn_round is not None:
            raise RuleError(
                "card",
                gettext_noop("Card %(card)s is withdrawn already."),
                card=card.number,
            )
        if state.in_progress is not None:
            raise RuleError(
                "card", gettext_noop("A draw is being typed in: finish or undo it first.")
            )
        if card_id not in state.still_playing():
            raise RuleError(
                "card",
                gettext_noop("Card %(card)s (%(name)s) has no match ahead: it is out already."),
                card=card.number,
                name=card.player.name,
            )
        number = state.current.number if state.current else 0
        now = timezone.now()
        Card.objects.filter(pk=card.pk).update(
            withdrawn_round=number, withdrawn_at=now, withdrawn_by_id=actor.user_id
        )
        card.withdrawn_round, card.withdrawn_at = number, now
        walkovers = []
        open_pairings = [
            p
            for p in [
                *(state.pairings[state.current.pk] if state.current else []),
                *state.placement,
            ]
            if card_id in (p.left_id, p.right_id)
            and p.kind == Kind.MATCH
            and p.pk not in state.results
        ]
        for pairing in open_pairings:
            walkovers.append(pairing.label or pairing.number)
            _lock_sheet(
                pairing.sheet_id, "closed", SHEET_WITHDRAWN, name=card.player.name, card=card.number
            )
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "card withdrawn",
            actor=actor,
            before=None,
            after={
                "card": card.number,
                "player": card.player.name,
                "round": number,
                "walkovers": walkovers,
            },
        )
        if open_pairings:
            _create_placement(t, actor, state.current)
        return card


def undo_withdrawal(tournament: Tournament, card_id: int, actor: Actor) -> Card:
    """Take a withdrawal back while nothing was built on it (RULES.md 5.7): no round was
    drawn after it, and the matches for 5 and 7 made from a "5-8" walkover it caused have
    no result (they are made again). Its walkovers are open matches again."""
    with transaction.atomic():
        _lock_sheets_first(
            Pairing.objects.filter(tournament_id=tournament.pk, voided_at__isnull=True).filter(
                models.Q(left_id=card_id)
                | models.Q(right_id=card_id)
                | models.Q(label__in=("5", "7"))
            )
        )
        t = _locked(tournament)
        state = load_state(t)
        card = state.cards.get(card_id)
        if card is None or card.withdrawn_round is None:
            raise RuleError("card", gettext_noop("This card is not withdrawn."))
        later = [r.number for r in state.rounds if r.number > card.withdrawn_round]
        if later:
            raise RuleError(
                "card",
                gettext_noop(
                    "Round %(number)s was drawn without card %(card)s: undo that draw first."
                ),
                number=later[0],
                card=card.number,
            )
        if not state.rounds and cards_in_play(t) >= t.cards:
            raise RuleError(
                "card",
                gettext_noop(
                    "Card %(card)s cannot come back: all %(cards)s cards laid out are in play."
                ),
                card=card.number,
                cards=t.cards,
            )
        walkovers = [
            p
            for p in [
                *(state.pairings[state.current.pk] if state.current else []),
                *state.placement,
            ]
            if card_id in (p.left_id, p.right_id) and state.matches[p.pk].walkover
        ]
        for pairing in walkovers:
            _check_editable(t, pairing)
        for pairing in walkovers:
            _void_dependents(t, pairing)
            others = state.matches[pairing.pk].withdrawn - {card_id}
            if not others:
                _unlock_sheet(pairing.sheet_id)
        Card.objects.filter(pk=card.pk).update(
            withdrawn_round=None, withdrawn_at=None, withdrawn_by_id=None
        )
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "withdrawal undone",
            actor=actor,
            before={"card": card.number, "player": card.player.name, "round": card.withdrawn_round},
        )
        card.withdrawn_round = card.withdrawn_at = None
        return card
