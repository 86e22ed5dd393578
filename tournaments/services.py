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

from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs import audit
from clubs.models import Club
from clubs.services import player_named
from clubs.text import german_key, name_fold
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

    def alive(self) -> list[int]:
        sold = sorted(self.cards)
        complete = [s for s, r in zip(self.round_states, self.rounds, strict=True) if r.drawn_at]
        return bracket.cards_left(complete, sold)

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
        return bracket.next_pot_size(self.round_states, self.tournament.cards)

    def rows(self, pairings) -> list[dict]:
        """Pairings as pages and printouts show them: the cards (with players), the live
        result and the winning card."""
        rows = []
        for p in pairings:
            result = self.results.get(p.pk)
            rows.append(
                {
                    "pairing": p,
                    "label": p.label or p.number,
                    "kind": p.kind,
                    "left": self.cards.get(p.left_id),
                    "right": self.cards.get(p.right_id),
                    "result": result,
                    "winner": self.cards.get(result.winner_id) if result else None,
                }
            )
        return rows


def _match(pairing: Pairing, results: dict[int, Result]) -> bracket.Match:
    result = results.get(pairing.pk)
    return bracket.Match(
        pairing.number,
        pairing.kind,
        pairing.left_id,
        pairing.right_id,
        result.winner_id if result else None,
        pairing.label,
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
        for r in Result.objects.filter(pairing__tournament=tournament, voided_at__isnull=True)
    }
    live_rounds = {r.pk for r in rounds}
    pairings: dict[int, list[Pairing]] = {r.pk: [] for r in rounds}
    placement = []
    for p in all_pairings:
        if p.stage == Stage.PLACEMENT:
            if p.round_id is None or p.round_id in live_rounds:
                placement.append(p)
        elif p.round_id in live_rounds:
            pairings[p.round_id].append(p)
    round_states = [
        bracket.RoundState(r.number, r.pot_size, tuple(_match(p, results) for p in pairings[r.pk]))
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
        [_match(p, results) for p in placement],
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
        sold = Card.objects.filter(tournament=t).count()
        if sold + count > t.cards:
            raise RuleError(
                "count",
                gettext_noop("Only %(left)s of %(cards)s cards are left."),
                left=t.cards - sold,
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
            actor,
            None,
            {"player": player.name, "cards": [c.number for c in cards], "paid": paid},
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
            actor,
            {"card": locked.number, "paid": locked.paid},
            {"card": locked.number, "paid": paid},
        )


def lower_offer(tournament: Tournament, sold: int) -> int | None:
    """The number of cards the desk offers to lower to before round 1 (RULES.md 5.1):
    ``draw.smallest_cards(sold)`` when the draw is refused for too few cards sold and
    lowering makes it possible, else None."""
    if sold < draw.LOWEST_CARDS or sold > tournament.cards // 2:
        return None
    return draw.smallest_cards(sold)


def lower_cards(tournament: Tournament, actor: Actor | None = None) -> int:
    """Lower N to the smallest power of two that holds the cards sold (RULES.md 5.1),
    returns the new N. RuleError on ``cards`` once round 1 is drawn (or typed in), when
    fewer than 2 cards are sold (sell more) and when more than half are sold already
    (nothing to lower: draw)."""
    with transaction.atomic():
        t = _locked(tournament)
        if Round.objects.filter(tournament=t, undone_at__isnull=True).exists():
            raise RuleError("cards", gettext_noop("Round 1 is drawn already."))
        sold = Card.objects.filter(tournament=t).count()
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
            actor,
            {"cards": before, "sold": sold},
            {"cards": t.cards, "sold": sold},
        )
        return t.cards


# -- the draw -------------------------------------------------------------------------


def _next_round_holders(state: State) -> tuple[int, int, list[draw.Holder]]:
    """(number, pot size, holders) of the round to draw now; RuleError when none may be."""
    t = state.tournament
    if state.in_progress is not None:
        raise RuleError("round", gettext_noop("A draw is being typed in: finish or undo it first."))
    if not state.rounds:
        draw.check_can_draw_round_one(t.cards, len(state.cards))
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
    if pot_size is None:
        raise RuleError("round", gettext_noop("The final is drawn: there is no further round."))
    cards = {pk: c.player_id for pk, c in state.cards.items()}
    return len(state.rounds) + 1, pot_size, bracket.holders(cards, state.alive())


def draw_round(tournament: Tournament, actor: Actor, seed: int | None = None) -> Round:
    """Draw the next round digitally with a random seed kept on the round (RULES.md 5.2, 5.4)."""
    seed = secrets.randbits(48) if seed is None else seed
    try:
        with transaction.atomic():
            t = _locked(tournament)
            state = load_state(t)
            number, pot_size, holders = _next_round_holders(state)
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
        actor,
        None,
        {"round": number, "seed": seed, "pairings": len(result.pairings)},
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


