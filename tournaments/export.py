"""A tournament as JSON (README, "The tournament as JSON"): what ``export`` writes and
the management command prints; the twin of a score sheet's ``scoring.sheetjson``."""

from decimal import Decimal

from base.text import german_key
from clubs.audit import Action, history
from tournaments import bracket, draw, formats
from tournaments.categories import category_lists, listed, money_split
from tournaments.models import Format, Pairing, Pull, Tournament
from tournaments.prizes import cash, player_cash
from tournaments.services.reading import load_state


def export(tournament: Tournament, payments: bool = True) -> dict:
    """The tournament as JSON (the format of the Preisschnapsen issue, README). Withdrawn
    cards are listed under ``withdrawn`` with ``withdrawn_round`` (0: before round 1); a
    match that a withdrawal decided has kind ``walkover``, no score, and ``withdrawn``
    (the card numbers) (RULES.md 5.7). With ``payments`` (the desk's export, not the
    public one) ``cash`` holds the money: cards and lives bought (``_cash``)."""
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
            **({"seed": p.seed} if p.seed is not None else {}),
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

    cards_format = t.format == Format.CARDS
    holders = _draw_inputs(state) if cards_format else _format_draw_inputs(state)
    inputs_key = "holders" if cards_format else "entries"
    pulls: dict[int, list[Pull]] = {}
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
                **_commitment(r, holders, inputs_key),
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
        "ranking": [{"place": r.first, "to": r.last, **ref(r.card)} for r in state.ranking()],
        **(_ranking_extras(state, ref) if cards_format else _ties(state)),
        "prizes": [_prize(line, ref) for line in listed(state, state.prize_lines)],
    }
    if not cards_format:  # Leben and points events: their standings (README)
        document.update(formats.export_part(state, ref))
    if payments:
        document["cash"] = _cash(state)
    return document


def _prize(line, ref) -> dict:
    """A prize line of the export (``categories.ListedPrize``): ``place``,
    ``description``, ``card`` and ``player`` (``null`` while it has no holder), ``open``
    (``""`` given, ``playing``, ``shared`` or ``nobody``: ``ledger``) and ``range`` (the
    shared places it waits for, ``[first, last]``, else ``null``)."""
    return {
        "place": line.place,
        "description": line.description,
        **(ref(line.card.pk) if line.card else {"card": None, "player": None}),
        "open": line.open,
        "range": list(line.range) if line.range else None,
    }


def _amount(value) -> str:
    """Euros as the export writes them: "5120.00"."""
    return f"{Decimal(value):.2f}"


def _cash(state) -> dict:
    """The export's ``cash`` (README): the cash report's figures (``prizes.cash`` and
    ``prizes.player_cash``, as ``printing.cash_context``) in euros as text with two
    decimals; ``life_fee`` is None but in Leben (RULES.md 5.10), where every life bought
    is paid when bought; the split of the takings into ``prize_money`` and the
    ``house``'s share (RULES.md 5.5) and the ``cancelled_sales`` (5.1, from the history)."""
    t = state.tournament
    cards = list(state.cards.values())
    money = cash(t.entry_fee, cards, t.life_price)
    split = money_split(t, money.in_box)
    leben = t.format == Format.LEBEN
    return {
        "entry_fee": _amount(money.entry_fee),
        "cards_sold": money.sold,
        "cards_paid": money.paid,
        "cards_amount": _amount(money.sold_amount),
        "cards_paid_amount": _amount(money.paid_amount),
        "open_amount": _amount(money.open_amount),
        "life_fee": _amount(money.life_fee) if leben else None,
        "lives_bought": money.lives,
        "lives_amount": _amount(money.lives_amount),
        "total": _amount(money.total),
        "in_box": _amount(money.in_box),
        "prize_money": [
            {
                "list": p.label,
                "place": p.place,
                "description": p.description,
                "kind": p.kind,
                "value": str(p.value),
                "amount": _amount(p.amount),
            }
            for p in split.payouts
        ],
        "prize_money_total": _amount(split.prize_money),
        "house": _amount(split.house),
        "cancelled_sales": [
            {"card": e.before["card"], "player": e.before["player"], "paid": e.before["paid"]}
            for e in history("tournament", t.pk)
            .filter(action=Action.SALE_CANCELLED)
            .order_by("at", "id")
        ],
        "players": [
            {
                "player": line.player.name,
                "cards": [card.number for card in line.cards],
                "cards_paid": line.paid,
                "lives_bought": line.lives,
                "paid_amount": _amount(line.paid_amount),
                "owed": _amount(line.owed),
            }
            for line in player_cash(t.entry_fee, t.max_cards, cards, t.life_price)
        ],
    }


