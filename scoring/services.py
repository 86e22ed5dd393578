"""The only writers of score sheets: open a sheet, record, correct and void deals.

Every function runs in one transaction and takes the sheet's row lock first, so two
phones at one table are served one after the other, in order. The rule core decides:
the whole live sequence, with the change applied, is scored by ``score_sheet`` before
anything is written, and a ``RuleError`` leaves the database untouched.

Two guards against a page that no longer shows the sheet (RULES.md says nothing of
phones; DESIGN.md principle 5):

- The one-time ``key``: a repeated submit with the same key and the same content (a
  double tap, a retried request) returns what the first one wrote; the same key with
  other content (an old page's form, after Back) is refused (``key_reused``), never
  answered with the earlier result.
- The state ``after`` (``ScoredSheet.version``) the page was rendered from: a write from
  an older state is refused with ``SheetChanged``, which lists what happened since, so
  two phones at one table never both record the same deal unawares.
"""

import dataclasses
import functools
import json
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Q, Value, When
from django.utils import timezone

from base.errors import RuleError, gettext_noop, key_reused
from base.sqlrows import Columns, fetch, insert, table
from clubs import audit
from clubs.audit import Actor
from clubs.models import Archived, Club, Player
from scoring import foldcache
from scoring import rules as core
from scoring.changes import SheetChanged, changes_since, version_of
from scoring.models import ENTRY_TYPES, Deal, DealRow, RuleSet, Seat, Sheet, deal_rows
from scoring.signals import sheet_changed


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


def _score(sheet: Sheet, entries: list, start: core.Mark | None = None) -> core.SheetState:
    return core.score_sheet(
        sheet.core_variant, sheet.core_rules, sheet.first_dealer, entries, start
    )


def read_sheet(sheet: Sheet, players: tuple[Player, ...] | None = None) -> ScoredSheet:
    """Read a sheet for display (2 queries, or 1 when ``players`` are given)."""
    if players is None:
        players = load_players(sheet)
    return _scored(sheet, players, _deals(sheet))


def read_recent(
    sheet: Sheet, players: tuple[Player, ...] | None = None, stats: "_Stats | None" = None
) -> ScoredSheet:
    """Read the recent part of a sheet for its page (see ``ScoredSheet``): the deals of
    the open game and of the game before, folded on from the fold kept with the sheet
    (``scoring.foldcache``). 3 queries (2 when ``players`` are given), whatever the
    number of deals; when the kept fold does not belong to the deals as they are, the
    whole sheet is read and folded, and its fold kept again. ``stats``: the sheet's
    ``sheet_stats`` when read just before (a write since is noticed as above)."""
    if players is None:
        players = load_players(sheet)
    stats = stats or sheet_stats(sheet)
    marks = foldcache.kept(sheet.fold, stats.struck)
    if marks is not None:
        start, after = marks[0]
        rows = deal_rows(sheet.pk, after)
        live = _live(rows)
        if stats.fits(start, rows, live):
            state = _score(sheet, [d.entry for d in live], start)
            return ScoredSheet(sheet, players, tuple(rows), state, stats.version)
    deals = _deals(sheet)
    scored = _scored(sheet, players, deals)
    _keep_fold(sheet, _struck(deals), scored.state, _live(deals))
    return recent_part(scored)


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
class _Stats:
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


# The aggregates of ``_Stats`` as SQL: the ORM's compiling of the same (filtered counts
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


def sheet_stats(sheet: Sheet, struck_by: bool = False) -> _Stats:
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
    return _Stats(
        newest or 0, struck, live or 0, last or 0, 0, recorded, voided, by[0] if by else None
    )


_LOCKED = Columns(Sheet, "s")


@functools.cache
def _locked_sql(vendor: str) -> str:
    """The sheet with the aggregates of ``_Stats`` (``keyed``: rows of a one-time key),
    under its row lock where the database has row locks."""
    aggregates = ", ".join(f"({query})" for query in _STATS.values())
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return (
        f'SELECT {_LOCKED.sql}, {aggregates}, (SELECT COUNT(*) {_DEALS} AND "key" = %s) '
        f'FROM {table(Sheet)} s WHERE s."id" = %s{lock}'
    )


