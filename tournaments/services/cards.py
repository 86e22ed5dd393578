"""Writers of the cards: create a tournament, sell cards (Karten) at the door, cancel a
sale, mark them paid (RULES.md 5.1). Lowering the cards laid out and the tables are
``services.layout``; withdrawing a card is ``services.withdrawals``."""

import datetime
import uuid

from django.db import transaction
from django.db.models.deletion import ProtectedError, RestrictedError

from base.errors import RuleError, gettext_noop
from base.text import name_fold
from clubs import audit
from clubs.audit import Action
from clubs.models import Club, Player
from clubs.players import player_named
from tournaments.models import (
    Card,
    Format,
    Registration,
    RegistrationStatus,
    Round,
    Tournament,
)
from tournaments.services.counts import card_counts
from tournaments.services.formats import check_settings as check_format_settings
from tournaments.services.reading import CARD_COUNTS, locked
from tournaments.services.sheets import (
    Actor,
    check_match_rule_set,
    key_reused,
)


def create_tournament(club: Club, actor: Actor, **fields) -> Tournament:
    """A new tournament; ``fields`` as the model's (checked by the form). RuleError on
    ``cards`` unless it is one of ``CARD_COUNTS`` (RULES.md 5.1), on ``rule_set`` for one
    that scores no two-player match of the club (``check_match_rule_set``)."""
    fields = check_format_settings(fields)  # Leben and points events (RULES.md 5.10, 6)
    check_match_rule_set(club, fields.get("rule_set"))
    if (
        fields.get("format", Format.CARDS) == Format.CARDS
        and fields.get("cards") not in CARD_COUNTS
    ):
        raise RuleError("cards", gettext_noop("The number of cards is a power of two, 8 to 1024."))
    with transaction.atomic():
        t = Tournament.objects.create(
            club=club, created_by=actor.user if actor.user_id else None, **fields
        )
        audit.record(
            club.pk,
            "tournament",
            t.pk,
            Action.TOURNAMENT_CREATED,
            actor=actor,
            before=None,
            after={
                "name": t.name,
                "cards": t.cards,
                "max_cards": t.max_cards,
                "match_bummerl": t.match_bummerl,
                **({"format": t.format} if t.format != Format.CARDS else {}),
            },
        )
        return t


NOT_CHECKED_IN = (
    RegistrationStatus.REGISTERED,
    RegistrationStatus.OFFERED,
    RegistrationStatus.WAITING,
)
REGISTERED_ALREADY = gettext_noop(
    "%(name)s is registered for this night: check the registration in under "
    "Registrations, or cancel it first."
)


