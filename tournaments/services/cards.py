"""Writers of the cards: create a tournament, sell cards, cancel a sale, mark them paid,
lower the cards laid out, withdraw a card and take a withdrawal back (RULES.md 5.1,
5.7)."""

import datetime
import uuid

from django.db import models, transaction
from django.db.models.deletion import ProtectedError, RestrictedError
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from base.text import name_fold
from clubs import audit
from clubs.models import Club, Player
from clubs.players import player_named
from tournaments import draw
from tournaments.formats import board, withdrawable
from tournaments.models import (
    Card,
    Format,
    Kind,
    Pairing,
    Registration,
    RegistrationStatus,
    Round,
    Tournament,
)
from tournaments.services.draws import create_placement
from tournaments.services.formats import check_settings as check_format_settings
from tournaments.services.reading import (
    CARD_COUNTS,
    count_in_play,
    count_reserved,
    load_state,
    locked,
    lower_offer,
)
from tournaments.services.results import check_editable, void_dependents
from tournaments.services.sheets import (
    SHEET_WITHDRAWN,
    Actor,
    check_match_rule_set,
    key_reused,
    lock_sheet,
    lock_sheets_first,
    unlock_sheet,
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
            "tournament created",
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
    those held for registrations, registered or offered, ``reading.count_reserved``) and
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
        in_play = count_in_play(t)  # a card withdrawn before round 1 frees its place (5.7)
        # Cards registered before the night and not yet checked in are held for their
        # players (services.registrations): a sale at the door does not take them.
        held_for = count_reserved(t)
        if in_play + held_for + count > t.cards:
            if held_for:
                raise RuleError(
                    "count",
                    gettext_noop(
                        "Only %(left)s of %(cards)s cards are left: %(registered)s are held "
                        "for registered players not yet checked in."
                    ),
                    left=max(0, t.cards - in_play - held_for),
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
            "cards sold",
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
    numbers, number = [], 0
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
            "sale cancelled",
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


def pay_cards(tournament: Tournament, card_ids, actor: Actor | None = None) -> list[int]:
    """Mark the cards ``card_ids`` of ``tournament`` paid (a player pays for all his cards
    at once): the numbers of those that were not paid, each change logged like
    ``set_paid``. Cards paid already, and ids of no card of the tournament, are passed
    over: the same request sent twice records once."""
    changed = []
    with transaction.atomic():
        cards = (
            Card.objects.select_for_update()
            .filter(tournament=tournament, pk__in=list(card_ids), paid=False)
            .order_by("number")
        )
        for card in cards:
            Card.objects.filter(pk=card.pk).update(paid=True)
            audit.record(
                tournament.club_id,
                "tournament",
                tournament.pk,
                "card paid",
                actor=actor,
                before={"card": card.number, "paid": False},
                after={"card": card.number, "paid": True},
            )
            changed.append(card.number)
    return changed


def set_tables(tournament: Tournament, tables: int, actor: Actor, *, seen: int) -> int:
    """Set how many tables the night is played at (0: no table numbers); the matches of
    the latest round are dealt out over them (``TournamentState.tables``). ``seen``: the
    number the form was shown with. RuleError on ``tables`` below 0 or above 512, and
    when another organiser changed it meanwhile (nothing is changed then). The same
    number again changes nothing and logs nothing."""
    if isinstance(tables, bool) or not isinstance(tables, int) or not 0 <= tables <= 512:
        raise RuleError("tables", gettext_noop("Tables: a whole number from 0 to 512."))
    with transaction.atomic():
        t = locked(tournament)
        if t.tables == tables:
            return tables
        if t.tables != seen:
            raise RuleError(
                "tables",
                gettext_noop(
                    "Meanwhile the tables were set to %(tables)s: this page was out of date."
                ),
                tables=t.tables,
            )
        before = t.tables
        t.tables = tables
        t.save(update_fields=["tables"])
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            "tables set",
            actor=actor,
            before={"tables": before},
            after={"tables": tables},
        )
        tournament.tables = tables
        return tables


def lower_cards(tournament: Tournament, actor: Actor | None = None) -> int:
    """Lower N to the smallest power of two that holds the cards in play (sold minus
    withdrawn, RULES.md 5.1, 5.7), returns the new N. RuleError on ``cards`` once round 1
    is drawn (or typed in), when fewer than 2 cards are in play (sell more) and when more
    than half are in play already (nothing to lower: draw); also when the new N would not
    hold the cards in play plus those held for registrations (registered or offered,
    ``reading.count_reserved``): the message names the held cards."""
    with transaction.atomic():
        t = locked(tournament)
        if Round.objects.live().filter(tournament=t).exists():
            raise RuleError("cards", gettext_noop("Round 1 is drawn already."))
        in_play = count_in_play(t)
        offer = lower_offer(t, in_play)
        if offer is None:
            # Too few to draw at all (the message says how many to sell), or nothing to lower.
            draw.check_can_draw_round_one(t.cards, in_play)
            raise RuleError(
                "cards",
                gettext_noop(
                    "%(sold)s of %(cards)s cards are sold, more than half: the draw can start "
                    "without lowering."
                ),
                sold=in_play,
                cards=t.cards,
            )
        held = count_reserved(t)
        if in_play + held > offer:
            # Registered and offered cards count against the cards laid out like sold
            # ones: lowering below them would take cards promised to players.
            raise RuleError(
                "cards",
                gettext_noop(
                    "%(held)s cards are held for registrations not yet checked in: with "
                    "%(sold)s cards in play the cards laid out cannot go down to %(offer)s. "
                    "Check them in or release them first."
                ),
                held=held,
                sold=in_play,
                offer=offer,
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
            before={"cards": before, "sold": in_play},
            after={"cards": t.cards, "sold": in_play},
        )
        return t.cards


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
        if open_pairings and cards_format:
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
            "withdrawal undone",
            actor=actor,
            before={"card": card.number, "player": card.player.name, "round": card.withdrawn_round},
        )
        card.withdrawn_round = card.withdrawn_at = None
        return card