def _locked_with_stats(sheet: Sheet, actor: Actor, key) -> tuple[Sheet, _Stats]:
    """``_lock_only`` and, in the same query, the ``_Stats`` of its deals (``keyed``:
    rows of the one-time ``key``)."""
    stored_key = Deal._meta.get_field("key").get_db_prep_value(key, connection)
    params = [sheet.pk] * len(_STATS) + [sheet.pk, stored_key, sheet.pk]
    rows = fetch(_locked_sql(connection.vendor), params)
    if not rows:
        raise Sheet.DoesNotExist  # removed meanwhile, as the ORM's get would say
    row = rows[0]
    counts = row[_LOCKED.width :]
    return _refused_or(_LOCKED.instance(row), actor), _Stats(*(value or 0 for value in counts))


def _struck(deals: list[DealRow]) -> int:
    return sum(1 for d in deals if d.voided_at is not None)


def _keep_fold(
    sheet: Sheet,
    struck: int,
    state: core.SheetState,
    live: list[DealRow],
    start: tuple[core.Mark, int] | None = None,
) -> None:
    """Keep the marks of ``state`` with the sheet, ``struck`` of its rows being struck.
    ``live`` are the live rows from ``state.first_line`` on, in order; ``start`` the
    mark the fold went on from, with the position before it."""
    offset = state.first_line
    marks = []
    for mark in state.marks:
        if mark.count == 0:
            after = 0
        elif mark.count > offset:
            after = live[mark.count - 1 - offset].position
        else:
            after = start[1]  # the mark the fold began with
        marks.append((mark, after))
    sheet.fold = foldcache.made(struck, marks)
    Sheet.objects.filter(pk=sheet.pk).update(fold=sheet.fold)


def open_sheet(
    club: Club,
    variant: str,
    players: list[Player],
    rule_set: RuleSet,
    first_dealer: int = 0,
    title: str = "",
    actor: Actor | None = None,
    rules: core.RuleSet | None = None,
    key: uuid.UUID | None = None,
) -> Sheet:
    """Open a table: ``players`` in clockwise seating order, the seat that deals first.

    The rule set is copied into the sheet (``rules``, when given, are copied instead:
    a tournament match plays its own Partie length). RuleError on ``players`` (wrong count, twice,
    of another club) or ``first_dealer``.
    """
    seats = core.Variant(variant).seats
    if len(players) != seats or len({p.pk for p in players}) != seats:
        raise RuleError("players", gettext_noop("Choose %(count)s different players."), count=seats)
    if any(p.club_id != club.pk for p in players):
        raise RuleError("players", gettext_noop("All players must belong to the club."))
    if first_dealer not in range(seats):
        raise RuleError("first_dealer", gettext_noop("Choose who deals first."))
    rules = rules or rule_set.rules  # checks the stored data before a sheet depends on it
    if key is not None:
        earlier = _opened_with(key, club, variant, players, rule_set, first_dealer, title)
        if earlier is not None:
            return earlier  # the same form sent again
    try:
        with transaction.atomic():
            sheet = Sheet.objects.create(
                key=key,
                club=club,
                title=title.strip(),
                variant=variant,
                rule_set=rule_set,
                rules=rules.to_dict(),
                first_dealer=first_dealer,
                created_by=(actor.user if actor else None),
            )
            Seat.objects.bulk_create(
                Seat(sheet=sheet, player=p, position=i) for i, p in enumerate(players)
            )
    except IntegrityError:
        # A second tap committed the same key between our read and insert.
        earlier = _opened_with(key, club, variant, players, rule_set, first_dealer, title)
        if earlier is None:
            raise
        return earlier
    return sheet


def _opened_with(key, club, variant, players, rule_set, first_dealer, title) -> Sheet | None:
    """The sheet a one-time ``key`` opened, if it opened this one; RuleError on ``key``
    when it opened another."""
    earlier = Sheet.objects.filter(key=key).first() if key is not None else None
    if earlier is None:
        return None
    seats = [p.pk for p in load_players(earlier)]
    same = (earlier.club_id, earlier.variant, seats, earlier.rule_set_id) == (
        club.pk,
        str(variant),
        [p.pk for p in players],
        rule_set.pk,
    ) and (earlier.first_dealer, earlier.title) == (first_dealer, title.strip())
    if not same:
        raise key_reused()
    return earlier


def _locked(sheet_id: int) -> Sheet:
    # The row lock serialises writers of one sheet on PostgreSQL; SQLite's
    # IMMEDIATE transactions already hold the database's write lock from BEGIN.
    return Sheet.objects.select_for_update().get(pk=sheet_id)


