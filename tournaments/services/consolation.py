"""The writer of a consolation (*Trostbewerb*, RULES.md 5.11): a second knock-out for the
cards (or players) that went out in rounds 1 to R of a night, with its own prizes.

It is a tournament of its own, linked to the main event (``Tournament.parent``): its
cards are sold by ``cards.sell_cards`` at the opening, and from then on it is drawn,
played, corrected, exported and printed with the same services and pages as any night.

Where RULES.md is silent, decided here:

- It can be opened once round R + 1 of the main event is drawn (the results of round R
  can no longer change); one consolation per R.
- ``by`` ``cards``: one consolation card for each card out in rounds 1 to R; ``players``:
  one card for each player who holds no card in the main event any more after round R.
  A player any of whose cards was withdrawn (he went home) is left out with all his
  cards (RULES.md 5.11); the organiser adds him, if he stays after all, by selling him a
  card at the consolation's desk before its first draw.
- Cards are numbered in the order of the main event's card numbers; no fee, all paid.
  The cards laid out are the smallest power of two that holds them (RULES.md 5.1), so
  the draw can start at once; fewer than 2 cards cannot make a consolation.
"""

from django.db import transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments import draw
from tournaments.models import Tournament
from tournaments.services.cards import sell_cards
from tournaments.services.reading import load_state, locked
from tournaments.services.sheets import Actor

CARDS, PLAYERS = "cards", "players"


def consolation_field(main: Tournament, rounds: int, by: str) -> list[int]:
    """The main event's card ids whose holders get a consolation card (one id per
    consolation card, in card-number order), RuleError on ``rounds`` when round
    ``rounds`` + 1 is not drawn yet."""
    state = load_state(main)
    complete = state.complete_rounds()
    if rounds < 1 or len(complete) < rounds + 1:
        raise RuleError(
            "rounds",
            gettext_noop("The losers of round %(number)s are known once round %(next)s is drawn."),
            number=rounds,
            next=rounds + 1,
        )
    left = {state.cards[card].player_id for card in state.withdrawn}  # he went home
    out = [
        card
        for r in complete[:rounds]
        for card in r.losers()
        if state.cards[card].player_id not in left
    ]
    out.sort(key=lambda c: state.cards[c].number)
    if by == PLAYERS:
        later = {
            card
            for r in complete[rounds:]
            for m in r.matches
            for card in (m.left, m.right)
            if card is not None
        }
        still = {state.cards[c].player_id for c in later}
        first: dict[int, int] = {}
        for card in out:
            first.setdefault(state.cards[card].player_id, card)
        out = [c for c in first.values() if state.cards[c].player_id not in still]
    return out


def open_consolation(
    main: Tournament, rounds: int, by: str, prizes: list[dict], name: str, actor: Actor
) -> Tournament:
    """Open the consolation of ``main`` for the losers of rounds 1 to ``rounds``
    (``by``: ``cards`` or ``players``) with its ``prizes`` ([{place, description}]).
    A second opening for the same ``rounds`` returns the first (a double tap). RuleError
    on ``rounds`` (too early, see ``consolation_field``), ``by``, and on ``tournament``
    when fewer than two cards would play, or ``main`` is a consolation itself."""
    if by not in (CARDS, PLAYERS):
        raise RuleError("by", gettext_noop("Choose cards or players."))
    with transaction.atomic():
        t = locked(main)
        if t.parent_id is not None:
            raise RuleError(
                "tournament", gettext_noop("A consolation has no consolation of its own.")
            )
        earlier = t.consolations.filter(consolation_rounds=rounds).first()
        if earlier is not None:
            return earlier
        field = consolation_field(t, rounds, by)
        if len(field) < draw.LOWEST_CARDS:
            raise RuleError(
                "tournament",
                gettext_noop("Only %(count)s would play: a consolation needs at least 2."),
                count=len(field),
            )
        state = load_state(t)
        held: dict[int, int] = {}
        for card in field:
            held[state.cards[card].player_id] = held.get(state.cards[card].player_id, 0) + 1
        consolation = Tournament.objects.create(
            club_id=t.club_id,
            name=name[:100],
            starts_at=timezone.now().replace(microsecond=0),
            cards=draw.smallest_cards(len(field)),
            max_cards=max(held.values()),
            match_bummerl=t.match_bummerl,
            entry_fee=0,
            one_prize_per_player=t.one_prize_per_player,
            prizes=prizes,
            ranking_ties=t.ranking_ties,
            parent=t,
            consolation_rounds=rounds,
            created_by_id=actor.user_id,
        )
        for card in field:
            sell_cards(consolation, state.cards[card].player.name, 1, actor, paid=True)
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.CONSOLATION_OPENED,
            actor=actor,
            after={"rounds": rounds, "by": by, "cards": len(field), "name": consolation.name},
        )
        return consolation
