"""The only writers of a sheet's deals: record, correct and void them (opening a sheet
is ``scoring.upkeep.open_sheet``).

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

import uuid

from django.db import IntegrityError, transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from base import push
from base.errors import RuleError, gettext_noop, key_reused
from clubs import audit
from clubs.audit import Action, Actor
from clubs.models import Player
from scoring import foldcache
from scoring import rules as core
from scoring.changes import SheetChanged, changes_since, topic, version_of
from scoring.models import Deal, DealRow, Seat, Sheet, VoidedAs, as_stored, deal_rows
from scoring.reading import (
    ScoredSheet,
    Stats,
    live_rows,
    load_players,
    locked_stats,
    read_recent,
    read_sheet,
    score,
    scored_from,
    struck_count,
)
from scoring.signals import games_changed, sheet_changed


def _locked_with_stats(sheet: Sheet, actor: Actor, key) -> tuple[Sheet, Stats]:
    """``_lock_only`` and, in the same query, the ``Stats`` of its deals
    (``reading.locked_stats``)."""
    locked, stats = locked_stats(sheet, key)
    return _refused_or(locked, actor), stats


def locked_sheet(sheet_id: int) -> Sheet:
    # The row lock serialises writers of one sheet on PostgreSQL; SQLite's
    # IMMEDIATE transactions already hold the database's write lock from BEGIN.
    return Sheet.objects.select_for_update(no_key=True).get(pk=sheet_id)


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

    The entry is folded on from the fold kept with the sheet (``Sheet.fold``: where the
    game before the open one began), so the rows before it are not read; when that
    fold does not belong to the deals as they are, or the form comes from an older
    state, the whole sheet is read and folded, and its fold kept again.
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
            _refuse(Sheet.size_refusal(stats.live + 1, stats.live + stats.struck + 1))
            marks, rows = _kept_marks(sheet, stats, after)
            start = marks[0] if marks else None
            if start is None:
                # The key is looked for again in the rows read now: on PostgreSQL the
                # lock's aggregates are read as they were before the lock was waited
                # for, so the same tap sent twice at once finds its first send only here.
                again = _written_with(key, rows, entry, None)
                if again is not None:
                    return scored_from(sheet, players, rows), again
                _check_after(rows, after)
            live = live_rows(rows)
            state = score(sheet, [*(d.entry for d in live), entry], start and start[0])
            position = 1 + max((d.position for d in rows), default=start[1] if start else 0)
            deal = _add(sheet, rows, entry, state.lines[-1], key, actor, position)
            if not marks or [m.count for m in state.marks] != [m.count for m, _ in marks]:
                # Kept afresh, or the entry ended a game: the marks move on by one game.
                struck = stats.struck if start else struck_count(rows)
                foldcache.keep(sheet, struck, state, [*live, deal], start)
            audit.record(
                sheet.club_id,
                "sheet",
                sheet.pk,
                Action.DEAL_RECORDED,
                actor=actor,
                after=_audit_deal(deal),
            )
            _announce(sheet, state, key, actor, figures_changed=_ended_a_game(state))
            rows.sort(key=_order)
            version = ""
            if start is not None:  # the rows held are not all: the version is told
                version = Stats(deal.pk, stats.struck, 0, 0).version
            return ScoredSheet(sheet, players, tuple(rows), state, version), deal
    except IntegrityError:
        return _written_meanwhile(sheet, key, entry, None, players)


def _kept_marks(sheet: Sheet, stats: Stats, after: str | None):
    """The kept fold's marks (each with the position before it) that ``record_entry``
    folds on from, and the rows after the first; ``(None, every row)`` when the page is
    of an older state or the kept fold does not belong to the deals as they are
    (``stats`` read under the row lock)."""
    marks = foldcache.kept(sheet.fold, stats.struck)
    if marks is not None and after in (None, stats.version):
        rows = deal_rows(sheet.pk, marks[0][1])
        if stats.fits(marks[0][0], rows, live_rows(rows)):
            return marks, rows
    return None, deal_rows(sheet.pk)


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
            sheet, deals = lock_for(sheet, actor)
            first = _written_with(key, deals, entry, deal_id)
            if first is not None:
                return scored_from(sheet, players, deals), first
            _check_after(deals, after)
            _refuse(Sheet.size_refusal(len(live_rows(deals)), len(deals) + 1))
            target = _live_deal(deals, deal_id)
            live = live_rows(deals)
            at = live.index(target)
            entries = [d.entry for d in live]
            entries[at] = entry
            state = score(sheet, entries)
            before = _audit_deal(target)
            _strike(target, actor, VoidedAs.CORRECTED)
            deal = _add(
                sheet, deals, entry, state.lines[at], key, actor, target.position, target.pk
            )
            foldcache.keep(sheet, struck_count(deals), state, live_rows(sorted(deals, key=_order)))
            audit.record(
                sheet.club_id,
                "sheet",
                sheet.pk,
                Action.DEAL_CORRECTED,
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
    *,
    undo: bool = False,
) -> tuple[ScoredSheet, DealRow]:
    """Strike a deal that should not be on the sheet (kept, marked with who and when).

    ``undo``: sent by *Rückgängig* after saving; the last deal is then kept as undone
    (an earlier one as struck out, as it would be by *Streichen*).
    Voiding a voided deal changes nothing (a double tap). RuleError when a later entry
    no longer fits without it; SheetChanged when the sheet changed since ``after``.
    """
    if players is None:
        players = load_players(sheet)
    with transaction.atomic():
        sheet, deals = lock_for(sheet, actor)
        target = next((d for d in deals if d.pk == deal_id), None)
        if target is not None and target.voided_at is not None and not _corrected(target):
            return scored_from(sheet, players, deals), target  # struck out already
        _check_after(deals, after)
        target = _live_deal(deals, deal_id)
        live = live_rows(deals)
        at = live.index(target)
        try:
            score(sheet, [d.entry for d in live if d is not target])
        except RuleError as error:
            if error.index is not None and error.index >= at:
                # Name the deal as the sheet numbers it now, before the strike-out.
                raise error.at(error.index + 1) from None
            raise
        before = _audit_deal(target)
        undone = undo and target.pk == live[-1].pk
        _strike(target, actor, VoidedAs.UNDONE if undone else VoidedAs.STRUCK)
        action = Action.DEAL_UNDONE if undone else Action.DEAL_STRUCK_OUT
        audit.record(sheet.club_id, "sheet", sheet.pk, action, actor=actor, before=before)
        scored = scored_from(sheet, players, deals)
        foldcache.keep(sheet, struck_count(deals), scored.state, live_rows(deals))
        _announce(sheet, scored.state, None, actor)
        return scored, target


# -- the steps the three writers share ------------------------------------------------


def lock_for(sheet: Sheet, actor: Actor) -> tuple[Sheet, list[DealRow]]:
    """The sheet under its row lock and its deal rows; RuleError when the sheet refuses
    this writer (a lock set by a tournament, checked under the row lock: a result that
    came in after the page was rendered, or a draw undone meanwhile, refuses it here)."""
    sheet = _lock_only(sheet, actor)
    return sheet, deal_rows(sheet.pk)


def _lock_only(sheet: Sheet, actor: Actor) -> Sheet:
    """``lock_for`` without reading the deal rows."""
    return _refused_or(locked_sheet(sheet.pk), actor)


def _refused_or(sheet: Sheet, actor: Actor) -> Sheet:
    """``sheet`` (read under its row lock), or its RuleError when it refuses ``actor``."""
    _refuse(sheet.write_refusal(organiser=actor.organiser))
    return sheet


def _refuse(refusal: RuleError | None) -> None:
    if refusal is not None:
        raise refusal


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


def _strike(target: DealRow, actor: Actor, how: str) -> None:
    """Mark the row struck out by ``actor`` now, ``how`` (``VoidedAs``), in the database
    and in ``target``."""
    now = timezone.now()
    Deal.objects.filter(pk=target.pk).update(
        voided_at=now, voided_by_id=actor.user_id, voided_via_link=actor.via_link, voided_as=how
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
    created = Deal.objects.create(
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
    count finished games) and say that the finished games may have changed
    (``signals.games_changed``); tell the tournament whose match this sheet is
    (``signals.sheet_changed``); wake the phones held by the push server once this
    commits (``base.push``)."""
    push.announce(topic(sheet.pk))
    if figures_changed:
        _keep_figures(sheet, state)
        games_changed.send(Sheet, sheet=sheet, state=state)
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