def record_entry(
    sheet: Sheet,
    entry: "core.sheet.Entry",
    key: uuid.UUID,
    actor: Actor,
    players: tuple[Player, ...] | None = None,
    after: str | None = None,
) -> tuple[ScoredSheet, DealRow]:
    """Append one entry (a deal, a redeal or a tie-break) to the sheet.

    Returns the sheet as it now is and the deal row. With a ``key`` already used for
    this entry, nothing is written and the first row is returned; a key used for
    anything else raises RuleError on ``key``. ``after`` is the ``ScoredSheet.version``
    the form was rendered from (None: not checked); SheetChanged when the sheet changed
    since. Raises RuleError (with ``index``) when the entry breaks a rule at that place.
    """
    if players is None:
        players = load_players(sheet)
    try:
        with transaction.atomic():
            sheet, stats = _locked_with_stats(sheet, actor, key)
            if stats.keyed:
                # The same form sent again (a double tap, a request retried): answered
                # with what its first send wrote, the sheet read as its page reads it.
                first = deal_rows(sheet.pk, key=key)[0]
                if not _same_entry(first, entry, None):
                    raise key_reused()
                return read_recent(sheet, players), first
            _refuse_full(stats.live + 1, stats.live + stats.struck + 1)
            quick = _record_on_fold(sheet, stats, entry, key, actor, players, after)
            if quick is not None:
                return quick
            deals = _deals(sheet)
            # The key is looked for again in the rows read now: on PostgreSQL the lock's
            # aggregates are read as they were before the lock was waited for, so the
            # same tap sent twice at once finds its first send only here.
            first = _written_with(key, deals, entry, None)
            if first is not None:
                return _scored(sheet, players, deals), first
            _check_after(deals, after)
            live = _live(deals)
            state = _score(sheet, [*(d.entry for d in live), entry])
            position = 1 + max((d.position for d in deals), default=0)
            deal = _add(sheet, deals, entry, state.lines[len(live)], key, actor, position)
            _keep_fold(sheet, _struck(deals), state, [*live, deal])
            audit.record(
                sheet.club_id,
                "sheet",
                sheet.pk,
                "deal recorded",
                actor=actor,
                after=_audit_deal(deal),
            )
            _announce(sheet, state, key, actor, figures_changed=_ended_a_game(state))
            return ScoredSheet(sheet, players, tuple(sorted(deals, key=_order)), state), deal
    except IntegrityError:
        return _written_meanwhile(sheet, key, entry, None, players)


def _record_on_fold(sheet, stats, entry, key, actor, players, after):
    """``record_entry`` on the fold kept with the sheet (under its row lock, ``stats``
    read with it): the entry is folded on from where the game before the open one
    began, the rows before are not read. None when that does not apply (a page of an
    older state, no kept fold for the deals as they are): the caller then reads the
    whole sheet."""
    if after is not None and after != stats.version:
        return None
    marks = foldcache.kept(sheet.fold, stats.struck)
    if marks is None:
        return None
    start = marks[0]
    rows = deal_rows(sheet.pk, start[1])
    live = _live(rows)
    if not stats.fits(start[0], rows, live):
        return None
    state = _score(sheet, [*(d.entry for d in live), entry], start[0])
    deal = _add(sheet, rows, entry, state.lines[-1], key, actor, stats.last + 1)
    version = dataclasses.replace(stats, newest=deal.pk).version
    if [m.count for m in state.marks] != [m.count for m, _after in marks]:
        # The entry ended a game: the marks move on by one game.
        _keep_fold(sheet, stats.struck, state, [*live, deal], start)
    audit.record(
        sheet.club_id, "sheet", sheet.pk, "deal recorded", actor=actor, after=_audit_deal(deal)
    )
    _announce(sheet, state, key, actor, figures_changed=_ended_a_game(state))
    return ScoredSheet(sheet, players, tuple(rows), state, version), deal


def _ended_a_game(state: core.SheetState) -> bool:
    """Whether the sheet's last entry decided a game (only then do the seats' figures
    change when a deal is appended)."""
    last = state.first_line + len(state.lines) - 1
    return bool(state.games) and state.games[-1].decided_at == last


