"""Bauernschnapsen: four players in two teams, the points of one deal and the end of a
game (RULES.md 4).

Seats are 0, 1, 2, 3 clockwise; partners sit opposite: seats 0+2 and 1+3 are the teams
(the seats 1+3 and 2+4 of RULES.md). Dealer, Rufer and the rotation are those of
Dreierschnapsen. A deal is recorded as in Dreierschnapsen (``DreierDeal``, ``Redeal``)
and valued by ``dreier.deal_value``, the Spritzen options included; what differs is who
may declare and that a **team** scores. Points and totals are kept per seat, both
players of a team carrying the team's figure.
"""

from base.errors import RuleError, gettext_noop
from scoring.rules.dreier import DreierDeal, check_declarer_and_won, deal_value
from scoring.rules.ruleset import NORMAL, MayDeclare, RuleSet

SEATS = 4


def partner(seat: int) -> int:
    """The seat opposite: the partner of ``seat``."""
    return (seat + 2) % SEATS


def team(seat: int) -> int:
    """0 for the team of seats 0 and 2, 1 for the team of seats 1 and 3."""
    return seat % 2


def team_seats(which: int) -> tuple[int, int]:
    """The two seats of team ``which`` (0 or 1)."""
    return (which, which + 2)


def may_declare(deal: DreierDeal, rufer: int, rules: RuleSet) -> bool:
    """Whether seat ``deal.declarer`` may play ``deal.contract`` with ``rufer`` as Rufer
    (RULES.md 4.1): the normal game is the Rufer's; a contract the Rufer declares in
    Dreierschnapsen (``may_declare: rufer``: Schnapser, Bauernschnapser) also his
    partner's with ``schnapser_by_partner``; one a non-Rufer declares (``not_rufer``:
    the Kontra games) only the other team's; any other anyone's."""
    contract = rules.contract(deal.contract)
    if contract.code == NORMAL:
        return deal.declarer == rufer
    if contract.may_declare is MayDeclare.RUFER:
        return deal.declarer == rufer or (
            bool(rules.schnapser_by_partner) and deal.declarer == partner(rufer)
        )
    if contract.may_declare is MayDeclare.NOT_RUFER:
        return team(deal.declarer) != team(rufer)
    return True


def sits_out(deal: DreierDeal, rules: RuleSet) -> int | None:
    """The seat of the declarer's partner when he sits out this contract (its code is in
    ``partner_sits_out``, RULES.md 4.1), else None. Shown only: he shares his team's
    result all the same."""
    if deal.contract in (rules.partner_sits_out or ()):
        return partner(deal.declarer)
    return None


def score_bauern_deal(deal: DreierDeal, rufer: int, rules: RuleSet) -> tuple[int, int, int, int]:
    """Points per seat for one deal (RULES.md 4.2): the declarer's team scores ``value``
    when the contract is won, the other team when it is lost; both players of the team
    carry it. The normal game is the Rufer's team against the other (its 1/2/3 read as
    ``caller_vs_two``, whatever ``normal_game`` says).

    Raises RuleError naming ``declarer`` (not one of the four, or not allowed to
    declare), ``won``, ``contract``, ``spritzen`` or ``normal_points``.
    """
    check_declarer_and_won(deal, SEATS)
    value = deal_value(deal, rules)
    contract = rules.contract(deal.contract)
    if not may_declare(deal, rufer, rules):
        if contract.may_declare is MayDeclare.NOT_RUFER:
            template = gettext_noop("Only the team against the Rufer may play %(contract)s.")
        elif contract.code != NORMAL and rules.schnapser_by_partner:
            template = gettext_noop("Only the Rufer or his partner may play %(contract)s.")
        else:
            template = gettext_noop("Only the Rufer may play %(contract)s.")
        raise RuleError("declarer", template, contract=contract.name)
    winners = team(deal.declarer) if deal.won else 1 - team(deal.declarer)
    points = [value if team(seat) == winners else 0 for seat in range(SEATS)]
    return (points[0], points[1], points[2], points[3])


def game_end(
    before: tuple[int, ...], after: tuple[int, ...], rules: RuleSet
) -> tuple[tuple[int, int], str, int] | None:
    """Whether the deal that took the totals from ``before`` to ``after`` (per seat)
    ended the game (RULES.md 4.3): None while no team has ``game_target``, else
    ``(losing seats, result, Bummerl for each of them)``. Only one team scores in a
    deal, so the first team to reach the target wins; no tie is possible.

    The result is ``retourschneider`` (``retourschneider_counts``) when the losing team
    had led ``game_target - 1`` to 0 before the deal, ``schneider``
    (``schneider_counts``) when it has 0, else ``bummerl`` (1).
    """
    target = rules.game_target
    if max(after) < target:
        return None
    winners = 0 if after[0] >= after[1] else 1
    losers = team_seats(1 - winners)
    loser, winner = losers[0], winners
    if before[loser] == target - 1 and before[winner] == 0:
        return losers, "retourschneider", rules.retourschneider_counts
    if after[loser] == 0:
        return losers, "schneider", rules.schneider_counts
    return losers, "bummerl", 1
