"""Two-player Schnapsen: the points of one deal (RULES.md section 2).

Words: *Augen* are card points (0..120 in a deal, plus counted Zwanziger/Vierziger);
*points* (Spielpunkte) are what a deal is worth on the sheet: 1, 2 or 3.
Seats are 0 and 1.
"""

from dataclasses import dataclass
from enum import StrEnum

from base.errors import RuleError, gettext_noop
from scoring.rules.ruleset import RuleSet

SCHWARZ_POINTS = 3
"""The loser took no trick (RULES.md 2)."""
SCHNEIDER_LINE = 33
"""Under 33 Augen (32 or fewer) the loser is *Schneider* in the deal: 2 points."""


class End(StrEnum):
    """How a deal ended (RULES.md 2, table)."""

    AUSMELDEN = "ausmelden"
    LAST_TRICK = "last_trick"
    CLOSED_WON = "closed_won"
    CLOSED_FAILED = "closed_failed"
    FALSE_CLAIM = "false_claim"
    RENONCE = "renonce"


@dataclass(frozen=True)
class QuickDeal:
    """Quick entry: ``winner`` (seat 0/1) scores ``points`` (1..3)."""

    winner: int
    points: int


@dataclass(frozen=True)
class EndedDeal:
    """Computed entry: the way the deal ended and the other player's showing.

    ``by`` is the seat of the player who melded out, took the last trick, closed,
    claimed falsely or revoked; ``other_augen`` (0..120) and ``other_had_trick``
    describe the other seat (at the moment of closing for the two closing ends, or at
    the end with ``closing_counts_at = "end"``). Fields an end does not need may be None.
    """

    end: End
    by: int
    other_augen: int | None = None
    other_had_trick: bool | None = None


SchnapsenDeal = QuickDeal | EndedDeal


def points_for_showing(augen: int | None, had_trick: bool | None, rules: RuleSet) -> int:
    """Points a winner scores by the loser's showing: 3 no trick, 2 under 33 Augen, else 1.

    Raises RuleError on ``other_had_trick`` (missing) or ``other_augen`` (missing,
    outside 0..120, or above 0 without a trick while ``announcements_need_trick``).
    RULES.md 1 and 2.
    """
    if had_trick is None:
        raise RuleError(
            "other_had_trick", gettext_noop("Say whether the other player had a trick.")
        )
    if augen is not None:
        _check_augen(augen)
    if not had_trick:
        if augen and rules.announcements_need_trick:
            raise RuleError(
                "other_augen",
                gettext_noop("Without a trick a player has no Augen (announcements need a trick)."),
            )
        return SCHWARZ_POINTS
    _check_augen(augen)
    assert augen is not None
    return 2 if augen < SCHNEIDER_LINE else 1


def _check_augen(augen: int | None) -> None:
    if augen is None:
        raise RuleError("other_augen", gettext_noop("Enter the other player's Augen."))
    if isinstance(augen, bool) or not isinstance(augen, int) or not 0 <= augen <= 120:
        raise RuleError("other_augen", gettext_noop("Augen must be a whole number from 0 to 120."))


def check_showing(deal: EndedDeal, rules: RuleSet) -> None:
    """Check every given field of the other player's showing, also where the end does not
    count it (a closing that failed, a false claim under ``fixed``, a Renonce): a sheet
    keeps no value the rules could not have produced. RULES.md 1 and 2.

    Raises RuleError on ``other_had_trick`` (not true/false), ``other_augen`` (not a whole
    number from 0 to 120, or above 0 without a trick while ``announcements_need_trick``).
    """
    if deal.other_had_trick is not None and not isinstance(deal.other_had_trick, bool):
        raise RuleError("other_had_trick", gettext_noop("Must be true or false."))
    if deal.other_augen is None:
        return
    _check_augen(deal.other_augen)
    if deal.other_had_trick is False and deal.other_augen and rules.announcements_need_trick:
        raise RuleError(
            "other_augen",
            gettext_noop("Without a trick a player has no Augen (announcements need a trick)."),
        )


def _check_seat(name: str, seat: object) -> int:
    if isinstance(seat, bool) or seat not in (0, 1):
        raise RuleError(name, gettext_noop("Choose one of the two players."))
    return seat


def score_schnapsen_deal(deal: SchnapsenDeal, rules: RuleSet) -> tuple[int, int]:
    """The (winner seat, points 1..3) of one two-player deal. RULES.md section 2.

    Quick entry gives them directly; an ``EndedDeal`` is computed from the table of
    RULES.md 2 under the rule set's ``false_claim`` and ``announcements_need_trick``
    options. Raises RuleError naming ``winner``, ``points``, ``end``, ``by``,
    ``other_augen`` or ``other_had_trick``; the last two are checked whenever they are
    given, also for an end that does not count them (``check_showing``).
    """
    if isinstance(deal, QuickDeal):
        winner = _check_seat("winner", deal.winner)
        if isinstance(deal.points, bool) or deal.points not in (1, 2, 3):
            raise RuleError("points", gettext_noop("A deal is worth 1, 2 or 3 points."))
        return winner, deal.points
    by = _check_seat("by", deal.by)
    other = 1 - by
    try:
        end = End(deal.end)
    except ValueError:
        raise RuleError("end", gettext_noop("Unknown way for a deal to end.")) from None
    check_showing(deal, rules)
    if end in (End.AUSMELDEN, End.LAST_TRICK, End.CLOSED_WON):
        # The closer's points are counted on the Augen given for the moment the
        # rule set names (closing_counts_at): the input already is that count.
        return by, points_for_showing(deal.other_augen, deal.other_had_trick, rules)
    if end is End.CLOSED_FAILED:
        if deal.other_had_trick is None:
            raise RuleError(
                "other_had_trick", gettext_noop("Say whether the other player had a trick.")
            )
        return other, 2 if deal.other_had_trick else SCHWARZ_POINTS
    if end is End.FALSE_CLAIM:
        if rules.false_claim == "mirror":
            return other, points_for_showing(deal.other_augen, deal.other_had_trick, rules)
        if deal.other_had_trick is None:
            raise RuleError(
                "other_had_trick", gettext_noop("Say whether the other player had a trick.")
            )
        return other, 2 if deal.other_had_trick else SCHWARZ_POINTS
    return other, SCHWARZ_POINTS  # Renonce
