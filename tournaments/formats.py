"""The formats beside the card knock-out: *Leben* (RULES.md 5.10) and the points event
with *dänische Wertung* (RULES.md 6), read from a loaded ``TournamentState``.

A player holds one card (his entry); rounds, pairings (kind ``match`` or ``bye``) and
results are the same rows as a card night's, so drawing, recording, correcting and
undoing go through the same services. This module turns them into the values of the
pure cores (``tournaments.leben``, ``tournaments.danish``) and back into typed rows for
the desk, the standings board, the printouts and the export. Nothing here writes; no
query beyond ``load_state``'s, except one for the game points of the matches played on
a score sheet (``sheet_game_points``).
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.models import Deal
from tournaments import danish, leben
from tournaments.models import Card, Format, Kind
from tournaments.verify import pair_format

LEBEN_MAX_ENTRIES = 1024
MAX_ROUNDS = 30


def _score(score: str) -> tuple[int, int]:
    """The Bummerl of "2:1": (winner's, loser's)."""
    won, lost = score.split(":")
    return int(won), int(lost)


def leben_rounds(state) -> list[leben.Played]:
    """The drawn rounds as ``leben.Played`` (entries are card ids)."""
    played = []
    for r in state.rounds:
        matches, bye = [], None
        for p in state.pairings[r.pk]:
            if p.kind == Kind.BYE:
                bye = p.left_id
            elif p.kind == Kind.MATCH:
                match = state.matches[p.pk]
                if match.walkover and match.advancing is None:
                    continue  # both withdrawn: both go out by their withdrawal
                winner = match.advancing if match.walkover else match.winner
                matches.append((p.left_id, p.right_id, winner))
        played.append(leben.Played(r.number, tuple(matches), bye))
    return played


def withdrawn(state) -> dict[int, int]:
    """Card id -> the round its player was withdrawn in (RULES.md 5.7; 0: before round
    1, then he never plays), counting only the rounds ``state`` holds (the export reads
    the state of an earlier draw through ``upto``)."""
    return {pk: r for pk, r in state.withdrawn.items() if r <= len(state.rounds)}


def entered(state) -> list[int]:
    """The entries that play (card ids): all but those withdrawn before round 1."""
    return [pk for pk in state.cards if state.cards[pk].withdrawn_round != 0]


def leben_standing(state) -> leben.Standing:
    t = state.tournament
    lives = {pk: t.lives + state.cards[pk].rebuys for pk in entered(state)}
    out = {pk: r for pk, r in withdrawn(state).items() if r}
    return leben.standing(lives, leben_rounds(state), out)


def sheet_game_points(state) -> dict[int, tuple[int, int]]:
    """Pairing id -> (left, right) game points (Spielpunkte) of the matches played on a
    score sheet whose outcome is the result that stands (one query; none when no match
    has a sheet). A result entered at the desk has no game points."""
    agreed = {}
    for r in state.rounds:
        for p in state.pairings[r.pk]:
            result = state.results.get(p.pk)
            if (
                p.sheet_id
                and result
                and (p.sheet_winner_id, p.sheet_score)
                == (
                    result.winner_id,
                    result.score,
                )
            ):
                agreed[p.sheet_id] = p.pk
    totals: dict[int, list[int]] = {}
    if agreed:
        deals = Deal.objects.live().filter(sheet_id__in=agreed).values_list("sheet_id", "points")
        for sheet_id, points in deals:
            # The seats of a match sheet are the left card's player, then the right's.
            total = totals.setdefault(agreed[sheet_id], [0, 0])
            total[0] += points[0]
            total[1] += points[1]
    return {pk: (left, right) for pk, (left, right) in totals.items()}


def danish_rounds(state) -> list[danish.Played]:
    """The drawn rounds as ``danish.Played``: a decided match is a ``Game`` with the
    Bummerl of its score and the game points of its score sheet (0 without one)."""
    game_points = sheet_game_points(state)
    played = []
    for r in state.rounds:
        games, open_, bye, walkovers = [], [], None, []
        for p in state.pairings[r.pk]:
            if p.kind == Kind.BYE:
                bye = p.left_id
                continue
            result = state.results.get(p.pk)
            match = state.matches[p.pk]
            if match.walkover:  # the opponent withdrew (RULES.md 5.7)
                walkovers += [match.advancing] if match.advancing is not None else []
                continue
            if result is None:
                open_.append((p.left_id, p.right_id))
                continue
            won, lost = _score(result.score)
            left_won = result.winner_id == p.left_id
            games.append(
                danish.Game(
                    p.left_id,
                    p.right_id,
                    won if left_won else lost,
                    lost if left_won else won,
                    *game_points.get(p.pk, (0, 0)),
                )
            )
        played.append(danish.Played(r.number, tuple(games), tuple(open_), bye, tuple(walkovers)))
    return played


def tie_order(state) -> list[int]:
    """The entries (card ids) in card-number order: the order within a tie."""
    return [pk for pk, _c in sorted(state.cards.items(), key=lambda item: item[1].number)]


def bye_bummerl(t) -> int:
    """The Bummerl a bye scores in a points event (RULES.md 6): the setting, else
    ``danish.bye_default``."""
    if t.bye_bummerl is not None:
        return t.bye_bummerl
    return danish.bye_default(t.match_bummerl, t.match_games)


def danish_standing(state) -> list[danish.Line]:
    playing = set(entered(state))  # a player withdrawn later keeps his line
    entries = [pk for pk in tie_order(state) if pk in playing]
    return danish.standing(entries, danish_rounds(state), bye_bummerl(state.tournament))


@dataclass(frozen=True)
class BoardLine:
    """One line of the standings board (and its printout and export): ``place`` and
    ``place_to`` (a shared range; None while a Leben player is still in), the ``card``
    and its player; Leben: ``lives_left`` of ``lives``, ``wins``, ``lost``, ``byes``,
    ``out_round``; points: ``points``, ``bummerl_diff``, ``game_diff``, ``played``,
    ``byes``; ``team`` (or "")."""

    place: int | None
    place_to: int | None
    card: Card
    lives_left: int = 0
    lives: int = 0
    wins: int = 0
    lost: int = 0
    byes: int = 0
    out_round: int | None = None
    points: int = 0
    bummerl_diff: int = 0
    game_diff: int = 0
    played: int = 0

    @property
    def shared(self) -> bool:
        return self.place is not None and self.place_to != self.place


@dataclass(frozen=True)
class Board:
    """The state of a Leben or points event as the pages show it: ``lines`` in order,
    ``teams`` (``danish.TeamLine`` with the member cards, points events only),
    ``next_round`` (the number of the round to draw now, or None), ``next_count`` (the
    entries it will draw), ``open_matches`` of the latest round, ``finished``, the
    ``refusal`` (why no round can be drawn, a RuleError-style text key), ``places``
    (place -> card id, for the prizes) and ``ties``: (first, last, card id) of the
    settled places still shared before any Stechen or lots (RULES.md 5.8), in
    card-number order within a range; the ``lines`` show a range ordered by a live
    Stechen or lots with a place each."""

    lines: list[BoardLine]
    teams: list
    next_round: int | None
    next_count: int
    open_matches: int
    finished: bool
    shared: list[tuple[int, int, int]]
    places: dict[int, int]
    ties: Sequence[tuple[int, int, int]] = ()


def board(state) -> Board:
    """The standings board of a Leben or points tournament (``state`` from
    ``load_state``: no further query)."""
    t = state.tournament
    open_matches = state.round_states[-1].open_matches if state.round_states else 0
    number = len(state.rounds) + 1
    if t.format == Format.LEBEN:
        result = leben_standing(state)
        lines = [
            BoardLine(
                line.place,
                line.place_to,
                state.cards[line.entry],
                lives_left=line.left,
                lives=line.lives,
                wins=line.wins,
                lost=line.lost,
                byes=line.byes,
                out_round=line.out_round,
            )
            for line in result.board()
        ]
        alive = leben.next_round_alive(result, leben_rounds(state))
        lines, ties = _order_ties(lines, state, settled=True)
        board_ = _board(
            lines, [], number if alive else None, len(alive or ()), open_matches, result.finished
        )
        return replace(board_, ties=ties)
    table = danish_standing(state)
    finished = len(state.rounds) >= (t.rounds_planned or 0) and not open_matches
    sharing = Counter(line.rank for line in table)
    lines = [
        BoardLine(
            line.rank if finished or state.rounds else None,
            line.rank + sharing[line.rank] - 1 if finished or state.rounds else None,
            state.cards[line.entry],
            points=line.points,
            bummerl_diff=line.bummerl_diff,
            game_diff=line.game_diff,
            played=line.played,
            byes=line.byes,
        )
        for line in table
    ]
    teams = danish.team_standing(table, {pk: c.team for pk, c in state.cards.items() if c.team})
    out = withdrawn(state)
    drawn = [line for line in table if line.entry not in out]
    due = not finished and not open_matches and len(drawn) >= 2
    lines, ties = _order_ties(lines, state, settled=finished)
    board_ = _board(lines, teams, number if due else None, len(drawn), open_matches, finished)
    return replace(board_, ties=ties)


def _order_ties(lines: list[BoardLine], state, *, settled: bool):
    """The board's lines with the live Stechen or lots of ``state`` applied (RULES.md
    5.8 ``ranking_ties``), and the settled ranges still shared before them. A Leben
    player's place is settled once he is out (``settled`` True); a points event's once
    it is over. An order that does not hold exactly a range's cards is left out."""
    if not settled:
        return lines, []
    ranges: dict[int, list[BoardLine]] = {}
    for line in lines:
        if line.place is not None and line.place_to != line.place:
            ranges.setdefault(line.place, []).append(line)
    ties = [
        (first, line.place_to, line.card.pk)
        for first, members in sorted(ranges.items())
        for line in sorted(members, key=lambda x: x.card.number)
    ]
    orders = {tb.first: tb.order for tb in state.tie_breaks} if ranges else {}
    out = list(lines)
    for first, members in ranges.items():
        order = list(orders.get(first, ()))
        by_card = {line.card.pk: line for line in members}
        if sorted(order) != sorted(by_card) or len(set(order)) != len(order):
            continue
        at = out.index(members[0])
        ordered = [
            replace(by_card[c], place=first + i, place_to=first + i) for i, c in enumerate(order)
        ]
        out[at : at + len(members)] = ordered
    return out, ties