def sell_cards(
    tournament: Tournament,
    name: str,
    count: int,
    actor: Actor,
    key: uuid.UUID | None = None,
    *,
    paid: bool,
) -> list[Card]:
    """Sell ``count`` cards to the player called ``name`` (added to the club if new).

    RuleError on ``count`` (past the most per player, or past the cards laid out less
    those held for registrations, registered or offered, ``counts.card_counts``) and
    on ``name`` (also when a registration of that person stands and is not checked in:
    its cards are sold by its check-in); ``tournament`` once round 1 is drawn (RULES.md
    5.1). The same ``key``
    again returns the cards it sold when it is the same sale (name, count, paid), and is
    refused on ``key`` when it is another (an old page's form).
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise RuleError("count", gettext_noop("Sell at least one card."))
    with transaction.atomic():
        t = locked(tournament)
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
        if Round.objects.live().filter(tournament=t).exists():
            raise RuleError(
                "tournament", gettext_noop("Round 1 is drawn: no more cards can be sold.")
            )
        standing = Registration.objects.filter(
            tournament=t, name_fold=name_fold(name), status__in=NOT_CHECKED_IN
        ).first()
        if standing is not None:  # one person, one player: his cards come with his check-in
            raise RuleError("name", REGISTERED_ALREADY, name=standing.name)
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
        # A card withdrawn before round 1 frees its place (5.7); cards registered before
        # the night and not yet checked in are held for their players: a sale at the
        # door does not take them.
        counts = card_counts(t)
        in_play, held_for = counts.in_play, counts.held
        if count > counts.free:
            if held_for:
                raise RuleError(
                    "count",
                    gettext_noop(
                        "Only %(left)s of %(cards)s cards are left: %(registered)s are held "
                        "for registered players not yet checked in."
                    ),
                    left=counts.free,
                    cards=t.cards,
                    registered=held_for,
                )
            raise RuleError(
                "count",
                gettext_noop("Only %(left)s of %(cards)s cards are left."),
                left=t.cards - in_play,
                cards=t.cards,
            )
        numbers = free_numbers(
            Card.objects.filter(tournament=t).values_list("number", flat=True), count
        )
        cards = Card.objects.bulk_create(
            Card(
                tournament=t,
                number=numbers[i],
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
            Action.CARDS_SOLD,
            actor=actor,
            before=None,
            after={"player": player.name, "cards": [c.number for c in cards], "paid": paid},
        )
        return cards


def free_numbers(taken, count: int) -> list[int]:
    """The ``count`` lowest card numbers from 1 on that no card of the night holds
    (``taken``): a cancelled sale's number goes to the next sale (RULES.md 5.1). Only a
    card withdrawn before round 1 keeps its number and frees its place, so a sale into
    that place takes the number after the last one held."""
    held = set(taken)
    numbers: list[int] = []
    number = 0
    while len(numbers) < count:
        number += 1
        if number not in held:
            numbers.append(number)
    return numbers


SALE_DRAWN = gettext_noop(
    "Card %(card)s is drawn already: its sale can no longer be cancelled. Withdraw it instead."
)


def cancel_sale(tournament: Tournament, card_id: int, actor: Actor) -> Card:
    """Cancel the sale of card ``card_id`` (a typo, a refund) until its card is drawn
    (RULES.md 5.1): the card is gone, its number goes to the next sale, it leaves the
    takings and every page of the night; the tournament's history keeps it ("sale
    cancelled": card, player, paid). A player whom this sale added to the club and who
    holds nothing else leaves the club's players too (the history says so). Returns the
    card as it was. RuleError on ``card``: not of this tournament, or drawn already
    (a draw of round 1 made or being typed in, or an undone draw that drew it)."""
    with transaction.atomic():
        t = locked(tournament)
        card = Card.objects.filter(tournament=t, pk=card_id).select_related("player").first()
        if card is None:
            raise RuleError("card", gettext_noop("There is no such card in this tournament."))
        if Round.objects.live().filter(tournament=t).exists():
            raise RuleError("card", SALE_DRAWN, card=card.number)
        try:
            with transaction.atomic():
                Card.objects.filter(pk=card.pk).delete()
        except (ProtectedError, RestrictedError):  # in a draw since undone: it stays
            raise RuleError("card", SALE_DRAWN, card=card.number) from None
        player = card.player
        removed = _remove_if_added_by(player, card)
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.SALE_CANCELLED,
            actor=actor,
            before={"card": card.number, "player": player.name, "paid": card.paid},
            after={"player_removed": removed},
        )
        return card


def _remove_if_added_by(player: Player, card: Card) -> bool:
    """Remove ``player`` from the club when the sale of ``card`` added him (he came into
    the club in the minute before it) and nothing else of the site holds him (no card,
    seat, category or result: the database refuses the removal otherwise). True when
    he was removed."""
    if player.created_at < card.sold_at - datetime.timedelta(minutes=1):
        return False
    if Card.objects.filter(player=player).exists():
        return False
    try:
        with transaction.atomic():
            player.categories.clear()
            Player.objects.filter(pk=player.pk).delete()
    except (ProtectedError, RestrictedError):
        return False
    return True


def set_paid(card: Card, actor: Actor | None = None, *, paid: bool) -> None:
    """Mark a card paid or not; nothing happens (and nothing is logged) when it is so
    already."""
    with transaction.atomic():
        locked = (
            Card.objects.select_for_update(no_key=True).select_related("tournament").get(pk=card.pk)
        )
        if locked.paid == paid:
            return
        Card.objects.filter(pk=card.pk).update(paid=paid)
        audit.record(
            locked.tournament.club_id,
            "tournament",
            locked.tournament_id,
            Action.CARD_PAID,
            actor=actor or audit.SYSTEM,
            before={"card": locked.number, "paid": locked.paid},
            after={"card": locked.number, "paid": paid},
        )


def pay_cards(tournament: Tournament, card_ids, actor: Actor | None = None) -> list[int]:
    """Mark the cards ``card_ids`` of ``tournament`` paid (a player pays for all his cards
    at once): the numbers of those that were not paid, each change logged like
    ``set_paid``. Cards paid already, and ids of no card of the tournament, are passed
    over: the same request sent twice records once."""
    changed = []
    with transaction.atomic():
        cards = (
            Card.objects.select_for_update(no_key=True)
            .filter(tournament=tournament, pk__in=list(card_ids), paid=False)
            .order_by("number")
        )
        for card in cards:
            Card.objects.filter(pk=card.pk).update(paid=True)
            audit.record(
                tournament.club_id,
                "tournament",
                tournament.pk,
                Action.CARD_PAID,
                actor=actor or audit.SYSTEM,
                before={"card": card.number, "paid": False},
                after={"card": card.number, "paid": True},
            )
            changed.append(card.number)
    return changed