def start_physical_draw(tournament: Tournament, actor: Actor) -> Round:
    """Open the next round for a draw at the venue, typed in pull by pull."""
    try:
        with transaction.atomic():
            t = _locked(tournament)
            state = load_state(t)
            number, pot_size, _holders = _next_round_holders(state)
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
    alive = bracket.cards_left(previous, sorted(state.cards))
    order = draw.physical_order(bracket.holders(cards, alive), later_round=round_.number > 1)
    session = draw.DrawSession(order, round_.pot_size)
    for pull in Pull.objects.live().filter(round=round_).order_by("index"):
        session.pull(pull.number)
    return session


def add_pull(tournament: Tournament, round_id: int, number: int, actor: Actor) -> draw.Pull:
    """Record the number just pulled at the venue; DrawError says exactly what is wrong.
    The last pull completes the draw and creates the pairings."""
    with transaction.atomic():
        t = _locked(tournament)
        state = load_state(t)
        round_ = state.in_progress
        if round_ is None or round_.pk != round_id:
            raise RuleError("round", gettext_noop("No draw is being typed in."))
        session = physical_session(state, round_)
        index = len(session.pulls)
        pull = session.pull(number)
        _pull_row(round_, index, pull).save()
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "pull entered",
            actor,
            None,
            {
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


def undo_last_pull(tournament: Tournament, round_id: int, actor: Actor) -> Pull:
    """Undo the last pull of the latest draw at the venue (a number typed wrongly,
    RULES.md 5.6): it stays in the history, marked undone, and the same card pulls
    again. A put-back counts as a pull of its own. When that pull completed the draw,
    the draw is open again: its pairings (and the placement matches it made) are undone,
    as long as none has a result.

    RuleError on ``round``: the round is not the latest draw at the venue (a digital draw
    is undone as a whole), it has no pull yet, or results stand on its pairings."""
    with transaction.atomic():
        t = _locked(tournament)
        state = load_state(t)
        round_ = state.current
        if round_ is None or round_.pk != round_id or round_.seed is not None:
            raise RuleError(
                "round",
                gettext_noop("Only the latest draw at the venue can be undone pull by pull."),
            )
        reopened = 0
        if round_.drawn_at is not None:
            _refuse_if_decided(state, round_)
            reopened = Pairing.objects.filter(round=round_, voided_at__isnull=True).update(
                voided_at=timezone.now()
            )
            Round.objects.filter(pk=round_.pk).update(drawn_at=None)
        last = (
            Pull.objects.live()
            .filter(round=round_)
            .select_related("card", "player")
            .order_by("-index")
            .first()
        )
        if last is None:
            raise RuleError("round", gettext_noop("No number has been pulled yet."))
        last.undone_at = timezone.now()
        last.undone_by_id = actor.user_id
        last.save(update_fields=["undone_at", "undone_by"])
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "pull undone",
            actor,
            {
                "round": round_.number,
                "pull": last.index + 1,
                "player": last.player.name,
                "card": last.card.number,
                "pot": last.pot,
                "number": last.number,
                "put_back": last.put_back,
            },
            {"draw_reopened": True, "pairings_undone": reopened} if reopened else None,
        )
        return last


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


def undo_draw(tournament: Tournament, round_id: int, actor: Actor) -> Round:
    """Undo the latest draw while none of its matches has a result; it stays in the
    history, marked undone. RuleError says which results must be voided first."""
    with transaction.atomic():
        t = _locked(tournament)
        state = load_state(t)
        current = state.current
        if current is None or current.pk != round_id:
            raise RuleError("round", gettext_noop("Only the latest draw can be undone."))
        _refuse_if_decided(state, current)
        now = timezone.now()
        Round.objects.filter(pk=current.pk).update(undone_at=now, undone_by_id=actor.user_id)
        Pairing.objects.filter(round=current, stage=Stage.PLACEMENT).update(voided_at=now)
        current.undone_at = now
        audit.record(t.club_id, "tournament", t.pk, "draw undone", actor, {"round": current.number})
        return current


# -- results --------------------------------------------------------------------------


def _void_dependents(t: Tournament, pairing: Pairing) -> None:
    """The matches for 5/6 and 7/8 are drawn from the two "5-8" results: when one of those
    changes, they are made again (RULES.md 5.5); ``_check_editable`` has made sure they
    have no result yet."""
    if pairing.label == "5-8":
        Pairing.objects.filter(tournament=t, label__in=("5", "7"), voided_at__isnull=True).update(
            voided_at=timezone.now()
        )


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


def record_result(
    pairing: Pairing, winner: int, score: str, key: uuid.UUID, actor: Actor, from_sheet=False
) -> Result:
    """Decide a match: ``winner`` is the winning card's id, ``score`` the Bummerl (2:0, 2:1;
    3:x for matches to three). A repeated ``key`` returns the first result when it is the
    same (match, winner, score), and is refused on ``key`` when it is another; a different
    result for a decided match is refused (correct it instead)."""
    return _write_result(pairing, winner, score, key, actor, False, from_sheet)