def settled(state) -> tuple[dict[int, int], list[tuple[int, int, int]]]:
    """``(places, shared)`` of a Leben or points event as ``ranking.card_ranking`` takes
    them (RULES.md 5.8): the settled places of one card each, and the ranges still
    shared before any Stechen or lots (``Board.ties``)."""
    result = board(state)
    in_ranges = {card for _first, _last, card in result.ties}
    finished_or_leben = result.finished or state.tournament.format == Format.LEBEN
    places = {
        line.place: line.card.pk
        for line in result.lines
        if finished_or_leben
        and line.place is not None
        and line.place == line.place_to
        and line.card.pk not in in_ranges
    }
    return places, list(result.ties)


def _board(lines, teams, next_round, next_count, open_matches, finished) -> Board:
    places = {}
    shared = []
    if finished:
        for line in lines:
            if line.place is None:
                continue
            if line.place == line.place_to:
                places[line.place] = line.card.pk
            else:
                shared.append((line.place, line.card.pk, line.card.player_id))
    return Board(lines, teams, next_round, next_count, open_matches, finished, shared, places)


@dataclass(frozen=True)
class DrawPlan:
    """The inputs of the next draw of a Leben or points event (RULES.md 5.10, 6), which
    its commitment covers (5.12): ``format``, round ``number``, ``entries`` (card ids in
    the order the pairing core takes them: Leben and points round 1 by id, later points
    rounds by the standing; withdrawn players left out, 5.7), ``byes`` (entry -> byes so
    far), ``last`` (points: entry -> the entry he met in the round before, both drawn now)
    and ``avoid_repeat``."""

    format: str
    number: int
    entries: tuple[int, ...]
    byes: dict[int, int]
    last: dict[int, int]
    avoid_repeat: bool

    def pair(self, seed: int) -> tuple[list[tuple[int, int]], int | None]:
        """(pairs, bye) drawn with ``seed`` (``verify.pair_format``)."""
        return pair_format(
            self.format, self.number, self.entries, self.byes, self.last, self.avoid_repeat, seed
        )

    def listed(self, state) -> list[tuple[str, int, int, int | None]]:
        """The entries as the commitment and the export name them: (player, card number,
        byes, card number of the last opponent or None)."""
        cards = state.cards
        return [
            (
                cards[e].player.name,
                cards[e].number,
                self.byes.get(e, 0),
                cards[self.last[e]].number if e in self.last else None,
            )
            for e in self.entries
        ]


