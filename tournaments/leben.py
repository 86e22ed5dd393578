"""Leben (RULES.md 5.10): a knock-out by lives instead of cards. Pure Python, no Django.

Words used here:

- *entry*: a player in the tournament, named by an id (the site uses the id of his one
  card). He starts with ``lives`` lives (1 to 3); a *re-buy* adds one.
- *alive*: an entry with lives left; *out*: one whose lives are all lost.
- *pot*: the alive entries of a round, drawn into pairs afresh each round (one pot).
- *bye* (*Freilos*): with an odd count one entry does not play; it counts as a win
  (no life lost).
- *final*: a round drawn with exactly two alive entries. Its loser is out whatever
  lives he has left (RULES.md 5.10: "when two are left they play the final").

Where RULES.md is silent, this module decides:

- The bye goes to an alive entry with the fewest byes so far, drawn uniformly among
  them; so nobody gets a second bye while another alive entry has none (the property
  test checks this over 1,000 seeds).
- The pairs are a uniform shuffle of the others, paired in order (1 v 2, 3 v 4, ...).
  Randomness comes only from ``random.Random(seed).random()`` (``lots.below``), so a
  stored seed replays to the same round on any Python version.
- Places: in reverse order of going out. The entries out in the same round share a
  range (RULES.md 5.8): with ``a`` still alive after that round and ``k`` out in it,
  they share places ``a + 1`` to ``a + k``. The last alive entry is first.
- The count of lives is the total (start plus re-buys); the site allows a re-buy only
  while the entry has not missed a draw, so an entry is never seen out and back again.
- A *withdrawn* entry (RULES.md 5.7, ``withdrawn``: entry -> round) goes out in the round
  it was withdrawn in, whatever lives it has left, and shares the places of that round;
  its open match is a walkover the site passes in as won by the opponent.
"""

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.lots import below, shuffled

MIN_LIVES = 1
MAX_LIVES = 3


def pair_round(
    alive: Sequence[int], byes: Mapping[int, int], seed: int
) -> tuple[list[tuple[int, int]], int | None]:
    """One round's draw: ``(pairs, bye)``. ``alive``: the entries still alive, in any
    order (sorted first, so the order given does not change the draw); ``byes``: byes
    each entry had so far (missing: none). The bye (None with an even count) goes to one
    of the alive entries with the fewest byes. Linear in the number of entries.

    ValueError with fewer than two entries (nothing to draw)."""
    pot = sorted(set(alive))
    if len(pot) < 2:
        raise ValueError("a round needs at least two entries")
    rng = random.Random(seed)
    bye = None
    if len(pot) % 2:
        fewest = min(byes.get(e, 0) for e in pot)
        candidates = [e for e in pot if byes.get(e, 0) == fewest]
        bye = candidates[below(rng, len(candidates))]
        pot.remove(bye)
    order = shuffled(pot, rng)
    return [(order[i], order[i + 1]) for i in range(0, len(order), 2)], bye


@dataclass(frozen=True)
class Played:
    """One drawn round as it stands: ``matches`` (left, right, winner or None while
    open) and ``bye`` (the entry with the bye, or None)."""

    number: int
    matches: tuple[tuple[int, int, int | None], ...]
    bye: int | None = None

    @property
    def decided(self) -> bool:
        return all(w is not None for _a, _b, w in self.matches)

    @property
    def final(self) -> bool:
        return len(self.matches) == 1 and self.bye is None


@dataclass
class Line:
    """One entry on the standings board: ``lives`` (total), ``lost``, ``left``,
    ``byes``, ``wins``, ``out_round`` (None while alive), ``place`` and ``place_to``
    (a shared range; both None while alive and the event runs)."""

    entry: int
    lives: int
    lost: int = 0
    byes: int = 0
    wins: int = 0
    out_round: int | None = None
    place: int | None = None
    place_to: int | None = None

    @property
    def left(self) -> int:
        return 0 if self.out_round is not None else self.lives - self.lost


@dataclass
class Standing:
    """The fold of a Leben event: ``lines`` by entry, ``alive`` (sorted), ``finished``
    (one entry left alive, or a final decided), ``winner``."""

    lines: dict[int, Line]
    alive: list[int] = field(default_factory=list)
    finished: bool = False
    winner: int | None = None

    def board(self) -> list[Line]:
        """The lines in order: the alive first, by lives left (most first), wins, lives
        lost; then the placed ones by place; entry id last (the caller's tie order)."""
        return sorted(
            self.lines.values(),
            key=lambda line: (
                (0, -line.left, -line.wins, line.lost, line.entry)
                if line.place is None
                else (1, line.place, 0, 0, line.entry)
            ),
        )

    def byes(self) -> dict[int, int]:
        return {e: line.byes for e, line in self.lines.items() if line.byes}


def standing(
    lives: Mapping[int, int],
    rounds: Sequence[Played],
    withdrawn: Mapping[int, int] | None = None,
) -> Standing:
    """Fold the rounds (in order) over the entries (``lives``: entry -> total lives).
    A loss costs a life; at 0 the entry is out in that round; the final's loser is out;
    an entry withdrawn in round R (``withdrawn``: entry -> R) is out in round R.
    Places are given once an entry is out (RULES.md 5.10, 5.8, 5.7)."""
    leaving: dict[int, list[int]] = {}
    for e, r in (withdrawn or {}).items():
        leaving.setdefault(r, []).append(e)
    lines = {e: Line(e, n) for e, n in lives.items()}
    alive = set(lives)
    out_by_round: list[tuple[int, list[int]]] = []
    for played in rounds:
        out = []
        if played.bye is not None:
            lines[played.bye].byes += 1
        for a, b, winner in played.matches:
            if winner is None:
                continue
            loser = b if winner == a else a
            lines[winner].wins += 1
            lines[loser].lost += 1
            if played.final or lines[loser].lost >= lines[loser].lives:
                lines[loser].out_round = played.number
                out.append(loser)
        for e in sorted(leaving.get(played.number, ())):
            if e in alive and e not in out:
                lines[e].out_round = played.number
                out.append(e)
        alive.difference_update(out)
        if out:
            out_by_round.append((played.number, out))
    remaining = len(alive)
    for _number, out in reversed(out_by_round):
        for e in out:
            lines[e].place, lines[e].place_to = remaining + 1, remaining + len(out)
        remaining += len(out)
    result = Standing(lines, sorted(alive))
    if len(alive) == 1 and len(lines) > 1:
        (winner,) = alive
        lines[winner].place = lines[winner].place_to = 1
        result.finished, result.winner = True, winner
    return result


def next_round_alive(result: Standing, rounds: Sequence[Played]) -> list[int] | None:
    """The entries to draw into the next round, or None when no round is due: the
    latest round still has open matches, or the event is finished."""
    if rounds and not rounds[-1].decided:
        return None
    if result.finished or len(result.alive) < 2:
        return None
    return result.alive
