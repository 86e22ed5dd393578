"""Writers of what a Preisschnapsen night lays out: the Karten laid out, lowered to the
smallest power of two that holds the cards in play before round 1 (RULES.md 5.1), and
the tables its Partien are dealt out over.
"""

from django.db import transaction

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments import draw
from tournaments.models import (
    Round,
    Tournament,
)
from tournaments.services.counts import count_in_play, count_reserved, lower_offer
from tournaments.services.reading import locked
from tournaments.services.sheets import (
    Actor,
)


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
            Action.TABLES_SET,
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
    ``counts.count_reserved``): the message names the held cards."""
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
            Action.CARDS_LOWERED,
            actor=actor or audit.SYSTEM,
            before={"cards": before, "sold": in_play},
            after={"cards": t.cards, "sold": in_play},
        )
        return t.cards
