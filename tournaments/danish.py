"""Punkteschnapsen with *dänische Wertung* (RULES.md 6): pure Python, no Django.

Words used here:

- *entry*: a player of the event, named by an id (the site uses the id of his card).
- *match*: a *Partie* to ``partie_to`` won Bummerl, or exactly ``games`` Bummerl
  played (then 1:1 is a draw); a Schneider counts ``schneider_counts`` (1 or 2) Bummerl
  (``match_scores``).
- *points*: 1 per Bummerl won in a match; the Bummerl difference is won minus lost; the
  *game points* are the points (Spielpunkte) of the deals, for the third key (0 when
  only Bummerl were entered).
- *bye* (*Freilos*): with an odd count one entry does not play; it scores a won match
  of ``bye_bummerl`` to 0 (the setting's bye score; by default ``bye_default``).
- *standing*: points, then Bummerl difference, then game-points difference, then the
  result between the tied entries (the points they took from each other; only when
  each of them met each other), then a shared rank (RULES.md 5.8 ``shared``), listed
  in the caller's tie order.

Where RULES.md is silent, this module decides:

- Round 1 is a uniform shuffle (randomness only from ``random.Random(seed).random()``,
  as in ``tournaments.draw``); later rounds pair by the standing, 1 v 2, 3 v 4, ...
- The bye goes to the lowest-placed entry with the fewest byes so far ("the last-placed
  player without a bye"; once all had one, the fewest again).
- ``avoid_repeat``: a pair that met in the round before swaps its lower entry with the
  upper entry of the pair below (for the lowest pair: its upper entry with the lower
  entry of the pair above), only when the swap makes no other repeat.
- The direct result of more than two tied entries is their mini-table: the points each
  took in the matches among them.
- A match that a withdrawal made a walkover (RULES.md 5.7) scores for the opponent as a
  bye does (``bye_bummerl`` to 0) without counting as his bye; the withdrawn entry keeps
  what he had and is drawn no more (the site leaves him out of ``pair_round``).
- Teams (2 to 4 entries) are ranked by the sum of their points, then the sums of the
  Bummerl and game-points differences; equal teams share a rank.
"""

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.lots import shuffled

SCHNEIDER_COUNTS = (1, 2)
MAX_GAMES = 5
"""The most Bummerl of a match of a fixed number of Bummerl."""


def match_scores(partie_to: int, games: int | None = None, schneider_counts: int = 1) -> tuple:
    """The scores ("won:lost", the higher first) a match can end with (RULES.md 6): a
    Partie to ``partie_to`` (2 or 3) ends when one has ``partie_to`` Bummerl, with a
    Schneider counting 2 one more; ``games`` (1 to ``MAX_GAMES``): exactly that many
    Bummerl are played, each giving its winner 1 (a Schneider ``schneider_counts``).
    Ordered by the winner's Bummerl, then the loser's. ValueError on other settings."""
    if schneider_counts not in SCHNEIDER_COUNTS:
        raise ValueError("a Schneider counts 1 or 2 Bummerl")
    extra = schneider_counts - 1
    found: set[tuple[int, int]] = set()
    if games is None:
        if partie_to not in (2, 3):
            raise ValueError("a Partie is won with 2 or 3 Bummerl")
        # The loser ends below ``partie_to``; the winner's last Bummerl may be a Schneider.
        for lost in range(partie_to):
            for won in range(partie_to, partie_to + extra + 1):
                found.add((won, lost))
    else:
        if not 1 <= games <= MAX_GAMES:
            raise ValueError("a match has 1 to 5 Bummerl")
        for mine in range(games + 1):  # Bummerl the first player won, each worth 1 or 2
            theirs = games - mine
            for a in range(mine, mine + extra * mine + 1):
                for b in range(theirs, theirs + extra * theirs + 1):
                    found.add((max(a, b), min(a, b)))
    return tuple(f"{w}:{lost}" for w, lost in sorted(found))


def level(score: str) -> bool:
    """Whether a match score ("1:1", "2:1") is level: a draw, with no winner (RULES.md 6;
    only a match of an even number of Bummerl can end so)."""
    won, _sep, lost = score.partition(":")
    return won == lost


def bye_default(partie_to: int, games: int | None = None) -> int:
    """The Bummerl a bye scores unless set: those of a match won 2:0 (a Partie to 2),
    3:0 (to 3, or a match of 3 Bummerl)."""
    return partie_to if games is None else games


@dataclass(frozen=True)
class Game:
    """A decided match: ``left``/``right`` entries with the Bummerl each won and the
    game points each made (0 when unknown)."""

    left: int
    right: int
    left_bummerl: int
    right_bummerl: int
    left_points: int = 0
    right_points: int = 0


@dataclass(frozen=True)
class Played:
    """One round: its decided ``games``, the ``open`` pairs, the ``bye`` entry and the
    entries that won a ``walkovers`` (their opponent withdrawn, RULES.md 5.7)."""

    number: int
    games: tuple[Game, ...] = ()
    open: tuple[tuple[int, int], ...] = ()
    bye: int | None = None
    walkovers: tuple[int, ...] = ()


@dataclass
class Line:
    """One entry of the standing: ``points``, ``bummerl_diff``, ``game_diff``,
    ``played`` (matches), ``byes``, ``rank`` (shared by equal entries)."""

    entry: int
    points: int = 0
    bummerl_diff: int = 0
    game_diff: int = 0
    played: int = 0
    byes: int = 0
    rank: int = 0

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.points, self.bummerl_diff, self.game_diff)


