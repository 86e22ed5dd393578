"""Dreierschnapsen: the points of one deal (RULES.md 3.1 and 3.2).

Seats are 0, 1, 2 clockwise. The *Rufer* sits left of the dealer (the next seat
clockwise). Points are Spielpunkte, never Augen.
"""

from dataclasses import dataclass

from base.errors import RuleError, gettext_noop
from scoring.rules.ruleset import MAX_SPRITZEN, NORMAL, Contract, RuleSet


@dataclass(frozen=True)
class DreierDeal:
    """One played deal: the contract code, the declarer's seat, whether he won it,
    the Spritzen level k (0..3, value x 2^k) and, for the normal game, its 1..3 points.

    With ``normal_game = "each_for_himself"`` the declarer of a normal game is its
    winner, and ``won`` must be true.
    """

    contract: str
    declarer: int
    won: bool
    spritzen: int = 0
    normal_points: int | None = None


@dataclass(frozen=True)
class Redeal:
    """A deal thrown in without score (the Rufer's first three cards were three Unter)."""


@dataclass(frozen=True)
class TieBreak:
    """The winner (seat) of the two-player deal that settles a tie for the loser's place."""

    winner: int


def deal_value(deal: DreierDeal, rules: RuleSet) -> int:
    """``base x 2^spritzen`` in points; for the normal game ``normal_points x 2^spritzen``.

    Raises RuleError on ``contract`` (unknown or disabled), ``normal_points`` (not 1..3
    on a normal game, or given for another contract) or ``spritzen`` (outside 0..3, or on a normal game without
    ``spritzen_on_normal``, above ``spritzen_levels``, or on a contract of
    ``not_spritzable``). RULES.md 3.2 and 4.2; Bauernschnapsen values its deals the same way.
    """
    contract = rules.contract(deal.contract)
    k = deal.spritzen
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= MAX_SPRITZEN:
        raise RuleError("spritzen", gettext_noop("Spritzen is a level from 0 to 3."))
    if contract.code == NORMAL:
        if isinstance(deal.normal_points, bool) or deal.normal_points not in (1, 2, 3):
            raise RuleError("normal_points", gettext_noop("A normal game is worth 1, 2 or 3."))
        if k and not rules.spritzen_on_normal:
            raise RuleError(
                "spritzen", gettext_noop("This rule set allows no Spritzen on the normal game.")
            )
        _check_spritzen_options(contract, k, rules)
        return deal.normal_points * 2**k
    if deal.normal_points is not None:
        raise RuleError(
            "normal_points",
            gettext_noop(
                "Only the normal game is worth 1, 2 or 3: %(contract)s has no such points."
            ),
            contract=contract.name,
        )
    assert contract.base is not None
    _check_spritzen_options(contract, k, rules)
    return contract.base * 2**k


def _check_spritzen_options(contract: Contract, k: int, rules: RuleSet) -> None:
    """The options ``spritzen_levels`` and ``not_spritzable`` (RULES.md 4.2); their
    Dreierschnapsen defaults (3 levels, none excluded) allow every level 0..3."""
    if not k:
        return
    if contract.code in rules.not_spritzable:
        raise RuleError(
            "spritzen",
            gettext_noop("%(contract)s cannot be spritzed in this rule set."),
            contract=contract.name,
        )
    if not rules.spritzen_levels:
        raise RuleError("spritzen", gettext_noop("This rule set allows no Spritzen."))
    if k > rules.spritzen_levels:
        raise RuleError(
            "spritzen",
            gettext_noop("This rule set allows Spritzen up to ×%(factor)s."),
            factor=2**rules.spritzen_levels,
        )


def may_declare(deal: DreierDeal, rufer: int, rules: RuleSet) -> bool:
    """Whether seat ``deal.declarer`` may play ``deal.contract`` with ``rufer`` as Rufer.

    The normal game is the Rufer's unless ``normal_game = "each_for_himself"``. RULES.md 3.1.
    """
    contract = rules.contract(deal.contract)
    if contract.code == NORMAL and rules.normal_game == "each_for_himself":
        return True
    return contract.allows(deal.declarer, rufer)


def check_declarer_and_won(deal: DreierDeal, seats: int) -> None:
    """RuleError on ``declarer`` when it is not one of ``seats`` seats, on ``won`` when
    it is not a yes or no (the entry form's two required answers)."""
    if isinstance(deal.declarer, bool) or deal.declarer not in range(seats):
        raise RuleError("declarer", gettext_noop("Choose the declarer."))
    if not isinstance(deal.won, bool):
        raise RuleError("won", gettext_noop("Say whether the declarer won."))


def score_dreier_deal(deal: DreierDeal, rufer: int, rules: RuleSet) -> tuple[int, int, int]:
    """Points per seat for one deal (RULES.md 3.2).

    The declarer who wins scores ``value``; one who loses gives ``value`` to each of
    the two others. Raises RuleError naming ``declarer``, ``won``, ``contract``,
    ``spritzen`` or ``normal_points``.
    """
    check_declarer_and_won(deal, 3)
    value = deal_value(deal, rules)
    contract = rules.contract(deal.contract)
    if not may_declare(deal, rufer, rules):
        template = (
            gettext_noop("Only the Rufer may play %(contract)s.")
            if contract.code == NORMAL or contract.may_declare == "rufer"
            else gettext_noop("The Rufer may not play %(contract)s.")
        )
        raise RuleError("declarer", template, contract=contract.name)
    if contract.code == NORMAL and rules.normal_game == "each_for_himself" and not deal.won:
        raise RuleError(
            "won", gettext_noop("Every player plays for himself: enter the winner as declarer.")
        )
    points = [0, 0, 0]
    if deal.won:
        points[deal.declarer] = value
    else:
        for seat in range(3):
            if seat != deal.declarer:
                points[seat] = value
    return (points[0], points[1], points[2])
