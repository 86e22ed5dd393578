"""The rule cores of Schnapsen, Dreierschnapsen and Bauernschnapsen: pure Python, no Django.

See ``sheet`` for the words (entry, game, Bummerl, Partie); ``schnapsen``, ``dreier``
and ``bauern`` (four players in two teams) score single deals; ``ruleset`` holds rule
sets as data.
"""

from base.errors import RuleError
from scoring.rules.dreier import DreierDeal, Redeal, TieBreak, deal_value, score_dreier_deal
from scoring.rules.ruleset import NORMAL, Contract, MayDeclare, RuleSet
from scoring.rules.schnapsen import End, EndedDeal, QuickDeal, score_schnapsen_deal
from scoring.rules.sheet import Game, Line, Mark, Result, SheetState, Variant, score_sheet

__all__ = [
    "NORMAL",
    "Contract",
    "DreierDeal",
    "End",
    "EndedDeal",
    "Game",
    "Line",
    "Mark",
    "MayDeclare",
    "QuickDeal",
    "Redeal",
    "Result",
    "RuleError",
    "RuleSet",
    "SheetState",
    "TieBreak",
    "Variant",
    "deal_value",
    "score_dreier_deal",
    "score_schnapsen_deal",
    "score_sheet",
]
