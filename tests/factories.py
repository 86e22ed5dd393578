"""The tests' one place to build things: clubs, people, tables, nights and what happens
on them. Plain functions, no factory library; each says what it builds. The object a
thing is built on (a club, a sheet, a night) comes first, every option is a keyword.

The site's services do the building wherever one exists, so that what a test gets is
what the site would have made."""

import datetime
import itertools
import re
import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from clubs.models import Club, Membership, Player
from scoring import reading, services, upkeep
from scoring.models import RuleSet, Sheet
from scoring.rules import DreierDeal, QuickDeal, TieBreak
from scoring.rules import RuleSet as CoreRuleSet
from scoring.rules.presets import preset_data
from seasons.days import CLUB_ZONE

_counter = itertools.count(1)
_address = itertools.count(1)


def key() -> str:
    """A new one-time key, as a form carries it."""
    return str(uuid.uuid4())


# -- clubs and people -------------------------------------------------------------------


def presets() -> dict[str, RuleSet]:
    """The preset rule sets by name (``wiki``, ``bauern``, …), made once per database."""
    out = {}
    for name, data in preset_data().items():
        out[name], _ = RuleSet.objects.get_or_create(
            club=None,
            preset=name,
            defaults={"name": data["label"], "data": CoreRuleSet.from_dict(data).to_dict()},
        )
    return out


def club(*, name: str = "Testklub") -> Club:
    """A new club named ``name`` and a number of its own (slug ``club-<n>``)."""
    n = next(_counter)
    return Club.objects.create(name=f"{name} {n}", slug=f"club-{n}")


def user(club: Club | None = None, *, role: str = "organiser", username: str | None = None):
    """A new account (``username``, else ``user<n>``; password ``pw-<username>``), a
    member of ``club`` in ``role`` when a club is given."""
    username = username or f"user{next(_counter)}"
    person = get_user_model().objects.create_user(username, password="pw-" + username)
    if club is not None:
        Membership.objects.create(user=person, club=club, role=role)
    return person


def signed_in(user, *, client: Client | None = None, language: str | None = None) -> Client:
    """``client`` (else a new test client) with ``user`` signed in, the site's language
    cookie set to ``language`` when one is given."""
    client = client or Client()
    client.force_login(user)
    if language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def signed_in_club(client: Client, *, role: str = "organiser") -> Club:
    """A new club with a new member in ``role``, signed in on ``client``."""
    new = club()
    client.force_login(user(new, role=role))
    return new


def phone() -> Client:
    """A visitor's phone: a test client with an address of its own, so that a form's
    limit per address counts each test's posts apart."""
    n = next(_address)
    return Client(REMOTE_ADDR=f"198.51.{n // 250}.{n % 250 + 1}")


def players(club: Club, *names: str) -> list[Player]:
    """New players of ``club``, one per name, in that order."""
    return [Player.objects.create(club=club, name=name) for name in names]


# -- tables -----------------------------------------------------------------------------


def sheet(club: Club, *, names=("Anna", "Ben", "Clara"), preset: str = "wiki", variant=None):
    """An open table of new players ``names`` in that seat order, under the preset rule
    set ``preset``; the variant by the number of players unless given."""
    variant = variant or {2: "schnapsen", 3: "dreierschnapsen", 4: "bauernschnapsen"}[len(names)]
    people = players(club, *names)
    return upkeep.open_sheet(club, variant, people, presets()[preset])


def bummerl(sheet, *, loser: int, schneider: bool = False) -> None:
    """One Bummerl of two-player Schnapsen to seat ``loser``: a Schneider when he wins
    no point (counts 2 in the ``wiki`` rules), else he wins 1 point first."""
    winner = 1 - loser
    deals = [] if schneider else [QuickDeal(loser, 1)]
    deals += [QuickDeal(winner, 3), QuickDeal(winner, 3), QuickDeal(winner, 1)]
    for deal in deals:
        services.record_entry(sheet, deal, uuid.uuid4(), services.Actor())


def two_player_sheet(club, first, second, *, when: datetime.datetime, losers=(), schneider=()):
    """A Schnapsen sheet of the players ``first`` and ``second`` opened at ``when``
    (Vienna time unless aware): one Bummerl per seat in ``losers``, Schneider where the
    same position of ``schneider`` is true."""
    sheet = upkeep.open_sheet(club, "schnapsen", [first, second], presets()["wiki"])
    for i, loser in enumerate(losers):
        bummerl(sheet, loser=loser, schneider=i < len(schneider) and schneider[i])
    if when.tzinfo is None:
        when = when.replace(tzinfo=CLUB_ZONE)
    Sheet.objects.filter(pk=sheet.pk).update(created_at=when)
    return sheet


