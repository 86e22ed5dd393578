"""Writers of the draw: draw a round digitally under its shown commitment, undo a whole
draw, and make the placement matches that became due (RULES.md 5.2, 5.4 to 5.6, 5.12).
A draw typed in pull by pull at the venue is ``services.physical_draws``; both store a
round's Partien and Freilose through ``store_draw``."""

import secrets
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from base.mail import mail_on
from base.tasks import enqueue
from clubs import audit
from clubs.audit import Action
from tournaments import bracket, draw, verify
from tournaments.models import (
    Card,
    Format,
    Kind,
    Pairing,
    Place,
    Pull,
    Round,
    Stage,
    Tournament,
    new_nonce,
    new_seed,
)
from tournaments.rows import round_name
from tournaments.services.formats import draw_format_round, plan_format_round
from tournaments.services.reading import (
    TournamentState,
    load_state,
    locked,
)
from tournaments.services.sheets import SHEET_UNDONE, Actor, lock_sheet, lock_sheets_first


def next_round_holders(
    state: TournamentState, expected: int | None = None
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
    in_play = state.in_play()
    if not state.rounds:
        draw.check_can_draw_round_one(t.cards, len(in_play))
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
    if pot_size is None and len(in_play) < 2 and state.round_states[-1].pot_size > 1:
        raise RuleError(
            "round",
            gettext_noop("No further round: %(count)s cards are left in (withdrawals)."),
            count=len(in_play),
        )
    if pot_size is None:
        raise RuleError("round", gettext_noop("The final is drawn: there is no further round."))
    cards = {pk: c.player_id for pk, c in state.cards.items()}
    return len(state.rounds) + 1, pot_size, bracket.holders(cards, in_play)


def draw_inputs(state: TournamentState, number: int, pot_size: int, holders) -> tuple:
    """The inputs a draw's commitment covers (RULES.md 5.12, ``verify.commit``): round
    number, pot size and the holders as (name, card numbers) in the draw's order."""
    listed = [
        (state.cards[h.cards[0]].player.name, [state.cards[c].number for c in h.cards])
        for h in draw.canonical(holders)
    ]
    return number, pot_size, listed


def pending_commitment(state: TournamentState) -> tuple[int, str, str] | None:
    """(round number, commitment, the round's name: "Viertelfinale", "Runde 3") of the
    next digital draw, shown before it is drawn (RULES.md 5.12); None while no round
    can be drawn now."""
    t = state.tournament
    try:
        number, sealed, inputs = _commit(state, t.draw_nonce, t.draw_seed)
    except RuleError:
        return None
    if t.format == Format.CARDS:
        return number, sealed, round_name(number, inputs[0])
    return number, sealed, round_name(number, 0, knockout=False)


def _commit(state: TournamentState, nonce: str, seed: int, expected: int | None = None):
    """(round number, commitment, inputs) of the next draw with ``nonce`` and ``seed``:
    inputs are a card round's (pot size, holders) or a Leben or points event's
    ``formats.DrawPlan``. RuleError when no round may be drawn now."""
    t = state.tournament
    if t.format != Format.CARDS:  # Leben and points events (RULES.md 5.10, 6)
        plan = plan_format_round(state, expected)
        sealed = verify.commit_format(
            nonce, seed, t.format, plan.number, plan.listed(state), plan.avoid_repeat
        )
        return plan.number, sealed, plan
    number, pot_size, holders = next_round_holders(state, expected)
    sealed = verify.commit(nonce, seed, *draw_inputs(state, number, pot_size, holders))
    return number, sealed, (pot_size, holders)


def draw_round(
    tournament: Tournament,
    actor: Actor,
    seed: int | None = None,
    expected: int | None = None,
    commitment: str | None = None,
) -> Round:
    """Draw the next round digitally (RULES.md 5.2, 5.4; Leben and points events 5.10,
    6) with the tournament's secret seed, whose commitment was shown before (5.12; a
    ``seed`` given, by a simulation or a test, is used instead with a fresh nonce); seed,
    nonce and commitment are kept on the round and a new secret seed is made for the
    next draw. ``expected``: the round number the desk offered (refused when another one
    is due now); ``commitment``: the one the desk showed (refused on ``commitment`` when
    the inputs changed since)."""
    try:
        with transaction.atomic():
            t = locked(tournament)
            state = load_state(t)
            nonce = t.draw_nonce if seed is None else new_nonce()
            seed = t.draw_seed if seed is None else seed
            number, sealed, inputs = _commit(state, nonce, seed, expected)
            if commitment is not None and commitment != sealed:
                raise RuleError(
                    "commitment",
                    gettext_noop(
                        "The cards in play changed since this page was shown, and with them "
                        "the commitment: check the new one and draw again."
                    ),
                )
            if t.format != Format.CARDS:
                round_ = draw_format_round(t, inputs, seed, actor)
            else:
                pot_size, holders = inputs
                result = draw.digital_draw(holders, pot_size, seed, later_round=number > 1)
                round_ = store_draw(t, state, number, pot_size, seed, result, actor)
            round_.nonce, round_.commitment = nonce, sealed
            round_.save(update_fields=["nonce", "commitment"])
            Tournament.objects.filter(pk=t.pk).update(draw_seed=new_seed(), draw_nonce=new_nonce())
            tell_tables_after(t, round_)
            return round_
    except IntegrityError:
        # Another organiser's draw of the same round committed first: keep that one.
        raise RuleError(
            "round", gettext_noop("This round was just drawn by someone else.")
        ) from None


def store_draw(t, state, number, pot_size, seed, result: "draw.Draw", actor, round_=None) -> Round:
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
        Pull.objects.bulk_create(pull_row(round_, i, p) for i, p in enumerate(result.pulls))
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
    create_placement(t, actor, round_)
    audit.record(
        t.club_id,
        "tournament",
        t.pk,
        Action.ROUND_DRAWN,
        actor=actor,
        before=None,
        after={"round": number, "seed": seed, "pairings": len(result.pairings)},
    )
    return round_


def tell_tables_after(t: Tournament, round_: Round) -> None:
    """Once the draw of round 1 of a main bracket (not a consolation's) commits, queue the
    mails that tell the checked-in players where they play (``notices.tell_tables``);
    nothing while mails are off (``base.mail.mail_on``)."""
    if round_.number != 1 or t.parent_id is not None or not mail_on():
        return
    tournament_id = t.pk
    transaction.on_commit(
        lambda: enqueue(
            "tournaments.notices.tell_tables", tournament_id, name=f"tables {tournament_id}"
        )
    )


def pull_row(round_: Round, index: int, pull: draw.Pull) -> Pull:
    return Pull(
        round=round_,
        index=index,
        player_id=pull.player,
        card_id=pull.card,
        pot=str(pull.pot),
        number=pull.number,
        put_back=pull.put_back,
    )


def create_placement(t: Tournament, actor: Actor, round_: Round | None) -> None:
    """Create the placement matches that became due (RULES.md 5.5): a "5-8" pairing with
    one card is a bye, a pairing of two cards of one player a walkover. The "5-8" draw
    happens by itself when the quarter-finals are decided, so no commitment precedes
    it; its seed is kept on both pairings, and ``verify`` replays it (5.12). A pairing
    decided as it is made (a bye, a walkover of one player's two cards or of a withdrawn
    card) may make the next ones due at once: they are made in the same call, as no
    result will be entered to ask for them. A main draw that ends without its final (a
    finalist withdrawn after his semi-final) makes the match for 3 and 4 due."""
    while True:
        state = load_state(t)
        due = bracket.placement_due(state.round_states, state.placement_states, state.ended)
        if not due:
            return
        _make_placement(t, round_, state, due)


def _make_placement(t: Tournament, round_: Round | None, state, due) -> None:
    """The pairings of the placement matches ``due`` (``bracket.placement_due``)."""
    for label, cards in due:
        pairs: Sequence[tuple[int, int | None]]
        numbers: tuple[int, ...]
        if label == Place.FIFTH_TO_EIGHTH:
            seed = secrets.randbits(48)
            owners = {c: state.cards[c].player_id for c in cards}
            pairs = draw.placement_pairs(list(cards), seed, owners=owners)
            numbers = (1, 2)
        else:
            first, second = cards  # the two cards of one match
            pairs = ((first, second),)
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
                seed=seed if label == Place.FIFTH_TO_EIGHTH else None,
            )