def correct_deal(
    sheet: Sheet,
    deal_id: int,
    entry: "core.sheet.Entry",
    key: uuid.UUID,
    actor: Actor,
    players: tuple[Player, ...] | None = None,
    after: str | None = None,
) -> tuple[ScoredSheet, DealRow]:
    """Void live deal ``deal_id`` and record ``entry`` in its place, in one step.

    The rest of the sheet is scored again; RuleError names the first entry that no
    longer fits, and then nothing changes. ``key`` and ``after`` as in ``record_entry``
    (the same key repeats only the same correction of the same deal).
    """
    if players is None:
        players = load_players(sheet)
    try:
        with transaction.atomic():
            sheet, deals = _lock_for(sheet, actor)
            first = _written_with(key, deals, entry, deal_id)
            if first is not None:
                return _scored(sheet, players, deals), first
            _check_after(deals, after)
            _refuse_full(len(_live(deals)), len(deals) + 1)
            target = _live_deal(deals, deal_id)
            live = _live(deals)
            at = live.index(target)
            entries = [d.entry for d in live]
            entries[at] = entry
            state = _score(sheet, entries)
            before = _audit_deal(target)
            _strike(target, actor)
            deal = _add(
                sheet, deals, entry, state.lines[at], key, actor, target.position, target.pk
            )
            _keep_fold(sheet, _struck(deals), state, _live(sorted(deals, key=_order)))
            audit.record(
                sheet.club_id,
                "sheet",
                sheet.pk,
                "deal corrected",
                actor=actor,
                before=before,
                after=_audit_deal(deal),
            )
            _announce(sheet, state, key, actor)
            return ScoredSheet(sheet, players, tuple(sorted(deals, key=_order)), state), deal
    except IntegrityError:
        return _written_meanwhile(sheet, key, entry, deal_id, players)


def void_deal(
    sheet: Sheet,
    deal_id: int,
    actor: Actor,
    players: tuple[Player, ...] | None = None,
    after: str | None = None,
) -> tuple[ScoredSheet, DealRow]:
    """Strike a deal that should not be on the sheet (kept, marked with who and when).

    Voiding a voided deal changes nothing (a double tap). RuleError when a later entry
    no longer fits without it; SheetChanged when the sheet changed since ``after``.
    """
    if players is None:
        players = load_players(sheet)
    with transaction.atomic():
        sheet, deals = _lock_for(sheet, actor)
        target = next((d for d in deals if d.pk == deal_id), None)
        if target is not None and target.voided_at is not None and not _corrected(target):
            return _scored(sheet, players, deals), target  # struck out already
        _check_after(deals, after)
        target = _live_deal(deals, deal_id)
        live = _live(deals)
        at = live.index(target)
        try:
            _score(sheet, [d.entry for d in live if d is not target])
        except RuleError as error:
            if error.index is not None and error.index >= at:
                # Name the deal as the sheet numbers it now, before the strike-out.
                raise error.at(error.index + 1) from None
            raise
        before = _audit_deal(target)
        _strike(target, actor)
        audit.record(
            sheet.club_id, "sheet", sheet.pk, "deal struck out", actor=actor, before=before
        )
        scored = _scored(sheet, players, deals)
        _keep_fold(sheet, _struck(deals), scored.state, _live(deals))
        _announce(sheet, scored.state, None, actor)
        return scored, target


# -- the steps the three writers share ------------------------------------------------


def _lock_for(sheet: Sheet, actor: Actor) -> tuple[Sheet, list[DealRow]]:
    """The sheet under its row lock and its deal rows; RuleError when the sheet refuses
    this writer (a lock set by a tournament, checked under the row lock: a result that
    came in after the page was rendered, or a draw undone meanwhile, refuses it here)."""
    sheet = _lock_only(sheet, actor)
    return sheet, _deals(sheet)


def _lock_only(sheet: Sheet, actor: Actor) -> Sheet:
    """``_lock_for`` without reading the deal rows."""
    return _refused_or(_locked(sheet.pk), actor)


def _refuse_full(live: int, rows: int) -> None:
    """RuleError on ``sheet`` when a write would leave the sheet with more than
    ``BUMMERL_MAX_DEALS`` live deals (the limit of an import), or more than twice as many
    rows with the struck-out and corrected ones: a private link cannot grow a sheet
    without end, and its page and printouts read every row. ``live`` and ``rows``: the
    counts after the write."""
    limit = settings.BUMMERL_MAX_DEALS
    if live > limit:
        raise RuleError(
            "sheet",
            gettext_noop("A sheet has at most %(limit)s deals: open a new table for the next."),
            limit=limit,
        )
    if rows > 2 * limit:
        raise RuleError(
            "sheet",
            gettext_noop(
                "A sheet keeps at most %(limit)s rows, struck-out and corrected deals "
                "included: open a new table for the next deals."
            ),
            limit=2 * limit,
        )


