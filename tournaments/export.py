"""A tournament as JSON (README, "The tournament as JSON"): what ``export`` writes and
the management command prints; the twin of a score sheet's ``scoring.sheetjson``."""

from decimal import Decimal

from clubs.text import german_key
from tournaments import formats
from tournaments.models import Format, Pairing, Pull, Tournament
from tournaments.services.reading import load_state


def export(tournament: Tournament) -> dict:
    """The tournament as JSON (the format of the Preisschnapsen issue, README). Withdrawn
    cards are listed under ``withdrawn`` with ``withdrawn_round`` (0: before round 1); a
    match that a withdrawal decided has kind ``walkover``, no score, and ``withdrawn``
    (the card numbers) (RULES.md 5.7)."""
    state = load_state(tournament)
    t = tournament

    def ref(card_id):
        if card_id is None:
            return None
        card = state.cards[card_id]
        return {"card": card.number, "player": card.player.name}

    def pairing_dict(p: Pairing) -> dict:
        result = state.results.get(p.pk)
        match = state.matches[p.pk]
        winner = match.advancing if match.decided else None
        return {
            "number": p.number,
            **({"label": p.label} if p.label else {}),
            "left": ref(p.left_id),
            "right": ref(p.right_id),
            "kind": match.shown_kind,
            "winner_card": state.cards[winner].number if winner else None,
            "score": result.score if result else None,
            **(
                {"withdrawn": sorted(state.cards[c].number for c in match.withdrawn)}
                if match.withdrawn
                else {}
            ),
        }

    pulls = {}
    for pull in Pull.objects.live().filter(round__in=state.rounds).select_related("player", "card"):
        pulls.setdefault(pull.round_id, []).append(pull)
    players: dict[str, list[int]] = {}
    for card in state.cards.values():
        players.setdefault(card.player.name, []).append(card.number)
    document = {
        "name": t.name,
        "club": t.club.name,
        "starts_at": t.starts_at.isoformat(),
        "cards": t.cards,
        "max_cards": t.max_cards,
        "match_bummerl": t.match_bummerl,
        "entry_fee": f"{Decimal(t.entry_fee):.2f}",
        "one_prize_per_player": t.one_prize_per_player,
        "prize_list": t.prizes,
        "players": [
            {"name": name, "cards": sorted(cards)}
            for name, cards in sorted(
                players.items(), key=lambda item: (german_key(item[0]), item[0])
            )
        ],
        "withdrawn": [
            {
                "card": c.number,
                "player": c.player.name,
                "withdrawn_round": c.withdrawn_round,
            }
            for c in sorted(state.cards.values(), key=lambda c: c.number)
            if c.withdrawn_round is not None
        ],
        "rounds": [
            {
                "number": r.number,
                "pot_size": r.pot_size,
                "seed": r.seed,
                "pulls": [
                    {
                        "player": p.player.name,
                        "card": p.card.number,
                        "pot": p.pot,
                        "number": p.number,
                        "put_back": p.put_back,
                    }
                    for p in sorted(pulls.get(r.pk, []), key=lambda p: p.index)
                ],
                "pairings": [pairing_dict(p) for p in state.pairings[r.pk]],
            }
            for r in state.rounds
        ],
        "placement": [pairing_dict(p) for p in state.placement],
        "ranking": [
            {"place": first, "to": last, **ref(card)}
            for first, last, card in [(p, p, c) for p, c in sorted(state.places().items())]
            + state.shared()
        ],
        "prizes": [
            {
                "place": a.place,
                "description": a.description,
                "card": state.cards[a.card].number,
                "player": state.cards[a.card].player.name,
            }
            for a in state.awards()
        ],
    }
    if t.format != Format.CARDS:  # Leben and points events: their standings (README)
        document.update(formats.export_part(state, ref))
    return document