def correct_result(
    pairing: Pairing, winner: int, score: str, key: uuid.UUID, actor: Actor, from_sheet=False
) -> Result:
    """Void the live result of the match and record this one; refused once the next
    round is drawn (the message says which draw to undo)."""
    return _write_result(pairing, winner, score, key, actor, True, from_sheet)


def _write_result(pairing, winner, score, key, actor, correct, from_sheet):
    try:
        with transaction.atomic():
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
            live = Result.objects.filter(pairing=pairing, voided_at__isnull=True).first()
            if live is not None:
                if not correct:
                    if live.winner_id == winner and live.score == score:
                        return live  # the same result sent again: nothing to do
                    raise RuleError(
                        "pairing",
                        gettext_noop("This match already has a result: correct it instead."),
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
            audit.record(
                t.club_id,
                "tournament",
                t.pk,
                "result corrected" if live else "result recorded",
                actor,
                _audit_result(live),
                _audit_result(result),
            )
            if pairing.stage == Stage.PLACEMENT:
                _create_placement(t, actor, pairing.round)
            return result
    except IntegrityError:
        # Two phones sent results for one match at once: the first one stands.
        existing = Result.objects.filter(key=key).first()
        if existing is not None:
            return _repeated(existing, pairing, winner, score)
        raise RuleError(
            "pairing", gettext_noop("This match already has a result: correct it instead.")
        ) from None


def _repeated(first: Result, pairing: Pairing, winner: int, score: str) -> Result:
    """The result a one-time key recorded, when this submit repeats it; RuleError on
    ``key`` when the key was used for another result (an old page's form)."""
    if (first.pairing_id, first.winner_id, first.score) != (pairing.pk, winner, score):
        raise key_reused()
    return first


# -- export ---------------------------------------------------------------------------


def export(tournament: Tournament) -> dict:
    """The tournament as JSON (the format of the Preisschnapsen issue, README)."""
    state = load_state(tournament)
    t = tournament

    def ref(card_id):
        if card_id is None:
            return None
        card = state.cards[card_id]
        return {"card": card.number, "player": card.player.name}

    def pairing_dict(p: Pairing) -> dict:
        result = state.results.get(p.pk)
        match = _match(p, state.results)
        winner = match.advancing if match.decided else None
        return {
            "number": p.number,
            **({"label": p.label} if p.label else {}),
            "left": ref(p.left_id),
            "right": ref(p.right_id),
            "kind": p.kind,
            "winner_card": state.cards[winner].number if winner else None,
            "score": result.score if result else None,
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
    records the match result by itself (``sheet_decided_match``)."""
    from scoring import services as scoring
    from scoring.models import RuleSet

    with transaction.atomic():
        t = _locked(pairing.tournament)
        pairing = Pairing.objects.select_related("left__player", "right__player").get(pk=pairing.pk)
        if pairing.sheet_id is not None:
            return pairing.sheet
        if pairing.kind != Kind.MATCH:
            raise RuleError("pairing", gettext_noop("A bye or walkover has no result."))
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
    the result its sheet shows. A decided Partie records (or corrects) the match result;
    a correction on the sheet that undoes the Partie voids the result the sheet made.
    A RuleError (the next round is drawn already) refuses the change on the sheet. A
    result entered by hand is left alone: the organiser decides."""
    pairing = Pairing.objects.filter(sheet=sheet).select_related("tournament").first()
    if pairing is None:
        return
    live = Result.objects.filter(pairing=pairing, voided_at__isnull=True).first()
    if live is not None and not live.from_sheet:
        return
    if state.partie_winner is None:
        if live is not None:
            void_result(pairing, Actor(None, via_link=True))
        return
    winner = state.partie_winner
    winner_card = pairing.left_id if winner == 0 else pairing.right_id
    score = f"{state.tally[1 - winner]}:{state.tally[winner]}"
    if live is not None and (live.winner_id, live.score) == (winner_card, score):
        return
    result_key = uuid.uuid5(uuid.NAMESPACE_URL, f"bummerl:sheet:{sheet.pk}:{key or uuid.uuid4()}")
    write = correct_result if live is not None else record_result
    write(pairing, winner_card, score, result_key, Actor(None, via_link=True), from_sheet=True)


def void_result(pairing: Pairing, actor: Actor) -> None:
    """Void the live result of a match (it stays in the history); refused once the next
    round is drawn."""
    with transaction.atomic():
        t = _locked(pairing.tournament)
        pairing = Pairing.objects.select_related("round").get(pk=pairing.pk)
        _check_editable(t, pairing)
        live = Result.objects.filter(pairing=pairing, voided_at__isnull=True).first()
        if live is None:
            return
        Result.objects.filter(pk=live.pk).update(
            voided_at=timezone.now(), voided_by_id=actor.user_id
        )
        _void_dependents(t, pairing)
        audit.record(t.club_id, "tournament", t.pk, "result voided", actor, _audit_result(live))