# Ranking, categories, consolation and the auditable draw (RULES.md 5.8, 5.9, 5.11, 5.12)


def _draw_inputs(state) -> dict[int, list[dict]]:
    """Round id -> the holders a digital draw took (``verify``: the inputs of its
    commitment), rebuilt from the rounds before it."""
    cards = {pk: c.player_id for pk, c in state.cards.items()}
    out = {}
    for index, r in enumerate(state.rounds):
        if r.seed is None:
            continue
        in_play = bracket.cards_in_play(
            state.round_states[:index], sorted(state.cards), state.withdrawn
        )
        listed = draw.canonical(bracket.holders(cards, in_play))
        out[r.pk] = [
            {
                "player": state.cards[h.cards[0]].player.name,
                "cards": [state.cards[c].number for c in h.cards],
            }
            for h in listed
        ]
    return out


def _format_draw_inputs(state) -> dict[int, list[dict]]:
    """Round id -> the entries a Leben or points draw took (``formats.DrawPlan``, the
    inputs of its commitment), rebuilt from the rounds before it."""
    out = {}
    for index, r in enumerate(state.rounds):
        plan = formats.draw_plan(formats.upto(state, index)) if r.seed is not None else None
        if plan is None:
            continue
        out[r.pk] = [
            {"player": name, "card": card, "byes": byes, "last": last}
            for name, card, byes, last in plan.listed(state)
        ]
    return out


def _commitment(r, holders: dict[int, list[dict]], key: str = "holders") -> dict:
    """A digital round's ``nonce``, ``commitment`` (empty for a draw made before
    commitments were kept) and its inputs under ``key`` (``holders`` of a card round,
    ``entries`` of a Leben or points round)."""
    if r.seed is None or r.pk not in holders:
        return {}
    return {"nonce": r.nonce, "commitment": r.commitment, key: holders[r.pk]}


def _ties(state) -> dict:
    """``ranking_ties`` and the live orders of shared ranges (RULES.md 5.8), each with
    its kind and, for lots, the seed ``verify`` replays."""
    cards = {pk: c.number for pk, c in state.cards.items()}
    return {
        "ranking_ties": state.tournament.ranking_ties,
        "ties": [
            {
                "first": tb.first,
                "last": tb.first + len(tb.order) - 1,
                "kind": tb.kind,
                "seed": tb.seed,
                "order": [cards[c] for c in tb.order],
            }
            for tb in state.tie_breaks
        ],
    }


def _ranking_extras(state, ref) -> dict:
    t = state.tournament
    cards = {pk: c.number for pk, c in state.cards.items()}
    names = {c.player_id: c.player.name for c in state.cards.values()}
    best = {r.player: r.card for r in reversed(state.ranking())}
    lists = category_lists(state)
    return {
        "category_with_overall": t.category_with_overall,
        "player_ranking": [
            {"place": first, "to": last, "player": names[player], "card": cards[best[player]]}
            for player, (first, last) in state.player_places().items()
        ],
        **_ties(state),
        "category_prizes": [
            {"category": lst.category.name, **_prize(line, ref)}
            for lst in lists
            for line in lst.lines
        ],
        "consolation_of": (
            {"name": t.parent.name, "rounds": t.consolation_rounds} if t.parent_id else None
        ),
        "consolations": [
            {"name": c.name, "rounds": c.consolation_rounds} for c in t.consolations.all()
        ],
    }
