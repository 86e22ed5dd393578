"""The reads of a score sheet that its pages need: the sheet scored by the rule core
(``ScoredSheet``: all of it, ``read_sheet``, or its recent part, ``read_recent``), the
sheet's state in one aggregate query (``sheet_stats``, and under the writers' row lock
``locked_stats``) and where a two-player sheet stands in its series (``series_score``).

Nothing here writes. The kept fold (``Sheet.fold``, ``scoring.foldcache``) is only read
here; the writers in ``scoring.services`` keep it.
"""

import dataclasses
import functools
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q

from base.locks import row_lock
from base.sqlrows import Columns, fetch, table
from clubs.models import Player
from scoring import foldcache
from scoring import rules as core
from scoring.changes import version_of
from scoring.models import ENTRY_TYPES, Deal, DealRow, Seat, Sheet, deal_rows


@dataclass(frozen=True)
class ScoredSheet:
    """A sheet with its seats (players in seat order), its deal rows in order (voided
    ones included) and the scored state of the live ones.

    A read of the recent part (``read_recent``, ``recent_part``) holds the rows from
    where the game before the open one began: ``first`` live deals come before them,
    ``state.lines`` are those of the rows held; ``state.games`` and ``state.tally``
    are always the whole sheet's. ``known_version`` is the whole sheet's version when
    the rows held are not all of them."""

    sheet: Sheet
    players: tuple[Player, ...]
    deals: tuple[DealRow, ...]
    state: core.SheetState
    known_version: str = ""

    @property
    def first(self) -> int:
        """How many live deals come before the rows held (0: all rows are held)."""
        return self.state.first_line

    @property
    def live_deals(self) -> tuple[DealRow, ...]:
        return tuple(d for d in self.deals if d.voided_at is None)

    @property
    def version(self) -> str:
        """The state this view shows, for a form's ``after`` field (see ``version_of``)."""
        return self.known_version or version_of(self.deals)


def load_players(sheet: Sheet) -> tuple[Player, ...]:
    seats = Seat.objects.filter(sheet=sheet).select_related("player").order_by("position")
    return tuple(seat.player for seat in seats)


def _deals(sheet: Sheet) -> list[DealRow]:
    return deal_rows(sheet.pk)


def score(sheet: Sheet, entries: list, start: core.Mark | None = None) -> core.SheetState:
    return core.score_sheet(
        sheet.core_variant, sheet.core_rules, sheet.first_dealer, entries, start
    )


def read_sheet(sheet: Sheet, players: tuple[Player, ...] | None = None) -> ScoredSheet:
    """Read a sheet for display (2 queries, or 1 when ``players`` are given)."""
    if players is None:
        players = load_players(sheet)
    return scored_from(sheet, players, _deals(sheet))


def read_recent(
    sheet: Sheet, players: tuple[Player, ...] | None = None, stats: "Stats | None" = None
) -> ScoredSheet:
    """Read the recent part of a sheet for its page (see ``ScoredSheet``): the deals of
    the open game and of the game before, folded on from the fold kept with the sheet
    (``scoring.foldcache``). 3 queries (2 when ``players`` are given), whatever the
    number of deals; when the kept fold does not belong to the deals as they are, the
    whole sheet is read and folded (nothing is written: the next writer keeps the
    fold again). ``stats``: the sheet's
    ``sheet_stats`` when read just before (a write since is noticed as above)."""
    if players is None:
        players = load_players(sheet)
    stats = stats or sheet_stats(sheet)
    marks = foldcache.kept(sheet.fold, stats.struck)
    if marks is not None:
        start, after = marks[0]
        rows = deal_rows(sheet.pk, after)
        live = live_rows(rows)
        if stats.fits(start, rows, live):
            state = score(sheet, [d.entry for d in live], start)
            return ScoredSheet(sheet, players, tuple(rows), state, stats.version)
    return recent_part(scored_from(sheet, players, _deals(sheet)))


