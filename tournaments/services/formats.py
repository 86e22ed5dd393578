"""Writers of the Leben and points formats (RULES.md 5.10, 6): their settings, the draw
of a round (called by ``draws.draw_round``, which keeps its commitment as for cards,
5.12), buying a life and naming a player's team. Results, corrections, withdrawals and
undoing a draw are the card night's writers (``results``, ``withdrawals.withdraw_card``,
``draws.undo_draw``): a round of these formats is the same rows."""

from django.db import transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments import danish, formats, leben
from tournaments.models import Card, Format, Kind, Pairing, Round, Tournament
from tournaments.services.reading import TournamentState, load_state, locked
from tournaments.services.sheets import Actor

NO_SUCH_PLAYER = gettext_noop("There is no such player in this tournament.")
"""The refusal of a change to a card that is not a player of this tournament's format."""


def check_settings(fields: dict) -> dict:
    """The settings of a new tournament of ``fields["format"]``, checked and completed:
    Leben and points events have one entry per player (``max_cards`` 1) and ``cards`` is
    the most entries (2 to 1024). RuleError on ``lives`` (1 to 3), ``rebuy_until`` (a
    round from 1), ``life_fee`` (Leben: None for the entry fee, else 0 or more euros),
    ``rounds_planned`` (points: 1 to 30), ``team_size`` (2 to 4) and the match settings
    (``_check_match``). Other formats keep the card night's match (a Partie, a Schneider
    counting one) and have no life fee."""
    kind = fields.get("format", Format.CARDS)
    if kind != Format.POINTS:  # the card night's match (RULES.md 5.3)
        fields = {**fields, "match_games": None, "schneider_counts": 1, "bye_bummerl": None}
    if kind != Format.LEBEN:
        fields = {**fields, "life_fee": None}
    if kind == Format.CARDS:
        return fields
    fields = {**fields, "max_cards": 1}
    if not 2 <= (fields.get("cards") or 0) <= formats.LEBEN_MAX_ENTRIES:
        raise RuleError("cards", gettext_noop("A tournament takes 2 to 1024 players."))
    if kind == Format.LEBEN:
        if not leben.MIN_LIVES <= fields.get("lives", 1) <= leben.MAX_LIVES:
            raise RuleError("lives", gettext_noop("A player has 1 to 3 lives."))
        if fields.get("rebuy_until") is not None and fields["rebuy_until"] < 1:
            raise RuleError("rebuy_until", gettext_noop("Lives are bought until round 1 or later."))
        if fields.get("life_fee") is not None and fields["life_fee"] < 0:
            raise RuleError("life_fee", gettext_noop("A life costs 0 euros or more."))
    if kind == Format.POINTS:
        if not 1 <= (fields.get("rounds_planned") or 0) <= formats.MAX_ROUNDS:
            raise RuleError("rounds_planned", gettext_noop("A points event has 1 to 30 rounds."))
        if fields.get("team_size") is not None and not 2 <= fields["team_size"] <= 4:
            raise RuleError("team_size", gettext_noop("A team has 2 to 4 players."))
        _check_match(fields)
    return fields


def _check_match(fields: dict) -> None:
    """A points event's match settings (RULES.md 6): ``match_games`` (None: a Partie to
    ``match_bummerl``; else 1 to 5 Bummerl), ``schneider_counts`` (1 or 2) and
    ``bye_bummerl`` (None: ``danish.bye_default``; else 0 up to the best score)."""
    games = fields.get("match_games")
    if games is not None and not 1 <= games <= danish.MAX_GAMES:
        raise RuleError("match_games", gettext_noop("A match has 1 to 5 Bummerl."))
    if fields.get("schneider_counts", 1) not in danish.SCHNEIDER_COUNTS:
        raise RuleError("schneider_counts", gettext_noop("A Schneider counts 1 or 2 Bummerl."))
    bye = fields.get("bye_bummerl")
    if bye is not None:
        scores = danish.match_scores(
            fields.get("match_bummerl", 2), games, fields.get("schneider_counts", 1)
        )
        best = max(int(s.split(":")[0]) for s in scores)
        if not 0 <= bye <= best:
            raise RuleError(
                "bye_bummerl",
                gettext_noop("A bye scores 0 to %(n)s Bummerl."),
                n=best,
            )


