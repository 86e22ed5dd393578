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


# -- cups (issue 30) -------------------------------------------------------------------


def played_night(club_: Club, order: list[str], *, starts_at=None, name: str = "Cupabend"):
    """A Preisschnapsen night of ``club_`` played to the end with one card per name of
    ``order``: in every match the player named earlier in ``order`` wins (2:0), so the
    first name wins the night. ``starts_at`` defaults to three hours ago."""
    import datetime as dt

    from django.utils import timezone

    from tournaments.services.cards import create_tournament, lower_cards, sell_cards
    from tournaments.services.draws import draw_round
    from tournaments.services.reading import load_state
    from tournaments.services.results import record_result

    actor = services.Actor()
    t = create_tournament(
        club_,
        actor,
        name=name,
        starts_at=starts_at or timezone.now() - dt.timedelta(hours=3),
        cards=8,
        max_cards=1,
        match_bummerl=2,
        entry_fee=10,
        one_prize_per_player=False,
        prizes=[],
    )
    strength = {}
    for index, person in enumerate(order):
        (card,) = sell_cards(t, person, 1, actor, uuid.uuid4(), paid=True)
        strength[card.pk] = index
    if len(order) <= 4:
        lower_cards(t, actor)
        t.refresh_from_db()
    seed = 1
    while True:
        state = load_state(t)
        pairings = list(state.placement)
        if state.current is not None:
            pairings += state.pairings[state.current.pk]
        open_ = [p for p in pairings if not state.matches[p.pk].decided and p.right_id]
        if open_:
            for pairing in open_:
                pairing.tournament = t
                winner = min((pairing.left_id, pairing.right_id), key=strength.__getitem__)
                record_result(pairing, winner, "2:0", uuid.uuid4(), actor)
            continue
        if state.next_pot_size() is None:
            return t
        draw_round(t, actor, seed=seed)
        seed += 1


def body(admin=None, name: str = "Landesverband", clubs=()):
    """An organising body with ``admin`` (a new account when None) and ``clubs`` joined."""
    from clubs import audit
    from cups import services as cup_services

    admin = admin or user()
    n = next(_counter)
    made = cup_services.create_body(
        f"{name} {n}", f"body-{n}", actor=audit.by(admin), key=uuid.uuid4()
    )
    for member in clubs:
        cup_services.join(made, member, made.join_token, actor=audit.by(admin))
    return made


def cup(body_, name: str = "Bezirkscup", **settings):
    """A cup of ``body_`` from a year ago to a year ahead, the default points key unless ``points_key``
    (text) is given; ``settings`` as ``cups.services.CupSettings``."""
    import datetime as dt

    from clubs import audit
    from cups import services as cup_services
    from seasons import ranking

    today = dt.date.today()
    key = ranking.parse_key(settings.pop("points_key", "1: 25\n2: 20\n3: 16\n4: 13\n5-8: 10"))
    values = {
        "name": name,
        "slug": "",
        "first_day": today - dt.timedelta(days=365),
        "last_day": today + dt.timedelta(days=365),
        "points_key": key,
        "participation": 1,
    } | settings
    return cup_services.save_cup(
        body_, cup_services.CupSettings(**values), actor=audit.SYSTEM, key=uuid.uuid4()
    )
