"""Writers of a withdrawal (RULES.md 5.7): a Karte whose holder went home is withdrawn
in the round now played (its open Partie a walkover for the other card, its score sheet
closed), and the withdrawal taken back while nothing was built on it.
"""

from django.db import models, transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments.formats import board, withdrawable
from tournaments.models import (
    Card,
    Format,
    Kind,
    Pairing,
    Tournament,
)
from tournaments.services.counts import count_in_play
from tournaments.services.draws import create_placement
from tournaments.services.reading import load_state, locked
from tournaments.services.results import check_editable, void_dependents
from tournaments.services.sheets import (
    SHEET_WITHDRAWN,
    Actor,
    lock_sheet,
    lock_sheets_first,
    unlock_sheet,
)


def withdraw_card(tournament: Tournament, card_id: int, actor: Actor) -> Card:
    """Withdraw a card whose holder went home (RULES.md 5.7), in the round now being
    played (``Card.withdrawn_round``; 0 before round 1 is drawn). In a Leben event the
    player goes out in that round; in a points event he keeps his points and is drawn
    no more (``formats``, RULES.md 5.10, 6).

    Before the next draw the card is not drawn (never a bye); an open match it is in
    (main draw or placement) becomes a walkover for the other card, and that match's
    score sheet takes no more deals. Its earlier results stay. RuleError on ``card``:
    unknown, withdrawn already, out already (no match ahead), or a draw is being typed in.
    """
    with transaction.atomic():
        lock_sheets_first(
            Pairing.objects.live()
            .filter(tournament_id=tournament.pk)
            .filter(models.Q(left_id=card_id) | models.Q(right_id=card_id))
        )
        t = locked(tournament)
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
        cards_format = t.format == Format.CARDS
        # Leben and points events: a player still in (RULES.md 5.10, 6, 5.7).
        playing = state.still_playing() if cards_format else withdrawable(state, board(state))
        if card_id not in playing:
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
            lock_sheet(
                pairing.sheet_id, "closed", SHEET_WITHDRAWN, name=card.player.name, card=card.number
            )
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.CARD_WITHDRAWN,
            actor=actor,
            before=None,
            after={
                "card": card.number,
                "player": card.player.name,
                "round": number,
                "walkovers": walkovers,
            },
        )
        if cards_format:  # a walkover, or a main draw ended by it, may make some due
            create_placement(t, actor, state.current)
        return card


def undo_withdrawal(tournament: Tournament, card_id: int, actor: Actor) -> Card:
    """Take a withdrawal back while nothing was built on it (RULES.md 5.7): no round was
    drawn after it, and the matches for 5 and 7 made from a "5-8" walkover it caused have
    no result (they are made again). Its walkovers are open matches again."""
    with transaction.atomic():
        lock_sheets_first(
            Pairing.objects.live()
            .filter(tournament_id=tournament.pk)
            .filter(
                models.Q(left_id=card_id)
                | models.Q(right_id=card_id)
                | models.Q(label__in=("5", "7"))
            )
        )
        t = locked(tournament)
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
        if not state.rounds and count_in_play(t) >= t.cards:
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
            check_editable(t, pairing)
        for pairing in walkovers:
            void_dependents(t, pairing)
            others = state.matches[pairing.pk].withdrawn - {card_id}
            if not others:
                unlock_sheet(pairing.sheet_id)
        Card.objects.filter(pk=card.pk).update(
            withdrawn_round=None, withdrawn_at=None, withdrawn_by_id=None
        )
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.WITHDRAWAL_UNDONE,
            actor=actor,
            before={"card": card.number, "player": card.player.name, "round": card.withdrawn_round},
        )
        card.withdrawn_round = card.withdrawn_at = None
        return card