def _refused_or(sheet: Sheet, actor: Actor) -> Sheet:
    """``sheet`` (read under its row lock), or its RuleError when it refuses ``actor``."""
    refusal = sheet.write_refusal(organiser=actor.organiser)
    if refusal is not None:
        raise refusal
    return sheet


def _written_with(key, deals: list[DealRow], entry, replace_id: int | None) -> DealRow | None:
    """The row a one-time ``key`` already wrote, when it wrote this entry (in place of
    ``replace_id``); None when it wrote nothing; ``key_reused`` when it wrote another.
    Checked before the state: a double tap carries the old state too, and is answered
    with what its first tap wrote, not refused as stale."""
    first = next((d for d in deals if key is not None and d.key == key), None)
    if first is not None and not _same_entry(first, entry, replace_id):
        raise key_reused()
    return first


def _check_after(deals: list[DealRow], after: str | None) -> None:
    """SheetChanged when the sheet changed since the state ``after`` (None: not checked)."""
    if after is not None:
        changes = changes_since(deals, after)
        if changes is not None:
            raise SheetChanged(changes, version_of(deals))


def _live(deals: list[DealRow]) -> list[DealRow]:
    return [d for d in deals if d.voided_at is None]


def _live_deal(deals: list[DealRow], deal_id: int) -> DealRow:
    """The live row ``deal_id``; RuleError on ``deal`` when there is none or it is struck
    (struck out, or corrected: another row took its place)."""
    target = next((d for d in deals if d.pk == deal_id), None)
    if target is None:
        raise RuleError("deal", gettext_noop("There is no such deal on this sheet."))
    if target.voided_at is not None and _corrected(target):
        raise RuleError(
            "deal",
            gettext_noop(
                "This deal was corrected meanwhile: the corrected deal stands in its place."
            ),
        )
    if target.voided_at is not None:
        raise RuleError("deal", gettext_noop("This deal was already struck out."))
    return target


def _corrected(deal: DealRow) -> bool:
    """Whether the struck row ``deal`` was struck by a correction (a row replaces it),
    not struck out: a strike-out sent again is answered with the strike-out, but one
    sent from a page that showed the deal before its correction is refused."""
    return Deal.objects.filter(replaces_id=deal.pk).exists()


def _strike(target: DealRow, actor: Actor) -> None:
    """Mark the row struck out by ``actor`` now (in the database and in ``target``)."""
    now = timezone.now()
    Deal.objects.filter(pk=target.pk).update(
        voided_at=now, voided_by_id=actor.user_id, voided_via_link=actor.via_link
    )
    target.voided_at = now
    target.voided_by = getattr(actor.user, "username", None)
    target.voided_via_link = actor.via_link


def _add(
    sheet: Sheet,
    deals: list[DealRow],
    entry,
    line: "core.Line",
    key: uuid.UUID,
    actor: Actor,
    position: int,
    replaces_id: int | None = None,
) -> DealRow:
    """Store ``entry`` scored as ``line`` at ``position``; its row is appended to ``deals``."""
    kind, inputs = Deal.inputs_of(entry)
    created = insert(
        Deal(
            sheet=sheet,
            position=position,
            kind=kind,
            inputs=inputs,
            points=list(line.points),
            key=key,
            recorded_by_id=actor.user_id,
            via_link=actor.via_link,
            replaces_id=replaces_id,
        )
    )
    deal = DealRow(
        created.pk,
        position,
        kind,
        inputs,
        created.points,
        key,
        created.recorded_at,
        None,
        None,
        False,
    )
    deals.append(deal)
    return deal


def _announce(
    sheet: Sheet, state: core.SheetState, key, actor: Actor, figures_changed: bool = True
) -> None:
    """Keep the seats' figures (``Seat.games``, ``bummerl``, ``schneider``) as the sheet
    now stands, in one UPDATE (left out when a new deal ended no game: the figures only
    count finished games); tell the tournament whose match this sheet is
    (``signals.sheet_changed``)."""
    if figures_changed:
        _keep_figures(sheet, state)
    if sheet.reports_result:
        sheet_changed.send(Sheet, sheet=sheet, state=state, key=key, actor=actor)