def recent_part(scored: ScoredSheet) -> ScoredSheet:
    """The recent part of ``scored``: from where the game before the open one began
    (``state.marks[0]``), whatever part of the sheet ``scored`` holds, so that the page
    lists the same rows after every kind of read or write."""
    if not scored.state.marks:
        return scored
    count = scored.state.marks[0].count
    cut = count - scored.first  # live deals held that come before the mark
    if cut <= 0:
        return scored
    after = scored.live_deals[cut - 1].position
    return ScoredSheet(
        scored.sheet,
        scored.players,
        tuple(d for d in scored.deals if d.position > after),
        dataclasses.replace(scored.state, lines=scored.state.lines[cut:], first_line=count),
        scored.version,
    )


@dataclass(frozen=True)
class Stats:
    """A sheet's deal rows in one aggregate: ``newest`` row id, ``struck`` and ``live``
    rows, the ``last`` position used, and ``keyed``: rows of a given one-time key."""

    newest: int
    struck: int
    live: int
    last: int
    keyed: int = 0
    recorded: object = None  # the newest row's time and the last strike's (``sheet_stats``)
    voided: object = None
    struck_by: str | None = None  # who struck rows out (``sheet_stats``)

    @property
    def version(self) -> str:
        return f"{self.newest}-{self.struck}"  # as version_of gives it

    def fits(self, start: core.Mark, rows: list[DealRow], live: list[DealRow]) -> bool:
        """Whether the rows read after the aggregate are those it counted (a write in
        between, on PostgreSQL's read committed, sends the reader the whole way)."""
        return start.count + len(live) == self.live and all(d.pk <= self.newest for d in rows)


# The aggregates of ``Stats`` as SQL: the ORM's compiling of the same (filtered counts
# in subqueries) took half the time of recording a deal.
_DEALS = 'FROM "scoring_deal" WHERE "sheet_id" = %s'
_STATS = {
    "newest": f'SELECT MAX("id") {_DEALS}',
    "struck": f'SELECT COUNT("voided_at") {_DEALS}',
    "live": f'SELECT COUNT(*) - COUNT("voided_at") {_DEALS}',
    "last": f'SELECT MAX("position") {_DEALS}',
}


_STRUCK_BY = (
    'SELECT {joined} FROM (SELECT DISTINCT u."username" AS n FROM "scoring_deal" d '
    'JOIN "{users}" u ON u."id" = d."voided_by_id" WHERE d."sheet_id" = %s ORDER BY 1) v'
)
_JOINED = {"postgresql": "string_agg(v.n, ' ' ORDER BY v.n)"}


def sheet_stats(sheet: Sheet, struck_by: bool = False) -> Stats:
    """The sheet's rows in one aggregate query: ``version`` (``ScoredSheet.version``)
    and the times of the newest row and of the last strike (``recorded``, ``voided``:
    with the version they tell one state of the sheet from another even across a
    restore of the database, which may give ids out again). With ``struck_by``, in the
    same query: the user names of the accounts that struck rows out, sorted, joined by
    spaces (None: no row struck by an account), which the page shows and the state does
    not tell (an account renamed or removed)."""
    extra = ""
    if struck_by:
        users = Deal._meta.get_field("voided_by").related_model._meta.db_table
        joined = _JOINED.get(connection.vendor, "group_concat(v.n, ' ')")
        extra = f", ({_STRUCK_BY.format(joined=joined, users=users)})"
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT MAX("id"), COUNT("voided_at"), COUNT(*) - COUNT("voided_at"), '
            f'MAX("position"), MAX("recorded_at"), MAX("voided_at"){extra} {_DEALS}',
            [sheet.pk] * (2 if struck_by else 1),
        )
        newest, struck, live, last, recorded, voided, *by = cursor.fetchone()
    return Stats(
        newest or 0, struck, live or 0, last or 0, 0, recorded, voided, by[0] if by else None
    )


_LOCKED = Columns(Sheet, "s")


