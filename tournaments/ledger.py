"""The ledger of a night: who holds every prize, or why it is still open (RULES.md 5.5,
5.7-5.9), for every format. Pure Python over ids, no Django.

It takes the night's ranking (``ranking.card_ranking``: every placed card, best first,
with the place range it holds) and answers for the overall prize list and for every
category list. Every page, printout, export and the room screen read a night's prizes
from here, through ``TournamentState.prize_lines`` and ``categories.category_lists``.

A prize line is either given (a card and its player) or open, with its reason:

- ``PLAYING``: a place it depends on is not settled yet (a card above it is still in
  play, or a placement match still to play). A prize is given only once every place
  above it is settled: a card still in play may yet be withdrawn, and a withdrawn card
  wins no prize (RULES.md 5.7), which moves every prize below it.
- ``SHARED``: it falls inside a range of places that cards share (RULES.md 5.8), which
  the organiser decides by Stechen or by lot (``range`` says which); it never goes by
  card number.

A line with ``NOBODY`` is not open: every card is placed and none is left that could
win it.

Where RULES.md is silent, this module decides: a category list (5.9) is open while any
player of the category still has a card without a place (he will finish above every
card out), and, without ``category_with_overall``, while an overall prize is open (it
may yet go to one of the category's players, who would then be skipped).
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.ranking import Ranked

PLAYING, SHARED, NOBODY = "playing", "shared", "nobody"
"""Why a prize has no holder: places above it are not settled, it falls in a shared
range, or no card is left to win it (fewer cards or players than prizes)."""


@dataclass(frozen=True)
class PrizeLine:
    """Prize ``place`` of a list (its ``description``): given to ``card`` of ``player``,
    who finished ``first`` to ``last``; or open (``card`` None) for the reason ``open``
    (``PLAYING`` or ``SHARED``), ``range`` the shared places (first, last) to decide."""

    place: int
    description: str
    card: int | None = None
    player: int | None = None
    first: int | None = None
    last: int | None = None
    open: str = ""
    range: tuple[int, int] | None = None

    @property
    def given(self) -> bool:
        return self.card is not None

    @property
    def waiting(self) -> bool:
        """Open: it will be given once places are settled or a range is decided."""
        return self.open in (PLAYING, SHARED)

    @property
    def finished(self) -> int | None:
        """The place the holder finished (the first of his range)."""
        return self.first


def _blocks(ranking: Sequence[Ranked]) -> list[list[Ranked]]:
    """The ranking cut into its place ranges, best first, as far as it is settled from
    place 1 on without a gap: a card of its own, or the cards sharing a range."""
    blocks: list[list[Ranked]] = []
    expected = 1
    for ranked in sorted(ranking, key=lambda r: r.first):
        if blocks and ranked.first == blocks[-1][0].first and ranked.first != ranked.last:
            blocks[-1].append(ranked)
            continue
        if ranked.first != expected:
            break
        blocks.append([ranked])
        expected = ranked.last + 1
    # A range is settled only when all its cards are there.
    while blocks and len(blocks[-1]) != blocks[-1][0].last - blocks[-1][0].first + 1:
        blocks.pop()
    return blocks


def overall(
    ranking: Sequence[Ranked],
    prizes: Iterable[tuple[int, str]],
    one_per_player: bool,
    withdrawn: Iterable[int] = (),
    complete: bool = False,
) -> list[PrizeLine]:
    """The overall prize list (RULES.md 5.5, 5.7, 5.8), one line per prize in place
    order. ``ranking``: the placed cards (``Ranked``, best first); ``prizes``: (place,
    description); ``withdrawn``: card ids that win no prize; ``complete``: every card
    of the night is in ``ranking`` (a prize past its end is ``NOBODY``'s, not open).

    Prize p goes to the card at place p; when that card wins no prize (withdrawn, or its
    player already won one with ``one_per_player``), to the next card down that does, and
    every prize after it moves down as well; a gap in the prize list moves nothing. A
    prize that reaches a range shared by two or more cards (no Stechen or lot yet) is
    open ``SHARED``, as is every prize after it in that range, unless it reaches the
    range from above and only one card of it can win; a range where no card can win is
    passed over. A prize below a place not settled yet is open ``PLAYING``."""
    out_cards = set(withdrawn)
    blocks = _blocks(ranking)
    lines: list[PrizeLine] = []
    winners: set[int] = set()
    position = 0  # the place (0-based) the next prize looks at first
    block = 0  # the block holding ``position``
    pending = 0  # prizes open in the current block (a shared range)
    unsure: tuple[int, int] | None = None  # a range some of whose players won, not known which

    def can_win(r: Ranked) -> bool:
        return r.card not in out_cards and not (one_per_player and r.player in winners)

    def candidates(members: list[Ranked]) -> set[int]:
        return {r.player if one_per_player else r.card for r in members if can_win(r)}

    def leave() -> None:
        """Go on below the current block; its candidates are winners once all won."""
        nonlocal block, pending, unsure, position
        members = blocks[block]
        left = candidates(members)
        if pending and one_per_player and len(left) > pending:
            unsure = (members[0].first, members[0].last)
        elif pending:
            winners.update(r.player for r in members if can_win(r))
        position = max(position, members[0].last)
        block += 1
        pending = 0

    for place, description in sorted(prizes):
        position = max(position, place - 1)
        line = None
        while line is None:
            while block < len(blocks) and blocks[block][0].last <= position:
                leave()
            if unsure is not None:
                line = PrizeLine(place, description, open=SHARED, range=unsure)
            elif block >= len(blocks):
                line = PrizeLine(place, description, open=NOBODY if complete else PLAYING)
            elif (head := blocks[block][0]).first == head.last:  # a place of its own
                if can_win(head):
                    line = PrizeLine(
                        place, description, head.card, head.player, head.first, head.last
                    )
                    winners.add(head.player)
                leave()
            elif len(candidates(blocks[block])) <= pending:
                leave()  # every card of the range that can win has a prize: go on below
            elif not pending and position == head.first - 1 and len(candidates(blocks[block])) == 1:
                # Reached from above with one card that can win: its prize whatever the order.
                r = min((r for r in blocks[block] if can_win(r)), key=lambda r: r.card)
                line = PrizeLine(place, description, r.card, r.player, r.first, r.last)
                winners.add(r.player)
                leave()
            else:
                line = PrizeLine(place, description, open=SHARED, range=(head.first, head.last))
                pending += 1
                position += 1
        lines.append(line)
    return lines


def category(
    ranking: Sequence[Ranked],
    prizes: Iterable[tuple[int, str]],
    members: set[int],
    unplaced: set[int],
    overall_lines: Sequence[PrizeLine],
    with_overall: bool,
    withdrawn: Iterable[int] = (),
) -> list[PrizeLine]:
    """The prize list of one category (RULES.md 5.9), one line per prize in place
    order. ``ranking``: the placed cards, best first; ``members``: the category's
    players; ``unplaced``: the players with a card not placed yet; ``overall_lines``: the
    overall list (``overall``); ``withdrawn``: cards that win no prize.

    Prize k goes to the k-th player of the category down the ranking, each by his best
    card that can win, skipping players with an overall prize unless ``with_overall``.
    Open ``PLAYING`` while a player of the category has a card without a place or (not
    ``with_overall``) an overall prize is open for that reason; open ``SHARED`` when the
    k-th player shares his range with another eligible player of the category (or an
    overall prize open in a shared range may skip one of them)."""
    prizes = sorted(prizes)
    out_cards = set(withdrawn)
    open_overall = [line for line in overall_lines if not line.given]
    if members & unplaced or (
        not with_overall and any(line.open == PLAYING for line in open_overall)
    ):
        return [PrizeLine(place, description, open=PLAYING) for place, description in prizes]
    unsure = (
        {line.range for line in open_overall if line.open == SHARED and line.range is not None}
        if not with_overall
        else set()
    )
    winners = {line.player for line in overall_lines if line.given}
    eligible: list[Ranked] = []
    seen: set[int] = set()
    for ranked in sorted(ranking, key=lambda r: (r.first, r.card)):
        if ranked.player in seen or ranked.player not in members or ranked.card in out_cards:
            continue
        seen.add(ranked.player)
        if with_overall or ranked.player not in winners:
            eligible.append(ranked)
    lines = []
    for place, description in prizes:
        if place - 1 >= len(eligible):
            continue  # fewer players in the category than prizes: nobody to give it to
        r = eligible[place - 1]
        doubt = next(
            (rng for rng in unsure if any(rng[0] <= e.first <= rng[1] for e in eligible[:place])),
            None,
        )
        if doubt is not None:
            lines.append(PrizeLine(place, description, open=SHARED, range=doubt))
        elif r.first != r.last and sum(1 for e in eligible if e.first == r.first) > 1:
            lines.append(PrizeLine(place, description, open=SHARED, range=(r.first, r.last)))
        else:
            lines.append(PrizeLine(place, description, r.card, r.player, r.first, r.last))
    return lines


def unplaced_players(owners: Mapping[int, int], ranking: Sequence[Ranked]) -> set[int]:
    """The players (of ``owners``: card -> player) with a card not in ``ranking``."""
    placed = {r.card for r in ranking}
    return {player for card, player in owners.items() if card not in placed}