def plan_format_round(state: TournamentState, expected: int | None = None) -> formats.DrawPlan:
    """The inputs of the next round of a Leben or points event (``formats.DrawPlan``):
    Leben a fresh random pairing of the players alive (RULES.md 5.10), points round 1 at
    random and then by the standing (RULES.md 6); withdrawn players are not drawn (5.7).
    RuleError on ``round`` when ``expected`` is not the round due, while matches are
    open, and when the event is over."""
    number = len(state.rounds) + 1
    if expected is not None and expected != number:
        raise RuleError(
            "round",
            gettext_noop("Round %(number)s is drawn already: this page was out of date."),
            number=expected,
        )
    board = formats.board(state)
    if board.open_matches:
        raise RuleError(
            "round",
            gettext_noop("Round %(number)s still has %(open)s open matches."),
            number=number - 1,
            open=board.open_matches,
        )
    plan = formats.draw_plan(state)
    if plan is None:
        if not state.rounds:
            raise RuleError("round", gettext_noop("At least two players are needed."))
        raise RuleError(
            "round", gettext_noop("The tournament is decided: there is no further round.")
        )
    return plan


def draw_format_round(t: Tournament, plan: formats.DrawPlan, seed: int, actor: Actor) -> Round:
    """Store the round ``plan`` pairs with ``seed`` (the caller, ``draws.draw_round``,
    holds the lock and the transaction and keeps the commitment, RULES.md 5.12)."""
    pairs, bye = plan.pair(seed)
    round_ = Round.objects.create(
        tournament=t,
        number=plan.number,
        pot_size=len(pairs) + (bye is not None),  # the round's pairings, as a card round's
        seed=seed,
        drawn_at=timezone.now(),
        drawn_by_id=actor.user_id,
    )
    rows = [
        Pairing(tournament=t, round=round_, number=i + 1, kind=Kind.MATCH, left_id=a, right_id=b)
        for i, (a, b) in enumerate(pairs)
    ]
    if bye is not None:
        rows.append(
            Pairing(tournament=t, round=round_, number=len(pairs) + 1, kind=Kind.BYE, left_id=bye)
        )
    Pairing.objects.bulk_create(rows)
    audit.record(
        t.club_id,
        "tournament",
        t.pk,
        Action.ROUND_DRAWN,
        actor=actor,
        before=None,
        after={"round": plan.number, "seed": seed, "pairings": len(rows), "format": t.format},
    )
    return round_


def life_refusal(state: TournamentState, card: Card, board=None) -> RuleError | None:
    """Why the Leben player of ``card`` may not buy a life now (RULES.md 5.10 ``rebuy``),
    as the RuleError on ``card`` that ``buy_life`` raises, or None: the one rule the desk
    asks (``can_buy_life``) and the writer checks again. ``board``: the standings board
    of ``state`` when the caller has it (``formats.board``)."""
    t = state.tournament
    if t.format != Format.LEBEN:
        return RuleError("card", NO_SUCH_PLAYER)
    if card.withdrawn_round is not None:
        return RuleError(
            "card",
            gettext_noop("%(name)s is withdrawn: a life would not bring him back."),
            name=card.player.name,
        )
    number = len(state.rounds) + 1
    if t.rebuy_until is None or number > t.rebuy_until:
        return RuleError("card", gettext_noop("Lives can no longer be bought."))
    board = formats.board(state) if board is None else board
    if board.open_matches:
        return RuleError(
            "card", gettext_noop("Lives are bought between rounds: the round is still open.")
        )
    line = next(x for x in board.lines if x.card.pk == card.pk)
    if line.out_round is not None and line.out_round != number - 1:
        return RuleError(
            "card",
            gettext_noop("%(name)s is out since round %(round)s: too late to buy back in."),
            name=card.player.name,
            round=line.out_round,
        )
    if board.finished:
        return RuleError("card", gettext_noop("The tournament is decided."))
    if line.lives_left + 1 > t.lives:
        return RuleError(
            "card",
            gettext_noop(
                "%(name)s has the most lives allowed left (%(left)s of %(most)s): "
                "nothing was bought."
            ),
            name=card.player.name,
            left=line.lives_left,
            most=t.lives,
        )
    return None