def _keep_figures(sheet: Sheet, state: core.SheetState) -> None:
    figures = state.seat_figures()
    Seat.objects.filter(sheet=sheet).update(
        **{
            name: Case(
                *(When(position=seat, then=Value(f[name])) for seat, f in enumerate(figures)),
                default=Value(0),
            )
            for name in ("games", "bummerl", "schneider")
        }
    )


def _written_meanwhile(sheet: Sheet, key, entry, replace_id, players):
    """After an IntegrityError: another request with the same key committed between our
    read and insert (or the key was used on another sheet)."""
    first = deal_rows(sheet.pk, key=key) if key is not None else []
    if not first or not _same_entry(first[0], entry, replace_id):
        raise key_reused() from None
    return read_sheet(sheet, players), first[0]


def as_stored(value):
    """A value as a JSON field gives it back (tuples as lists, enums as strings)."""
    return json.loads(json.dumps(value))


def _same_entry(first: DealRow, entry, replace_id: int | None) -> bool:
    """Whether the deal a key recorded is this entry (in place of ``replace_id``)."""
    kind, inputs = Deal.inputs_of(entry)
    if (first.kind, first.inputs) != (kind, as_stored(inputs)):
        return False
    replaced = Deal.objects.filter(pk=first.pk).values_list("replaces_id", flat=True).get()
    return replaced == replace_id


def _audit_deal(deal: DealRow) -> dict:
    return {
        "position": deal.position,
        "kind": deal.kind,
        "inputs": deal.inputs,
        "points": deal.points,
    }


def _order(deal: DealRow):
    return (deal.position, deal.recorded_at, deal.pk)


def _scored(sheet: Sheet, players, deals: list[DealRow]) -> ScoredSheet:
    return ScoredSheet(sheet, players, tuple(deals), _score(sheet, [d.entry for d in _live(deals)]))


def revoke_link(sheet: Sheet, actor: Actor) -> None:
    """Stop the table's private link from working; kept in the sheet's history (without
    the link: the history is shown to every member)."""
    with transaction.atomic():
        revoked = Sheet.objects.filter(pk=sheet.pk, token_revoked_at__isnull=True).update(
            token_revoked_at=timezone.now()
        )
        if revoked:
            audit.record(sheet.club_id, "sheet", sheet.pk, "link revoked", actor=actor)


def renew_link(sheet: Sheet, actor: Actor) -> None:
    """Give the table a new private link (the old one stops working); kept in the
    sheet's history, without the link."""
    from scoring.models import new_token

    with transaction.atomic():
        Sheet.objects.filter(pk=sheet.pk).update(entry_token=new_token(), token_revoked_at=None)
        audit.record(sheet.club_id, "sheet", sheet.pk, "link renewed", actor=actor)


# -- a series of Partien at one table (two players) -----------------------------------


def open_next_partie(sheet: Sheet, key: uuid.UUID, actor: Actor) -> Sheet:
    """Open the next Partie of a two-player table once ``sheet``'s Partie is decided
    (RULES.md 2, *Partie*): a new sheet on the same seats, with the same copy of the
    rules, linked to ``sheet`` (``previous``) and to the first sheet of the series.

    The first dealer of the new Partie is the player who would deal next on ``sheet``:
    RULES.md says dealer and Vorhand alternate every deal and is silent on a new
    Partie; the sources draw the first dealer once and then alternate, so the
    alternation simply goes on across the Partien.

    A sheet has at most one next Partie: a second request (a double tap, the same
    ``key``, or the other phone at the table with its own key) returns the sheet the
    first one opened. RuleError on ``key`` when the key opened another sheet, on
    ``sheet`` when the sheet takes no writes (a lock), is a tournament match (one
    Partie only) or its Partie is not decided yet.
    """
    with transaction.atomic():
        sheet, deals = _lock_for(sheet, actor)
        earlier = Sheet.objects.filter(key=key).first()
        if earlier is not None and earlier.previous_id != sheet.pk:
            raise key_reused()
        following = Sheet.objects.filter(previous=sheet).first()
        if following is not None:
            return following  # opened already, by this tap or another phone's
        if sheet.reports_result:
            raise RuleError("sheet", gettext_noop("A tournament match is a single Partie."))
        state = _score(sheet, [d.entry for d in _live(deals)])
        if state.partie_winner is None:
            raise RuleError("sheet", gettext_noop("The Partie is not decided yet."))
        following = Sheet.objects.create(
            key=key,
            club_id=sheet.club_id,
            title=sheet.title,
            variant=sheet.variant,
            rule_set_id=sheet.rule_set_id,
            rules=sheet.rules,
            first_dealer=state.dealer,
            created_by=actor.user,
            previous=sheet,
            series_id=sheet.series_id or sheet.pk,
        )
        seats = Seat.objects.filter(sheet=sheet).order_by("position")
        Seat.objects.bulk_create(
            Seat(sheet=following, player_id=s.player_id, position=s.position) for s in seats
        )
        return following


