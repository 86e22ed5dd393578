"""A whole Preisschnapsen night played by chance, through the same services as the site:
for ``manage.py tournament simulate``, the demo data and tests."""

import datetime
import random
import uuid

from django.utils import timezone

from clubs import audit
from clubs.models import Club
from tournaments import formats
from tournaments.models import Tournament
from tournaments.services.cards import create_tournament, sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.formats import buy_life, set_team
from tournaments.services.layout import lower_cards
from tournaments.services.reading import load_state, match_scores
from tournaments.services.results import record_result

PRIZES = [
    {"place": 1, "description": "Geschenkkorb"},
    {"place": 2, "description": "Schinken"},
    {"place": 3, "description": "Wein"},
    {"place": 4, "description": "Speck"},
    {"place": 5, "description": "Kaffee"},
    {"place": 6, "description": "Kaffee"},
    {"place": 7, "description": "Schnaps"},
    {"place": 8, "description": "Schnaps"},
]


def simulate(
    club: Club,
    cards: int,
    players: int,
    max_cards: int,
    seed: int,
    name: str = "Simulation",
    names: list[str] | None = None,
    stop_after: int | None = None,
) -> Tournament:
    """Sell cards at random (each player one, then more at random up to ``max_cards``,
    until between half and all cards are sold), draw every round digitally and decide
    every match at random, to the prizes; or stop with round ``stop_after`` drawn and
    three of its matches still open. ``cards`` below 8 (4 or 2) lays out 8 and lowers
    to ``cards`` once sold, as the desk does (RULES.md 5.1)."""
    rng = random.Random(seed)
    actor = audit.SYSTEM
    tournament = create_tournament(
        club,
        actor,
        name=name,
        starts_at=timezone.now().replace(microsecond=0) - datetime.timedelta(hours=3),
        cards=max(cards, 8),
        max_cards=max_cards,
        match_bummerl=2,
        entry_fee=10,
        one_prize_per_player=False,
        prizes=PRIZES,
    )
    names = names or [f"Spieler {i + 1}" for i in range(players)]
    names = names[:players]
    target = min(cards, len(names) * max_cards)
    if target <= cards // 2:
        raise ValueError("too few players for that many cards")
    target = rng.randint(max(cards // 2 + 1, min(len(names), target)), target)
    held = dict.fromkeys(names, 0)
    sold = 0
    for player in names:
        if sold == target:
            break
        sell_cards(tournament, player, 1, actor, uuid.uuid4(), paid=rng.random() < 0.9)
        held[player] += 1
        sold += 1
    while sold < target:
        player = rng.choice([p for p, n in held.items() if n < max_cards])
        sell_cards(tournament, player, 1, actor, uuid.uuid4(), paid=True)
        held[player] += 1
        sold += 1
    if tournament.cards > cards:
        lower_cards(tournament, actor)
        tournament.refresh_from_db()
    rounds = 0
    while load_state(tournament).next_pot_size() is not None:
        draw_round(tournament, actor, seed=rng.getrandbits(32))
        rounds += 1
        if stop_after is not None and rounds >= stop_after:
            play_open_matches(tournament, rng, leave_open=3)  # a night still running
            return tournament
        play_open_matches(tournament, rng, leave_open=0)
    play_open_matches(tournament, rng, leave_open=0)
    return tournament


def simulate_format(
    club: Club,
    format: str,
    players: int,
    seed: int,
    *,
    lives: int = 2,
    rebuy_until: int | None = None,
    rounds: int = 5,
    avoid_repeat: bool = True,
    team_size: int | None = None,
    name: str = "Simulation",
    stop_after: int | None = None,
) -> Tournament:
    """A Leben (RULES.md 5.10) or points event (RULES.md 6) by chance, through the same
    services as the desk: one entry per player, teams of ``team_size`` in entry order
    (points), a life bought at random by some players with fewer than ``lives`` left
    before round ``rebuy_until`` (Leben, at the entry fee); every round drawn digitally and every match decided at random, to the end;
    or stop with round ``stop_after`` drawn and three of its matches still open."""
    rng = random.Random(seed)
    actor = audit.SYSTEM
    team_size = team_size if format == "points" else None
    tournament = create_tournament(
        club,
        actor,
        name=name,
        starts_at=timezone.now().replace(microsecond=0) - datetime.timedelta(hours=3),
        cards=players,
        max_cards=1,
        match_bummerl=2,
        entry_fee=10,
        one_prize_per_player=False,
        prizes=PRIZES,
        format=format,
        lives=lives,
        rebuy_until=rebuy_until,
        rounds_planned=rounds if format == "points" else None,
        avoid_repeat=avoid_repeat,
        team_size=team_size,
    )
    for i in range(players):
        (card,) = sell_cards(
            tournament, f"Spieler {i + 1}", 1, actor, uuid.uuid4(), paid=rng.random() < 0.9
        )
        if team_size:
            set_team(tournament, card.pk, f"Team {i // team_size + 1}", actor)
    drawn = 0
    while stop_after != 0:  # 0: the players entered, nothing drawn
        state = load_state(tournament)
        board = formats.board(state)
        if board.next_round is None:
            return tournament
        if format == "leben" and rebuy_until and board.next_round <= rebuy_until:
            for line in board.lines:
                if (
                    line.out_round in (None, board.next_round - 1)
                    and rng.random() < 0.1
                    and line.lives_left < lives  # never above the lives (RULES.md 5.10)
                ):
                    buy_life(tournament, line.card.pk, actor, line.card.rebuys)
        draw_round(tournament, actor, seed=rng.getrandbits(32))
        drawn += 1
        if stop_after is not None and drawn >= stop_after:
            play_open_matches(tournament, rng, leave_open=3)
            return tournament
        play_open_matches(tournament, rng, leave_open=0)
    return tournament


def play_open_matches(tournament: Tournament, rng: random.Random, leave_open: int = 0) -> None:
    """Decide open matches (main and placement, as they become due) at random."""
    actor = audit.SYSTEM
    scores = match_scores(tournament)
    while True:
        state = load_state(tournament)
        pairings = list(state.placement)
        if state.current is not None:
            pairings += state.pairings[state.current.pk]
        open_ = [p for p in pairings if not state.matches[p.pk].decided]
        if len(open_) <= leave_open:
            return
        # Every open match now; placement matches that become due come in the next pass.
        for pairing in open_[: len(open_) - leave_open]:
            pairing.tournament = tournament
            winner = rng.choice([pairing.left_id, pairing.right_id])
            record_result(pairing, winner, rng.choice(scores), uuid.uuid4(), actor)
        if leave_open:
            return