# -- a sheet with deals, for the bench and the profile ---------------------------------


def next_entry(sheet):
    """The next entry of a bench sheet: the normal game by the Rufer (1, 2, 3 points in
    turn), or the tie-break won by the first tied player when one is due."""
    state = reading.read_sheet(sheet).state
    if state.awaiting_tiebreak:
        return TieBreak(state.awaiting_tiebreak[0])
    return DreierDeal("normal", state.rufer, True, 0, 1 + len(state.lines) % 3)


def fill(sheet, *, count: int) -> None:
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


def entry_key(html: str, *, name: str = "key") -> str:
    """A field of a sheet page's first entry form (its one-time ``key``, or ``after``),
    as the phone sends it."""
    form = html[html.index('<form class="entry') :]
    return re.search(rf'name="{name}" value="([^"]+)"', form).group(1)


# -- nights -----------------------------------------------------------------------------


def tournament(club: Club, *, cards: int = 8, sold: int = 0, prizes=(), prize_text="P{}", **fields):
    """A Preisschnapsen of ``club`` starting now: ``cards`` laid out, at most 3 per player,
    matches to 2 Bummerl, a fee of 10 (``fields`` change any of these), with ``sold``
    cards sold and paid, one each to P0, P1, … ``prizes`` is a list of prizes, or a
    number of them: places 1, 2, … described by ``prize_text`` ("P1", "P2", …)."""
    from tournaments.services.cards import create_tournament

    if isinstance(prizes, int):
        prizes = [{"place": i, "description": prize_text.format(i)} for i in range(1, prizes + 1)]
    settings = {
        "name": "Test",
        "starts_at": timezone.now(),
        "cards": cards,
        "max_cards": 3,
        "match_bummerl": 2,
        "entry_fee": 10,
        "one_prize_per_player": False,
        "prizes": list(prizes),
    } | fields
    t = create_tournament(club, services.Actor(), **settings)
    for i in range(sold):
        sell(t, f"P{i}")
    return t


def night(club: Club, *, cards: int = 8, sold: int | None = None, max_cards: int = 1, **fields):
    """A ``tournament`` of one card per player (``max_cards``), all ``cards`` sold unless
    ``sold`` says how many."""
    sold = cards if sold is None else sold
    return tournament(club, cards=cards, sold=sold, max_cards=max_cards, **fields)


def points_night(club: Club, *, players: int = 4, rounds: int = 3, **fields):
    """A ``night`` on points (the format ``points``) of ``players`` cards, all sold, over
    ``rounds`` rounds."""
    return night(club, cards=players, format="points", rounds_planned=rounds, **fields)


def leben_night(club: Club, *, players: int = 5, lives: int = 1, **fields):
    """A ``night`` with lives (the format ``leben``) of ``players`` cards, all sold, each
    with ``lives`` lives."""
    return night(club, cards=players, format="leben", lives=lives, **fields)


def announced_night(*, cards: int = 8, max_cards: int = 3, **fields):
    """An announced night of a new club in two days, two prizes: its public registration
    open from an hour ago for a day."""
    from tournaments.services import signup
    from tournaments.services.sheets import Actor

    now = timezone.now()
    t = tournament(
        club(),
        cards=cards,
        max_cards=max_cards,
        starts_at=now + datetime.timedelta(days=2),
        prizes=[{"place": 1, "description": "40 %"}, {"place": 2, "description": "Schinken"}],
        **fields,
    )
    signup.set_registration(
        t,
        Actor(),
        opens=now - datetime.timedelta(hours=1),
        closes=now + datetime.timedelta(days=1),
        public=True,
    )
    t.refresh_from_db()
    return t


def announced_registration(club: Club):
    """The club's registration for an announced night (issue 28), made once: Rosa holds
    one card of a night whose registration is open."""
    from tournaments.models import Registration
    from tournaments.services import signup
    from tournaments.services.sheets import Actor

    found = Registration.objects.filter(tournament__club=club).first()
    if found is not None:
        return found
    now = timezone.now()
    t = tournament(club, name="Angekündigt", starts_at=now + datetime.timedelta(2))
    signup.set_registration(
        t, Actor(), opens=now, closes=now + datetime.timedelta(days=1), public=True
    )
    return signup.register(t, name="Rosa", cards=1, contact="rosa@example.org")


def big_round(club: Club):
    """A night whose round 1 has more matches than ``HEAVY_SHEETS``: 100 cards of 128
    sold, 36 matches and 28 byes."""
    from tournaments.services.draws import draw_round

    t = tournament(club, cards=128, sold=100)
    draw_round(t, services.Actor(), seed=3)
    return t