def can_buy_life(state: TournamentState, card: Card, board=None) -> bool:
    """Whether the desk offers *Leben kaufen* to ``card`` now (``life_refusal``)."""
    return life_refusal(state, card, board) is None


def buy_life(tournament: Tournament, card_id: int, actor: Actor, seen: int) -> tuple[Card, int]:
    """Buy one more life for the Leben player of card ``card_id`` (RULES.md 5.10
    ``rebuy``): while the next round to draw is at most ``rebuy_until`` and no round is
    open; a player who is out may buy back in only before the next draw (he never misses
    a round). Never above ``lives`` lives: a player who has that many left now (lives
    bought earlier and lost do not count) is refused. The life costs
    ``Tournament.life_price`` and is paid when bought: the desk's tap is the money
    handed over (there is no unpaid life); the cash counts ``Card.rebuys`` at that price.
    ``seen``: the lives bought the page showed; a second tap of the same page is refused
    (one life bought, not two). Returns the card, ``rebuys`` counted up, and his lives
    left now; the history
    keeps the purchase with its price. RuleError on ``card`` for every refusal, nothing
    changed."""
    with transaction.atomic():
        t = locked(tournament)
        state = load_state(t)
        card = state.cards.get(card_id)
        if t.format != Format.LEBEN or card is None:
            raise RuleError("card", NO_SUCH_PLAYER)
        if card.rebuys != seen:
            raise RuleError(
                "card",
                gettext_noop("%(name)s bought lives meanwhile (%(n)s in all): nothing was bought."),
                name=card.player.name,
                n=card.rebuys,
            )
        board = formats.board(state)
        refusal = life_refusal(state, card, board)
        if refusal is not None:
            raise refusal
        line = next(x for x in board.lines if x.card.pk == card_id)
        Card.objects.filter(pk=card.pk).update(rebuys=card.rebuys + 1)
        card.rebuys += 1
        lives_left = line.lives_left + 1
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.LIFE_BOUGHT,
            actor=actor,
            before={"player": card.player.name, "lives": t.lives + card.rebuys - 1},
            after={
                "player": card.player.name,
                "lives": t.lives + card.rebuys,
                "lives_left": lives_left,
                "price": f"{t.life_price:.2f}",
            },
        )
        return card, lives_left


def set_team(tournament: Tournament, card_id: int, team: str, actor: Actor) -> Card:
    """Name the team of a player of a points event (RULES.md 6), "" for none. RuleError
    on ``team`` when the team has ``team_size`` players already."""
    team = " ".join(team.split())[:60]
    with transaction.atomic():
        t = locked(tournament)
        card = Card.objects.select_related("player").filter(tournament=t, pk=card_id).first()
        if t.format != Format.POINTS or card is None:
            raise RuleError("card", NO_SUCH_PLAYER)
        if team and t.team_size:
            members = Card.objects.filter(tournament=t, team=team).exclude(pk=card.pk).count()
            if members >= t.team_size:
                raise RuleError(
                    "team",
                    gettext_noop("Team %(team)s has %(n)s players already."),
                    team=team,
                    n=members,
                )
        if card.team == team:
            return card
        before = card.team
        Card.objects.filter(pk=card.pk).update(team=team)
        card.team = team
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.TEAM_SET,
            actor=actor,
            before={"player": card.player.name, "team": before},
            after={"player": card.player.name, "team": team},
        )
        return card