def standing(entries: Sequence[int], rounds: Iterable[Played], bye_bummerl: int) -> list[Line]:
    """The standing after ``rounds``: lines in order, ``rank`` set (1-based, shared).
    ``entries`` is the tie order (e.g. by card number). Linear in the games plus a sort."""
    lines = {e: Line(e) for e in entries}
    between: dict[int, dict[int, int]] = {}  # entry -> opponent -> points taken
    for played in rounds:
        if played.bye is not None and played.bye in lines:
            line = lines[played.bye]
            line.byes += 1
            line.points += bye_bummerl
            line.bummerl_diff += bye_bummerl
        for entry in played.walkovers:
            lines[entry].points += bye_bummerl
            lines[entry].bummerl_diff += bye_bummerl
        for g in played.games:
            for me, other, won, lost, made, conceded in (
                (g.left, g.right, g.left_bummerl, g.right_bummerl, g.left_points, g.right_points),
                (g.right, g.left, g.right_bummerl, g.left_bummerl, g.right_points, g.left_points),
            ):
                line = lines[me]
                line.played += 1
                line.points += won
                line.bummerl_diff += won - lost
                line.game_diff += made - conceded
                taken = between.setdefault(me, {})
                taken[other] = taken.get(other, 0) + won
    tie_order = {e: i for i, e in enumerate(entries)}
    ordered = sorted(lines.values(), key=lambda x: (tuple(-k for k in x.key), tie_order[x.entry]))
    result: list[Line] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j].key == ordered[i].key:
            j += 1
        group = ordered[i:j]
        members = {x.entry for x in group}
        # The points each took from the others of the group: over his own opponents,
        # so a large group costs its matches, not its size squared. Only when each of
        # them met each other (RULES.md 6); else they stay level here.
        direct = {
            x.entry: sum(p for o, p in between.get(x.entry, {}).items() if o in members)
            for x in group
        }
        if not _all_met(group, members, between):
            direct = dict.fromkeys(members, 0)
        group.sort(key=lambda x: (-direct[x.entry], tie_order[x.entry]))
        for k, line in enumerate(group):
            same = k > 0 and direct[line.entry] == direct[group[k - 1].entry]
            line.rank = group[k - 1].rank if same else i + k + 1
        result.extend(group)
        i = j
    return result


def _all_met(group: list[Line], members: set[int], between: dict[int, dict[int, int]]) -> bool:
    """Whether each entry of ``group`` met each other one (a game between them)."""
    need = len(group) - 1
    if any(len(between.get(x.entry, {})) < need for x in group):
        return False  # cheap: a large group never all met (one game per round)
    return all(sum(o in members for o in between.get(x.entry, {})) == need for x in group)


def pair_round(
    order: Sequence[int],
    byes: Mapping[int, int],
    seed: int,
    *,
    first: bool,
    last_opponent: Mapping[int, int] | None = None,
    avoid_repeat: bool = False,
) -> tuple[list[tuple[int, int]], int | None]:
    """One round's pairs and bye. ``order``: the entries by the standing (best first);
    ``first``: round 1 (drawn at random from ``seed``); ``last_opponent``: whom each met
    in the round before (for ``avoid_repeat``). ValueError with fewer than two entries."""
    pot = list(order)
    if len(pot) < 2:
        raise ValueError("a round needs at least two entries")
    rng = random.Random(seed)
    if first:
        pot = shuffled(sorted(pot), rng)
    bye = None
    if len(pot) % 2:
        fewest = min(byes.get(e, 0) for e in pot)
        bye = next(e for e in reversed(pot) if byes.get(e, 0) == fewest)
        pot.remove(bye)
    pairs = [[pot[i], pot[i + 1]] for i in range(0, len(pot), 2)]
    if avoid_repeat and last_opponent and not first:
        _avoid_repeats(pairs, last_opponent)
    return [(a, b) for a, b in pairs], bye


def _avoid_repeats(pairs: list[list[int]], last: Mapping[int, int]) -> None:
    def met(a: int, b: int) -> bool:
        return last.get(a) == b

    for i, (a, b) in enumerate(pairs):
        if not met(a, b):
            continue
        if i + 1 < len(pairs):
            c, d = pairs[i + 1]
            if not met(a, c) and not met(b, d):
                pairs[i], pairs[i + 1] = [a, c], [b, d]
                continue
        if i > 0:
            c, d = pairs[i - 1]
            if not met(c, a) and not met(d, b):
                pairs[i - 1], pairs[i] = [c, a], [d, b]


@dataclass
class TeamLine:
    """A team's standing: its ``name``, ``members`` (entries in standing order),
    ``points`` and the differences summed, ``rank`` (shared)."""

    name: str
    members: list[int]
    points: int = 0
    bummerl_diff: int = 0
    game_diff: int = 0
    rank: int = 0


def team_standing(lines: Sequence[Line], teams: Mapping[int, str]) -> list[TeamLine]:
    """Teams (entry -> team name; entries without a team left out) ranked by the sum of
    their players' points, then the summed differences; equal teams share a rank and are
    listed by name."""
    by_name: dict[str, TeamLine] = {}
    for line in lines:
        name = teams.get(line.entry)
        if not name:
            continue
        team = by_name.setdefault(name, TeamLine(name, []))
        team.members.append(line.entry)
        team.points += line.points
        team.bummerl_diff += line.bummerl_diff
        team.game_diff += line.game_diff
    ordered = sorted(
        by_name.values(), key=lambda t: (-t.points, -t.bummerl_diff, -t.game_diff, t.name)
    )
    for k, team in enumerate(ordered):
        key = (team.points, team.bummerl_diff, team.game_diff)
        prev = ordered[k - 1] if k else None
        if prev is not None and key == (prev.points, prev.bummerl_diff, prev.game_diff):
            team.rank = prev.rank
        else:
            team.rank = k + 1
    return ordered