def sell(t, name: str, *, count: int = 1, paid: bool = True):
    """``count`` cards of ``t`` sold to the player ``name`` (paid unless ``paid`` is
    false); what ``sell_cards`` returns."""
    from tournaments.services.cards import sell_cards

    return sell_cards(t, name, count, services.Actor(), uuid.uuid4(), paid=paid)


# -- results ----------------------------------------------------------------------------


def first_match(t):
    """The match numbered lowest of ``t``'s draws, its tournament set to ``t``."""
    from tournaments.models import Pairing

    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    pairing.tournament = t
    return pairing


def win(pairing, *, winner, score: str = "2:0"):
    """The result of ``pairing``: ``winner`` (a card's id) wins ``score``, the night
    read afresh first; what ``record_result`` returns."""
    from tournaments.services.results import record_result

    pairing.tournament.refresh_from_db()
    return record_result(pairing, winner, score, uuid.uuid4(), services.Actor())


def left_wins(t) -> None:
    """Every open match of ``t`` decided, main and placement, as they become due: the
    left card wins 2:0."""
    from tournaments.services.reading import load_state
    from tournaments.services.results import record_result

    while True:
        state = load_state(t)
        pairings = list(state.placement)
        if state.current is not None:
            pairings += state.pairings[state.current.pk]
        open_ = [p for p in pairings if p.kind == "match" and p.pk not in state.results]
        if not open_:
            return
        for pairing in open_:
            pairing.tournament = t
            record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), services.Actor())


def play(t, *, rng, favour=frozenset()) -> None:
    """Every open match of ``t`` decided, main and placement, as they come due: a card
    of ``favour`` wins, else the left card, by a score ``rng`` picks."""
    from tournaments.services.reading import load_state, match_scores
    from tournaments.services.results import record_result

    scores = match_scores(t)
    while True:
        state = load_state(t)
        pairings = [*state.placement, *(state.pairings[state.current.pk] if state.current else [])]
        open_ = [p for p in pairings if not state.matches[p.pk].decided]
        if not open_:
            return
        for p in open_:
            p.tournament = t
            winner = p.right_id if p.right_id in favour else p.left_id
            record_result(p, winner, rng.choice(scores), uuid.uuid4(), services.Actor())


# -- cups (issue 30) -------------------------------------------------------------------


def played_night(club_: Club, order: list[str], *, starts_at=None, name: str = "Cupabend"):
    """A Preisschnapsen night of ``club_`` played to the end with one card per name of
    ``order``: in every match the player named earlier in ``order`` wins (2:0), so the
    first name wins the night. ``starts_at`` defaults to three hours ago."""
    import datetime as dt

    from django.utils import timezone

    from tournaments.services.cards import create_tournament, sell_cards
    from tournaments.services.draws import draw_round
    from tournaments.services.layout import lower_cards
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


def body(admin=None, name: str = "Landesverband", clubs=(), public_lists: bool = True):
    """An organising body with ``admin`` (a new account when None) and ``clubs`` joined,
    each showing its lists to anyone unless ``public_lists`` is false (``lists_public``:
    a cup's public pages name only the players of such clubs)."""
    from clubs import audit
    from cups import services as cup_services

    admin = admin or user()
    n = next(_counter)
    made = cup_services.create_body(
        f"{name} {n}", f"body-{n}", actor=audit.by(admin), key=uuid.uuid4()
    )
    for member in clubs:
        cup_services.join(made, member, made.join_token, actor=audit.by(admin))
        if public_lists:
            lists_public(member)
    return made


def lists_public(club_: Club, public: bool = True) -> None:
    """``club_`` shows its ranking pages and lists to anyone (or, ``public`` false, to
    its members only)."""
    from seasons.models import RankingSettings

    RankingSettings.objects.update_or_create(club=club_, defaults={"public": public})


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


# -- decided games, for the ratings ----------------------------------------------------


def partie(club_: Club, people, *, winner: int = 0, preset: str = "wiki"):
    """A two-player table of ``people`` (two players of ``club_``) whose Partie seat
    ``winner`` wins by 3-point deals (each Bummerl a Schneider)."""
    from scoring.rules import QuickDeal

    table = upkeep.open_sheet(club_, "schnapsen", list(people), presets()[preset])
    while reading.read_sheet(table).state.partie_winner is None:
        services.record_entry(table, QuickDeal(winner, 3), uuid.uuid4(), services.Actor())
    return table


def finish_game(sheet) -> None:
    """Record ``next_entry`` deals on a Dreier- or Bauernschnapsen table until one more
    game is finished."""
    games = len(reading.read_sheet(sheet).state.games)
    while len(reading.read_sheet(sheet).state.games) == games:
        services.record_entry(sheet, next_entry(sheet), uuid.uuid4(), services.Actor())


def decide_round(t, *, seed: int, winner: str = "left"):
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