@functools.cache
def _locked_sql(vendor: str) -> str:
    """The sheet with the aggregates of ``Stats`` (``keyed``: rows of a one-time key),
    under its row lock where the database has row locks."""
    aggregates = ", ".join(f"({query})" for query in _STATS.values())
    lock = row_lock()  # base.locks: FOR NO KEY UPDATE, in the writers' one order
    return (
        f'SELECT {_LOCKED.sql}, {aggregates}, (SELECT COUNT(*) {_DEALS} AND "key" = %s) '
        f'FROM {table(Sheet)} s WHERE s."id" = %s{lock}'
    )


def locked_stats(sheet: Sheet, key) -> tuple[Sheet, "Stats"]:
    """The sheet under its row lock and, in the same query, the ``Stats`` of its deals
    (``keyed``: rows of the one-time ``key``); for the writers."""
    stored_key = Deal._meta.get_field("key").get_db_prep_value(key, connection)
    params = [sheet.pk] * len(_STATS) + [sheet.pk, stored_key, sheet.pk]
    rows = fetch(_locked_sql(connection.vendor), params)
    if not rows:
        raise Sheet.DoesNotExist  # removed meanwhile, as the ORM's get would say
    row = rows[0]
    newest, struck, live, last, keyed = (value or 0 for value in row[_LOCKED.width :])
    return _LOCKED.instance(row), Stats(newest, struck, live, last, keyed)


def struck_count(deals: list[DealRow]) -> int:
    return sum(1 for d in deals if d.voided_at is not None)


def live_rows(deals: list[DealRow]) -> list[DealRow]:
    return [d for d in deals if d.voided_at is None]


def scored_from(sheet: Sheet, players, deals: list[DealRow]) -> ScoredSheet:
    return ScoredSheet(
        sheet, players, tuple(deals), score(sheet, [d.entry for d in live_rows(deals)])
    )


# -- a series of Partien at one table (two players) -----------------------------------


def next_partie_of(sheet: Sheet) -> Sheet | None:
    """The next Partie opened after ``sheet`` (``services.open_next_partie``), if any
    (one query)."""
    return Sheet.objects.filter(previous=sheet).first()


@dataclass(frozen=True)
class SeriesScore:
    """Where a sheet stands in its series of Partien: ``number`` (1 for the first
    Partie) and ``won``, the Partien each seat's player won in the series up to and
    including this sheet (one value per seat of this sheet)."""

    number: int
    won: tuple[int, ...]

    @property
    def started(self) -> bool:
        """Whether there is a series to show: a later Partie, or a decided one."""
        return self.number > 1 or any(self.won)


def series_score(scored: ScoredSheet) -> SeriesScore:
    """The series score of a read sheet: no query for a sheet that begins a series
    (only its own Partie counts), else 3 (the earlier sheets, their seats, their deals).
    """
    sheet = scored.sheet
    me = [p.pk for p in scored.players]
    won = [0] * len(me)
    if scored.state.partie_winner is not None:
        won[scored.state.partie_winner] += 1
    if sheet.series_id is None:
        return SeriesScore(1, tuple(won))
    earlier = list(
        Sheet.objects.filter(
            Q(pk=sheet.series_id) | Q(series_id=sheet.series_id),
            pk__lt=sheet.pk,
        ).order_by("pk")
    )
    seats: dict[int, dict[int, int]] = {}
    for sheet_id, position, player_id in Seat.objects.filter(sheet__in=earlier).values_list(
        "sheet_id", "position", "player_id"
    ):
        seats.setdefault(sheet_id, {})[position] = player_id
    entries: dict[int, list] = {}
    live = Deal.objects.filter(sheet__in=earlier).live()
    ordered = live.order_by("sheet_id", "position", "recorded_at", "id")
    for sheet_id, kind, inputs in ordered.values_list("sheet_id", "kind", "inputs"):
        entries.setdefault(sheet_id, []).append(ENTRY_TYPES[kind](**inputs))
    for other in earlier:
        state = score(other, entries.get(other.pk, []))
        if state.partie_winner is not None:
            winner = seats.get(other.pk, {}).get(state.partie_winner)
            if winner in me:
                won[me.index(winner)] += 1
    return SeriesScore(1 + len(earlier), tuple(won))
