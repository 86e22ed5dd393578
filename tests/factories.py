"""Hand-written factories for tests: a club with the presets, people, tables."""

import itertools
import re
import uuid

from django.contrib.auth import get_user_model

from clubs.models import Club, Membership, Player
from scoring import reading, services
from scoring.models import RuleSet
from scoring.rules import DreierDeal, TieBreak
from scoring.rules import RuleSet as CoreRuleSet
from scoring.rules.presets import preset_data

_counter = itertools.count(1)


def presets() -> dict[str, RuleSet]:
    out = {}
    for name, data in preset_data().items():
        out[name], _ = RuleSet.objects.get_or_create(
            club=None,
            preset=name,
            defaults={"name": data["label"], "data": CoreRuleSet.from_dict(data).to_dict()},
        )
    return out


def club(name: str = "Testklub") -> Club:
    n = next(_counter)
    return Club.objects.create(name=f"{name} {n}", slug=f"club-{n}")


def user(club_: Club | None = None, role: str = "organiser", username: str | None = None):
    username = username or f"user{next(_counter)}"
    person = get_user_model().objects.create_user(username, password="pw-" + username)
    if club_ is not None:
        Membership.objects.create(user=person, club=club_, role=role)
    return person


def players(club_: Club, *names: str) -> list[Player]:
    return [Player.objects.create(club=club_, name=name) for name in names]


def sheet(club_: Club, names=("Anna", "Ben", "Clara"), preset: str = "wiki", variant=None):
    variant = variant or {2: "schnapsen", 3: "dreierschnapsen", 4: "bauernschnapsen"}[len(names)]
    people = players(club_, *names)
    return services.open_sheet(club_, variant, people, presets()[preset])


def tournament(club_: Club, cards: int = 8, sold: int = 0, **fields):
    """A Preisschnapsen of ``club_`` starting now: ``cards`` laid out, at most 3 per player,
    matches to 2 Bummerl, a fee of 10, no prizes (``fields`` change any of these), with
    ``sold`` cards sold and paid, one each to P0, P1, …"""
    from django.utils import timezone

    from tournaments.services.cards import create_tournament, sell_cards

    settings = {
        "name": "Test",
        "starts_at": timezone.now(),
        "cards": cards,
        "max_cards": 3,
        "match_bummerl": 2,
        "entry_fee": 10,
        "one_prize_per_player": False,
        "prizes": [],
    } | fields
    t = create_tournament(club_, services.Actor(), **settings)
    for i in range(sold):
        sell_cards(t, f"P{i}", 1, services.Actor(), uuid.uuid4(), paid=True)
    return t


def key() -> str:
    return str(uuid.uuid4())


# -- a sheet with deals, for the bench and the profile ---------------------------------


def next_entry(sheet):
    """The next entry of a bench sheet: the normal game by the Rufer (1, 2, 3 points in
    turn), or the tie-break won by the first tied player when one is due."""
    state = reading.read_sheet(sheet).state
    if state.awaiting_tiebreak:
        return TieBreak(state.awaiting_tiebreak[0])
    return DreierDeal("normal", state.rufer, True, 0, 1 + len(state.lines) % 3)


def fill(sheet, count: int) -> None:
    """Record ``next_entry`` deals until the sheet has ``count`` deal rows."""
    while len(reading.read_sheet(sheet).deals) < count:
        services.record_entry(sheet, next_entry(sheet), uuid.uuid4(), services.Actor())


def deal_form(sheet) -> dict:
    """The entry form's fields for ``next_entry``, with a new one-time key."""
    entry = next_entry(sheet)
    if isinstance(entry, TieBreak):
        return {"key": str(uuid.uuid4()), "kind": "tiebreak", "tiebreak_winner": entry.winner}
    return {
        "key": str(uuid.uuid4()),
        "kind": "dreier",
        "declarer": entry.declarer,
        "contract": "normal",
        "normal_points": entry.normal_points,
        "won": "1",
    }


def entry_key(html: str, name: str = "key") -> str:
    """A field of a sheet page's first entry form (its one-time ``key``, or ``after``),
    as the phone sends it."""
    form = html[html.index('<form class="entry') :]
    return re.search(rf'name="{name}" value="([^"]+)"', form).group(1)


# -- decided games, for the ratings ----------------------------------------------------


def partie(club_: Club, people, winner: int = 0, preset: str = "wiki"):
    """A two-player table of ``people`` (two players of ``club_``) whose Partie seat
    ``winner`` wins by 3-point deals (each Bummerl a Schneider)."""
    from scoring.rules import QuickDeal

    table = services.open_sheet(club_, "schnapsen", list(people), presets()[preset])
    while reading.read_sheet(table).state.partie_winner is None:
        services.record_entry(table, QuickDeal(winner, 3), uuid.uuid4(), services.Actor())
    return table


def finish_game(sheet) -> None:
    """Record ``next_entry`` deals on a Dreier- or Bauernschnapsen table until one more
    game is finished."""
    games = len(reading.read_sheet(sheet).state.games)
    while len(reading.read_sheet(sheet).state.games) == games:
        services.record_entry(sheet, next_entry(sheet), uuid.uuid4(), services.Actor())


def decide_round(t, seed: int, winner: str = "left"):
    """Draw the next round of tournament ``t`` with ``seed`` and decide each of its
    matches 2:0 for the card on the ``winner`` side; returns the round."""
    from tournaments.models import Kind, Pairing
    from tournaments.services.draws import draw_round
    from tournaments.services.results import record_result

    round_ = draw_round(t, services.Actor(), seed=seed)
    for pairing in Pairing.objects.live().filter(round=round_, kind=Kind.MATCH).order_by("number"):
        card = pairing.left_id if winner == "left" else pairing.right_id
        record_result(pairing, card, "2:0", uuid.uuid4(), services.Actor())
    return round_