def draw_plan(state) -> DrawPlan | None:
    """The inputs of the round to draw now (``DrawPlan``), None while none is due."""
    t = state.tournament
    result = board(state)
    if result.next_round is None:
        return None
    out = withdrawn(state)
    if t.format == Format.LEBEN:
        entries = sorted(line.card.pk for line in result.lines if line.place is None)
    else:
        entries = [line.card.pk for line in result.lines if line.card.pk not in out]
        entries = sorted(entries) if result.next_round == 1 else entries
    drawn = set(entries)
    byes = {line.card.pk: line.byes for line in result.lines if line.byes}
    last = {}
    if t.format == Format.POINTS and state.rounds:
        for p in state.pairings[state.rounds[-1].pk]:
            if p.kind == Kind.MATCH and {p.left_id, p.right_id} <= drawn:
                last[p.left_id], last[p.right_id] = p.right_id, p.left_id
    return DrawPlan(
        t.format,
        result.next_round,
        tuple(entries),
        {e: n for e, n in byes.items() if e in drawn},
        last,
        bool(t.avoid_repeat) and t.format == Format.POINTS,
    )


def upto(state, rounds: int):
    """``state`` as it stood before round ``rounds + 1`` was drawn (its first ``rounds``
    rounds; withdrawals of later rounds not yet made): for the export's draw inputs."""
    return replace(state, rounds=state.rounds[:rounds], round_states=state.round_states[:rounds])