def refuse_if_decided(state: TournamentState, round_: Round) -> None:
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


def _refuse_if_consolation(t: Tournament, current: Round) -> None:
    """RuleError on ``round`` when a consolation was opened for the losers of the round
    before ``current`` (RULES.md 5.11): undoing this draw would open that round's results
    to corrections, and the consolation's field was taken from them."""
    dependent = (
        t.consolations.filter(consolation_rounds__gte=current.number - 1)
        .order_by("consolation_rounds")
        .first()
    )
    if dependent is not None:
        raise RuleError(
            "round",
            gettext_noop(
                "The consolation “%(name)s” was opened for the losers of rounds 1 to "
                "%(rounds)s: this draw can no longer be undone."
            ),
            name=dependent.name,
            rounds=dependent.consolation_rounds,
        )


def undo_draw(tournament: Tournament, round_id: int, actor: Actor) -> Round:
    """Undo the latest draw while none of its matches has a result; it stays in the
    history, marked undone. RuleError says which results must be voided first. The score
    sheets of its matches take no more deals (they say the draw was undone). A card
    withdrawn during the undone round counts as withdrawn in the round before (it is not
    drawn again, RULES.md 5.7). Refused once a consolation was opened for the losers of
    the round before (``_refuse_if_consolation``)."""
    with transaction.atomic():
        lock_sheets_first(Pairing.objects.filter(round_id=round_id))
        t = locked(tournament)
        state = load_state(t)
        current = state.current
        if current is None or current.pk != round_id:
            raise RuleError("round", gettext_noop("Only the latest draw can be undone."))
        refuse_if_decided(state, current)
        _refuse_if_consolation(t, current)
        now = timezone.now()
        Round.objects.filter(pk=current.pk).update(undone_at=now, undone_by_id=actor.user_id)
        Pairing.objects.filter(round=current, stage=Stage.PLACEMENT).update(voided_at=now)
        for pairing in Pairing.objects.filter(round=current).exclude(sheet=None):
            lock_sheet(pairing.sheet_id, "closed", SHEET_UNDONE)
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
            Action.DRAW_UNDONE,
            actor=actor,
            before={"round": current.number},
            after={"withdrawn_cards_moved_back": moved} if moved else None,
        )
        return current
