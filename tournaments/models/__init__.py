"""Preisschnapsen: a knock-out tournament of two-player Schnapsen (RULES.md section 5).

Words: a *card* (Teilnahmekarte) is one life in the tournament, sold to a player at the
door; a player may hold several. A *round* is drawn from two *pots* of numbers; each
*pull* is kept in order. A *pairing* is what a number produced: a *match* of two cards,
a *bye* (Freilos: the card advances without playing) or a *walkover* (a player met
himself: he gives up one card and advances with the other). A *result* decides a match;
it is never edited, a correction voids it and records a new one. Undone draws are kept.
A *withdrawn* card (RULES.md 5.7) is one whose holder went home: it is not drawn again,
and an open match it is in becomes a walkover for the other card.
Placement matches (for prizes 3 to 8) are pairings of their own stage.
A *side* of a match is one of its two cards; each side has a private link of its own.
With the tournament's ``result_check`` "confirm", a result entered with a side link is
a *report*: it becomes the result when the other side confirms it or an organiser
accepts it; two reports that differ are a *disagreement* for the desk.

The models live in three modules: ``tournament`` (the tournament and its settings),
``play`` (cards, rounds, pulls, pairings, results, reports, tie-breaks) and
``registrations``; every name is imported from here.
"""

from tournaments.models.play import (
    Card,
    CardQuerySet,
    Kind,
    Outcome,
    Pairing,
    PairingQuerySet,
    Pull,
    PullQuerySet,
    Report,
    ReportQuerySet,
    Result,
    ResultQuerySet,
    Round,
    RoundQuerySet,
    Side,
    Stage,
    TieBreak,
    TieBreakQuerySet,
)
from tournaments.models.registrations import (
    ACTIVE_REGISTRATION,
    HOLDING_REGISTRATION,
    TRANSFER_LETTERS,
    Registration,
    RegistrationStatus,
    registration_token,
    transfer_reference,
)
from tournaments.models.tournament import (
    Format,
    ResultCheck,
    Tournament,
    new_nonce,
    new_seed,
    new_token,
    side_token,
)
from tournaments.prizes import Place

__all__ = [
    "ACTIVE_REGISTRATION",
    "HOLDING_REGISTRATION",
    "TRANSFER_LETTERS",
    "Card",
    "CardQuerySet",
    "Format",
    "Kind",
    "Outcome",
    "Pairing",
    "PairingQuerySet",
    "Place",
    "Pull",
    "PullQuerySet",
    "Registration",
    "RegistrationStatus",
    "Report",
    "ReportQuerySet",
    "Result",
    "ResultCheck",
    "ResultQuerySet",
    "Round",
    "RoundQuerySet",
    "Side",
    "Stage",
    "TieBreak",
    "TieBreakQuerySet",
    "Tournament",
    "new_nonce",
    "new_seed",
    "new_token",
    "registration_token",
    "side_token",
    "transfer_reference",
]
