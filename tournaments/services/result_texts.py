"""The texts a stored result of a Partie is described with: who entered it and when
(``describe_result``), the lock of its score sheet while it stands, the refusal of a
result write from an older state (``StaleResult``), and the winner's name or "Draw".
Nothing here writes.
"""

from django.utils import timezone
from django.utils.translation import gettext

from base.errors import RuleError, gettext_noop
from tournaments.models import (
    Card,
    Pairing,
    Result,
)

RESULT_STANDS = {
    "user": gettext_noop(
        "The result stands: %(winner)s %(score)s, entered by %(by)s at %(time)s; "
        "only the organisers can change it."
    ),
    "link": gettext_noop(
        "The result stands: %(winner)s %(score)s, entered with the match link at %(time)s; "
        "only the organisers can change it."
    ),
    "sheet": gettext_noop(
        "The result stands: %(winner)s %(score)s, decided on the score sheet at %(time)s; "
        "only the organisers can change it."
    ),
    "side": gettext_noop(
        "The result stands: %(winner)s %(score)s, entered with the link of %(reporter)s at "
        "%(time)s; only the organisers can change it."
    ),
    "confirmed": gettext_noop(
        "The result stands: %(winner)s %(score)s, reported by %(reporter)s and confirmed by "
        "%(confirmer)s at %(time)s; only the organisers can change it."
    ),
    "accepted": gettext_noop(
        "The result stands: %(winner)s %(score)s, reported by %(reporter)s and accepted by "
        "%(by)s at %(time)s; only the organisers can change it."
    ),
}
"""The lock of a match's score sheet while its result stands, by who entered it."""

MEANWHILE = {
    "user": gettext_noop("Meanwhile %(by)s entered %(winner)s %(score)s at %(time)s."),
    "link": gettext_noop(
        "Meanwhile %(winner)s %(score)s was entered with the match link at %(time)s."
    ),
    "sheet": gettext_noop("Meanwhile the score sheet decided %(winner)s %(score)s at %(time)s."),
    "side": gettext_noop(
        "Meanwhile %(winner)s %(score)s was entered with the link of %(reporter)s at %(time)s."
    ),
    "confirmed": gettext_noop(
        "Meanwhile %(reporter)s reported %(winner)s %(score)s and %(confirmer)s confirmed it "
        "at %(time)s."
    ),
    "accepted": gettext_noop(
        "Meanwhile %(reporter)s reported %(winner)s %(score)s and %(by)s accepted it at %(time)s."
    ),
}
"""A result write from an older state, refused: what happened since, by who entered it."""

ENTERED = {
    "user": gettext_noop("entered by %(by)s at %(time)s"),
    "link": gettext_noop("entered with the match link at %(time)s"),
    "sheet": gettext_noop("decided on the score sheet at %(time)s"),
    "side": gettext_noop("entered with the link of %(reporter)s at %(time)s"),
    "confirmed": gettext_noop("reported by %(reporter)s, confirmed by %(confirmer)s at %(time)s"),
    "accepted": gettext_noop("reported by %(reporter)s, accepted by %(by)s at %(time)s"),
}
"""Who entered a result and when, short, beside it on the round page."""

VOIDED_MEANWHILE = gettext_noop("Meanwhile the result was voided: the match is open again.")


def result_source(result: Result) -> str:
    """Who entered a result: "sheet" (its score sheet), "confirmed" (a player's report,
    confirmed by the other player, each with his own link), "accepted" (a player's
    report, accepted by an organiser), "side" (a player's own link, when one is enough),
    "link" (the match link) or "user"."""
    if result.from_sheet:
        return "sheet"
    if result.confirmed_side:
        return "confirmed"
    if result.reported_side:
        return "accepted" if result.recorded_by_id is not None else "side"
    if result.recorded_by_id is None:
        return "link"
    return "user"


def result_params(
    result: Result, cards: dict[int, Card] | None = None, pairing: Pairing | None = None
) -> dict:
    """The placeholders of ``RESULT_STANDS`` and ``MEANWHILE``: winner (player name, or
    "Draw" for a draw, RULES.md 6), score, by (the user's name), time (local HH:MM), and
    for a result from a player's own link the players whose links reported and
    confirmed it (``reporter``, ``confirmer``: "" for none). ``cards`` and ``pairing`` (the result's match) spare their queries."""
    user = result.recorded_by if result.recorded_by_id else None
    params = {
        "winner": winner_name(result.winner_id, cards),
        "score": result.score,
        "by": (user.get_full_name() or user.get_username()) if user else "",
        "time": timezone.localtime(result.recorded_at).strftime("%H:%M"),
    }
    if result.reported_side:
        pairing = pairing or result.pairing
        names = {"": ""}
        for side in ("left", "right"):
            card_id = getattr(pairing, f"{side}_id")
            card = (cards or {}).get(card_id) if card_id is not None else None
            if card is None and card_id is not None:
                card = Card.objects.select_related("player").get(pk=card_id)
            names[side] = card.player.name if card is not None else ""
        params["reporter"] = names[result.reported_side]
        params["confirmer"] = names[result.confirmed_side]
    return params


DRAW = gettext_noop("Draw")
"""A points match ended level (1:1): no winner (RULES.md 6)."""


def winner_name(card_id: int | None, cards: dict[int, Card] | None = None) -> str:
    """The name of the player of the winning card ``card_id`` (read from ``cards`` or
    the database), or "Draw" (translated) when there is none."""
    if card_id is None:
        return gettext(DRAW)
    card = cards[card_id] if cards else Card.objects.select_related("player").get(pk=card_id)
    return card.player.name


def describe_result(
    result: Result, cards: dict[int, Card] | None = None, texts=None, pairing=None
) -> str:
    """The result, who entered it and when, translated for the page (``texts``:
    ``RESULT_STANDS`` by default, or ``ENTERED``; ``cards`` and ``pairing`` as in
    ``result_params``)."""
    template = (texts or RESULT_STANDS)[result_source(result)]
    return gettext(template) % result_params(result, cards, pairing)


class StaleResult(RuleError):
    """A result write from an older state than the stored one (field ``pairing``):
    ``live`` is the result that stands now (None when it was voided meanwhile)."""

    def __init__(self, live: Result | None, cards: dict[int, Card] | None = None):
        self.live = live
        if live is None:
            super().__init__("pairing", VOIDED_MEANWHILE)
        else:
            super().__init__(
                "pairing", MEANWHILE[result_source(live)], **result_params(live, cards)
            )
