"""Writers of the order within shared place ranges (RULES.md 5.8, ``ranking_ties``):
record the outcome of a *Stechen*, or draw lots for every range still shared.

A range is the cards that went out in the same round (``bracket.ranking_groups``), or
the players a Leben or points event leaves sharing places (``formats.settled``); its
order is kept as a ``TieBreak``. Entering a Stechen again voids the order that stood
(it stays in the history); a range ordered by lot keeps its lots. With ``ranking_ties``
shared, a range is put in order only where a prize falls inside it (``deciding``), by
Stechen or by lot, as the organiser chooses; a range of withdrawn cards alone is never
put in order (none of them wins a prize, RULES.md 5.7).
"""

import secrets
import uuid
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments import ranking
from tournaments.categories import undecided
from tournaments.models import TieBreak, Tournament
from tournaments.services.reading import TournamentState, load_state, locked
from tournaments.services.sheets import Actor, key_reused


@dataclass(frozen=True)
class Range:
    """A shared range: places ``first`` to ``last``, its card ids in card-number order,
    and the live ``order`` (a TieBreak) when one stands."""

    first: int
    last: int
    cards: tuple[int, ...]
    order: TieBreak | None


def ranges(state: TournamentState) -> list[Range]:
    """The shared ranges of two or more cards that may be put in order, best first, with
    their live orders: every range when the tournament orders its ties by Stechen or by
    lot, else those with a prize inside (``deciding``); never one of withdrawn cards
    alone."""
    grouped: dict[int, tuple[int, list[int]]] = {}
    for first, last, card in state.placed()[1]:
        grouped.setdefault(first, (last, []))[1].append(card)
    orders = {tb.first: tb for tb in state.tie_breaks}
    wanted = None if state.tournament.ranking_ties != ranking.SHARED else deciding(state)
    gone = state.withdrawn
    return [
        Range(first, last, tuple(cards), orders.get(first))
        for first, (last, cards) in sorted(grouped.items())
        if len(cards) > 1
        and any(c not in gone for c in cards)
        and (wanted is None or first in wanted)
    ]


def deciding(state: TournamentState) -> set[int]:
    """The first places of the shared ranges that hold a prize, overall or of a
    category, still open because the range is shared (RULES.md 5.8), or whose order a
    Stechen or lot gave for that reason."""
    return {first for (first, _last), _prizes in undecided(state)} | {
        tb.first for tb in state.tie_breaks
    }


def _range(state: TournamentState, first: int) -> Range:
    found = next((r for r in ranges(state) if r.first == first), None)
    if found is None:
        raise RuleError(
            "first", gettext_noop("No places from %(first)s on are shared now."), first=first
        )
    return found


def record_stechen(
    tournament: Tournament,
    first: int,
    numbers: list[int],
    actor: Actor,
    key: uuid.UUID,
    seen: int | None = None,
) -> TieBreak:
    """Record the order a Stechen gave the range starting at place ``first``:
    ``numbers``, the card numbers best first, each card of the range once.

    RuleError on ``tournament`` (its ties go by lot), ``first`` (no such
    range), ``order`` (a card missing, repeated or not of the range), ``key`` (used for
    something else) and ``seen`` (the id of the order the page showed, 0 for none:
    another was entered meanwhile). The same key again returns the order it recorded."""
    with transaction.atomic():
        t = locked(tournament)
        earlier = TieBreak.objects.filter(key=key).first()
        if earlier is not None:
            if earlier.tournament_id != t.pk or earlier.first != first:
                raise key_reused()
            return earlier
        if t.ranking_ties == ranking.LOT:
            raise RuleError(
                "tournament",
                gettext_noop("This tournament does not play off equal places (Stechen)."),
            )
        state = load_state(t)
        shared = _range(state, first)
        live = shared.order
        if seen is not None and seen != (live.pk if live else 0):
            raise RuleError(
                "seen",
                gettext_noop(
                    "Meanwhile another order of places %(first)s to %(last)s was entered: "
                    "look at it and enter yours again if it is still needed."
                ),
                first=shared.first,
                last=shared.last,
            )
        by_number = {state.cards[c].number: c for c in shared.cards}
        wrong = [n for n in numbers if n not in by_number]
        if wrong or len(set(numbers)) != len(numbers) or len(numbers) != len(shared.cards):
            raise RuleError(
                "order",
                gettext_noop(
                    "List each of the cards %(cards)s once, the winner of the Stechen first."
                ),
                cards=", ".join(str(n) for n in sorted(by_number)),
            )
        now = timezone.now()
        if live is not None:
            TieBreak.objects.filter(pk=live.pk).update(voided_at=now)
        try:
            with transaction.atomic():
                made = TieBreak.objects.create(
                    tournament=t,
                    first=first,
                    kind=ranking.STECHEN,
                    order=[by_number[n] for n in numbers],
                    key=key,
                    recorded_by_id=actor.user_id,
                )
        except IntegrityError:
            raise key_reused() from None
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.STECHEN_RECORDED,
            actor=actor,
            before={"first": first, "order": _numbers(state, live.order)} if live else None,
            after={"first": first, "order": list(numbers)},
        )
        return made


def draw_lots(tournament: Tournament, actor: Actor) -> list[TieBreak]:
    """Draw lots for every range still shared (RULES.md 5.8 ``lot``): each range its
    own seed; ``ranking.lot_order`` shuffles its card numbers (replayable from the
    export). A range with lots keeps them; a second tap finds nothing to draw.
    RuleError on ``tournament`` when it orders ties by Stechen. With ``ranking_ties``
    shared, only the ranges with a prize inside are drawn (``ranges``)."""
    with transaction.atomic():
        t = locked(tournament)
        if t.ranking_ties == ranking.STECHEN:
            raise RuleError(
                "tournament", gettext_noop("This tournament does not draw lots for equal places.")
            )
        state = load_state(t)
        made = []
        for shared in ranges(state):
            if shared.order is not None:
                continue
            seed = secrets.randbits(48)
            by_number = {state.cards[c].number: c for c in shared.cards}
            order = [by_number[n] for n in ranking.lot_order(list(by_number), seed)]
            made.append(
                TieBreak.objects.create(
                    tournament=t,
                    first=shared.first,
                    kind=ranking.LOT,
                    order=order,
                    seed=seed,
                    recorded_by_id=actor.user_id,
                )
            )
            audit.record(
                t.club_id,
                "tournament",
                t.pk,
                Action.LOTS_DRAWN,
                actor=actor,
                after={"first": shared.first, "seed": seed, "order": _numbers(state, order)},
            )
        return made


def _numbers(state: TournamentState, cards) -> list[int]:
    return [state.cards[c].number for c in cards if c in state.cards]
