"""Readable before/after values of a tournament's history page (``clubs.audit``)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import audit
from clubs.audit import Reads
from tournaments.models import ResultCheck
from tournaments.rows import match_name


def describe_change(state):
    """The ``describe`` of the tournament's history page: cards with their holders
    ("Karte 5 (Anna)"), sales, payments, draws, pulls and results as short lines, each
    as the action's entry of ``clubs.audit.REGISTRY`` says it reads. None for a value
    of another shape (the page then lists its fields)."""
    holders = {card.number: card.player.name for card in state.cards.values()}
    pots = {round_.number: round_.pot_size for round_ in state.rounds}
    knockout = all(round_.knockout for round_ in state.rounds)

    def match(round_number, pairing) -> str:
        """A match named as everywhere (``rows.match_name``); a placement match has no
        round, a round taken back keeps its number."""
        if round_number is None:
            return match_name(None, None, pairing, str(pairing))
        return match_name(round_number, pots.get(round_number), pairing, knockout=knockout)

    def card(number) -> str:
        name = holders.get(number)
        if name is None:
            return _("card %(n)s") % {"n": number}
        return _("card %(n)s (%(name)s)") % {"n": number, "name": name}

    def paid(value) -> str:
        return _("paid") if value else _("not paid")

    def describe(action: str, value) -> str | None:
        reads = audit.reads(action)
        try:
            if reads == Reads.SALE:
                numbers = ", ".join(str(n) for n in value["cards"])
                template = _("Card %(numbers)s → %(player)s, %(paid)s")
                if len(value["cards"]) != 1:
                    template = _("Cards %(numbers)s → %(player)s, %(paid)s")
                return template % {
                    "numbers": numbers,
                    "player": value["player"],
                    "paid": paid(value["paid"]),
                }
            if reads == Reads.SALE_CANCELLED:
                if "player_removed" in value:
                    return (
                        _("The player left the club's players") if value["player_removed"] else None
                    )
                return _("Card %(n)s (%(name)s), %(paid)s") % {
                    "n": value["card"],
                    "name": value["player"],
                    "paid": paid(value["paid"]),
                }
            if reads == Reads.CARD_PAID:
                text = f"{card(value['card'])}: {paid(value['paid'])}"
                return text[:1].upper() + text[1:]
            if reads == Reads.ROUND_DRAWN:
                how = (
                    _("drawn at the venue")
                    if value["seed"] is None
                    else _("seed %(seed)s") % {"seed": value["seed"]}
                )
                return ngettext(
                    "Round %(n)s: %(count)s pairing, %(how)s",
                    "Round %(n)s: %(count)s pairings, %(how)s",
                    value["pairings"],
                ) % {
                    "n": value["round"],
                    "count": value["pairings"],
                    "how": how,
                }
            if reads == Reads.PULL:
                text = _("Round %(n)s: %(card)s pulls %(number)s from the %(pot)s pot") % {
                    "n": value["round"],
                    "card": card(value["card"]),
                    "number": value["number"],
                    "pot": _("left") if value["pot"] == "left" else _("right"),
                }
                return text + (", " + _("put back") if value["put_back"] else "")
            if reads == Reads.TOURNAMENT:
                return _("%(name)s: %(cards)s cards laid out, at most %(max)s per player") % {
                    "name": value["name"],
                    "cards": value["cards"],
                    "max": value["max_cards"],
                }
            if reads == Reads.TABLES:
                return _("Tables: %(n)s") % {"n": value["tables"]}
            if reads == Reads.MATCH:
                return match(value["round"], value["pairing"])
            if reads == Reads.SIDE_LINK:
                side = _("left") if value["side"] == "left" else _("right")
                return f"{match(value['round'], value['pairing'])}: {side}"
            if reads == Reads.RESULT_CHECK:
                return str(ResultCheck(value["result_check"]).label)
            if reads == Reads.ROUND:
                return _("Round %(n)s") % {"n": value["round"]}
            if reads == Reads.RESULT:
                where = match(value["round"], value["pairing"])
                if value["winner_card"] is None:  # a draw (RULES.md 6)
                    return f"{where}: " + _("a draw, %(score)s") % {"score": value["score"]}
                wins = _("%(card)s wins %(score)s") % {
                    "card": card(value["winner_card"]),
                    "score": value["score"],
                }
                return f"{where}: {wins}"
        except (KeyError, TypeError, ValueError):
            return None
        return None

    return describe