def withdrawable(state, result: Board) -> set[int]:
    """The card ids whose player the organiser may withdraw now (RULES.md 5.7): before
    round 1 every entry; then, while the event runs, Leben players still in and every
    points player not withdrawn yet."""
    out = state.withdrawn
    if result.finished:
        return set()
    if not state.rounds:
        return {pk for pk in state.cards if pk not in out}
    return {
        line.card.pk
        for line in result.lines
        if line.card.pk not in out
        and (state.tournament.format == Format.POINTS or line.place is None)
    }


def export_part(state, ref) -> dict:
    """The export's part of a Leben or points event (README, "The tournament as JSON"):
    ``format`` and its settings, ``standings`` (the board), ``teams`` (points), and
    ``ranking`` and ``prizes`` by the standings instead of a bracket. ``ref(card_id)``
    gives ``{"card", "player"}``."""
    t = state.tournament
    result = board(state)
    if t.format == Format.LEBEN:
        settings = {
            "lives": t.lives,
            "rebuy_until": t.rebuy_until,
            "life_fee": f"{t.life_price:.2f}",  # the entry fee when none was set (5.10)
        }
        standings = [
            {
                "place": line.place,
                "to": line.place_to,
                **ref(line.card.pk),
                "lives": line.lives,
                "lives_left": line.lives_left,
                "lives_bought": line.card.rebuys,
                "wins": line.wins,
                "lost": line.lost,
                "byes": line.byes,
                "out_round": line.out_round,
            }
            for line in result.lines
        ]
    else:
        settings = {
            "rounds_planned": t.rounds_planned,
            "avoid_repeat": t.avoid_repeat,
            "team_size": t.team_size,
            "match_bummerl": t.match_bummerl,
            "match_games": t.match_games,
            "schneider_counts": t.schneider_counts,
            "bye_bummerl": bye_bummerl(t),
        }
        standings = [
            {
                "place": line.place,
                "to": line.place_to,
                **ref(line.card.pk),
                "points": line.points,
                "bummerl_diff": line.bummerl_diff,
                "game_diff": line.game_diff,
                "played": line.played,
                "byes": line.byes,
                **({"team": line.card.team} if line.card.team else {}),
            }
            for line in result.lines
        ]
    return {
        "format": t.format,
        **settings,
        "finished": result.finished,
        "standings": standings,
        **(
            {
                "teams": [
                    {
                        "place": team.rank,
                        "team": team.name,
                        "points": team.points,
                        "bummerl_diff": team.bummerl_diff,
                        "game_diff": team.game_diff,
                        "players": [ref(pk)["player"] for pk in team.members],
                    }
                    for team in result.teams
                ]
            }
            if t.format == Format.POINTS
            else {}
        ),
        "ranking": [
            {"place": line.place, "to": line.place_to, **ref(line.card.pk)}
            for line in result.lines
            if result.finished and line.place is not None
        ],
    }