def next_partie_of(sheet: Sheet) -> Sheet | None:
    """The next Partie opened after ``sheet`` (``open_next_partie``), if any (one query)."""
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
        state = _score(other, entries.get(other.pk, []))
        if state.partie_winner is not None:
            winner = seats.get(other.pk, {}).get(state.partie_winner)
            if winner in me:
                won[me.index(winner)] += 1
    return SeriesScore(1 + len(earlier), tuple(won))


# -- A table's name and the club's archive ------------------------------------------------

TITLE_MAX = 100
"""The longest title of a table (``Sheet.title``)."""


def rename_sheet(sheet: Sheet, title: str, actor: Actor) -> Sheet:
    """Give the table ``sheet`` the title ``title`` (whitespace collapsed; empty: the
    table is called by its players' names again). Returns the sheet as saved; the same
    title changes and records nothing. Kept in the club's history (``table renamed``,
    with the table's number). Refused (RuleError on ``title``): more than ``TITLE_MAX``
    characters. Who may rename is the view's check (owners)."""
    title = " ".join(title.split())
    if len(title) > TITLE_MAX:
        raise RuleError("title", gettext_noop("A table's title has at most 100 characters."))
    with transaction.atomic():
        locked = _locked(sheet.pk)
        if locked.title == title:
            return locked
        before = locked.title
        locked.title = title
        locked.save(update_fields=["title"])
        audit.record(
            locked.club_id,
            "club",
            locked.club_id,
            "table renamed",
            actor=actor,
            before={"table": locked.pk, "title": before},
            after={"table": locked.pk, "title": title},
        )
    return locked


def archived_ids(club: Club):
    """The ids of ``club``'s archived tables, as a subquery (``Sheet.pk__in``)."""
    return Archived.objects.filter(club=club, scope="sheet").values("scope_id")


def listed_sheets(club: Club):
    """``club``'s tables that its lists show: all but the archived ones (which stay
    readable by their link and count in rankings as before)."""
    return Sheet.objects.filter(club=club).exclude(pk__in=archived_ids(club))


def archived_sheets(club: Club):
    """``club``'s archived tables (``Sheet``'s order: the newest first)."""
    return Sheet.objects.filter(club=club, pk__in=archived_ids(club))


def archive_sheet(sheet: Sheet, actor: Actor) -> bool:
    """Put the table in the club's archive: it leaves the club's lists; its page, its
    private link, its deals and its place in rankings stay. True when it was archived
    now (kept in the club's history, ``table archived``), False when it was already (a
    double tap)."""
    with transaction.atomic():
        locked = _locked(sheet.pk)
        _item, made = Archived.objects.get_or_create(
            scope="sheet",
            scope_id=locked.pk,
            defaults={"club_id": locked.club_id, "archived_by": actor.user},
        )
        if made:
            audit.record(
                locked.club_id,
                "club",
                locked.club_id,
                "table archived",
                actor=actor,
                before=None,
                after={"table": locked.pk, "title": locked.title},
            )
    return made


def restore_sheet(sheet: Sheet, actor: Actor) -> bool:
    """Take the table out of the club's archive: the club's lists show it again. True
    when it was restored now (``table restored`` in the club's history), False when it
    was not archived."""
    with transaction.atomic():
        locked = _locked(sheet.pk)
        deleted, _kinds = Archived.objects.filter(scope="sheet", scope_id=locked.pk).delete()
        if deleted:
            audit.record(
                locked.club_id,
                "club",
                locked.club_id,
                "table restored",
                actor=actor,
                before={"table": locked.pk, "title": locked.title},
                after=None,
            )
    return bool(deleted)
