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
- The state ``after`` (``SheetView.version``) the page was rendered from: a write from
  an older state is refused with ``SheetChanged``, which lists what happened since, so
  two phones at one table never both record the same deal unawares.
"""

import json
import re
import uuid
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs import audit
from clubs.models import Club, Player
from clubs.text import name_fold
from scoring import rules as core
from scoring.models import Deal, DealRow, RuleSet, Seat, Sheet
from scoring.rules.errors import RuleError, gettext_noop
from scoring.signals import sheet_changed


@dataclass(frozen=True)
class Actor:
    """Who writes: a signed-in ``user``, or the holder of a table's private link.
    ``organiser``: the user is an organiser (or owner) of the club, who may still change
    a sheet whose tournament result stands (``Sheet.write_refusal``)."""

    user: object | None = None
    via_link: bool = False
    organiser: bool = False

    @property
    def user_id(self):
        user = self.user
        return getattr(user, "pk", None) if user is not None else None


@dataclass(frozen=True)
class SheetView:
    """A sheet with its seats (players in seat order), all its deal rows in order
    (voided ones included) and the scored state of the live ones."""

    sheet: Sheet
    players: tuple[Player, ...]
    deals: tuple[DealRow, ...]
    state: core.SheetState

    @property
    def live_deals(self) -> tuple[DealRow, ...]:
        return tuple(d for d in self.deals if d.voided_at is None)

    @property
    def version(self) -> str:
        """The state this view shows, for a form's ``after`` field (see ``version_of``)."""
        return version_of(self.deals)


def version_of(deals) -> str:
    """``"<newest row id>-<struck rows>"``: a new or corrected deal adds a row, a
    strike-out or correction marks one struck, and neither is ever undone, so every write
    changes this value and it never comes back. Derived from the rows: nothing stored."""
    newest = max((d.pk for d in deals), default=0)
    return f"{newest}-{sum(1 for d in deals if d.voided_at is not None)}"


def key_reused() -> RuleError:
    """A one-time key that already wrote something else: the page was old (Back, a
    second tab), so nothing is written and the user is told to look again."""
    return RuleError(
        "key",
        gettext_noop(
            "This form was already used for another entry: nothing was saved. "
            "Reload the page and enter it again."
        ),
    )


@dataclass(frozen=True)
class Change:
    """One thing that happened to a sheet since a page was rendered: ``what`` is
    ``"recorded"``, ``"corrected"`` or ``"struck"``; ``number`` the deal's number on
    the sheet now (None for a struck deal)."""

    what: str
    deal: DealRow
    number: int | None


class SheetChanged(RuleError):
    """The sheet changed since the page was rendered (its ``after`` is older): nothing
    was written. ``changes`` lists what happened since (empty when ``after`` could not
    be read); ``version`` is the state the refusal saw, for a "record anyway" form."""

    def __init__(self, changes: list[Change], version: str):
        super().__init__(
            "after",
            gettext_noop("Nothing was saved: the sheet changed since this page was loaded."),
        )
        self.changes = tuple(changes)
        self.version = version


def load_players(sheet: Sheet) -> tuple[Player, ...]:
    seats = Seat.objects.filter(sheet=sheet).select_related("player").order_by("position")
    return tuple(seat.player for seat in seats)


def _deals(sheet: Sheet) -> list[DealRow]:
    return Deal.objects.filter(sheet=sheet).rows()


def _score(sheet: Sheet, entries: list) -> core.SheetState:
    return core.score_sheet(sheet.core_variant, sheet.core_rules, sheet.first_dealer, entries)


def sheet_view(sheet: Sheet, players: tuple[Player, ...] | None = None) -> SheetView:
    """Read a sheet for display (2 queries, or 1 when ``players`` are given)."""
    if players is None:
        players = load_players(sheet)
    deals = _deals(sheet)
    live = [d for d in deals if d.voided_at is None]
    return SheetView(sheet, players, tuple(deals), _score(sheet, [d.entry for d in live]))


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
) -> tuple[SheetView, DealRow]:
    """Append one entry (a deal, a redeal or a tie-break) to the sheet.

    Returns the sheet as it now is and the deal row. With a ``key`` already used for
    this entry, nothing is written and the first row is returned; a key used for
    anything else raises RuleError on ``key``. ``after`` is the ``SheetView.version``
    the form was rendered from (None: not checked); SheetChanged when the sheet changed
    since. Raises RuleError (with ``index``) when the entry breaks a rule at that place.
    """
    return _write(sheet, key, actor, players, entry=entry, after=after)


def correct_deal(
    sheet: Sheet,
    deal_id: int,
    entry: "core.sheet.Entry",
    key: uuid.UUID,
    actor: Actor,
    players: tuple[Player, ...] | None = None,
    after: str | None = None,
) -> tuple[SheetView, DealRow]:
    """Void live deal ``deal_id`` and record ``entry`` in its place, in one step.

    The rest of the sheet is scored again; RuleError names the first entry that no
    longer fits, and then nothing changes. ``key`` and ``after`` as in ``record_entry``
    (the same key repeats only the same correction of the same deal).
    """
    return _write(sheet, key, actor, players, entry=entry, replace_id=deal_id, after=after)


def void_deal(
    sheet: Sheet,
    deal_id: int,
    actor: Actor,
    players: tuple[Player, ...] | None = None,
    after: str | None = None,
) -> tuple[SheetView, DealRow]:
    """Strike a deal that should not be on the sheet (kept, marked with who and when).

    Voiding a voided deal changes nothing (a double tap). RuleError when a later entry
    no longer fits without it; SheetChanged when the sheet changed since ``after``.
    """
    return _write(sheet, None, actor, players, void_id=deal_id, after=after)


def _as_stored(value):
    """A value as a JSON field gives it back (tuples as lists, enums as strings)."""
    return json.loads(json.dumps(value))


def _same_entry(first: DealRow, entry, replace_id: int | None) -> bool:
    """Whether the deal a key recorded is this entry (in place of ``replace_id``)."""
    kind, inputs = Deal.inputs_of(entry)
    if (first.kind, first.inputs) != (kind, _as_stored(inputs)):
        return False
    replaced = Deal.objects.filter(pk=first.pk).values_list("replaces_id", flat=True).get()
    return replaced == replace_id


def changes_since(deals: list[DealRow], after: str) -> list[Change] | None:
    """What happened to the sheet since the state ``after`` (``version_of``): None when
    its live deals are still those that state showed (a deal recorded and struck out
    again in between changes nothing), else the changes; [] when ``after`` is unreadable.

    Rows with an id above the newest of ``after`` are new; of the older rows, those
    struck beyond the count of ``after`` were struck since (the latest strikes, as a
    strike is never undone)."""
    match = re.fullmatch(r"(\d{1,18})-(\d{1,9})", after)
    if match is None:
        return []
    newest, struck = int(match[1]), int(match[2])
    old_struck = sorted(
        (d for d in deals if d.pk <= newest and d.voided_at is not None),
        key=lambda d: (d.voided_at, d.pk),
    )
    struck_since = old_struck[struck:]
    added = [d for d in deals if d.pk > newest and d.voided_at is None]
    if not struck_since and not added:
        return None
    live = [d for d in deals if d.voided_at is None]
    replaced = {d.position for d in struck_since}
    changes = [
        Change("corrected" if d.position in replaced else "recorded", d, live.index(d) + 1)
        for d in added
    ]
    kept = {d.position for d in added}
    changes += [Change("struck", d, None) for d in struck_since if d.position not in kept]
    return changes


def _write(
    sheet: Sheet,
    key: uuid.UUID | None,
    actor: Actor,
    players: tuple[Player, ...] | None,
    entry=None,
    replace_id: int | None = None,
    void_id: int | None = None,
    after: str | None = None,
) -> tuple[SheetView, DealRow]:
    if players is None:
        players = load_players(sheet)
    try:
        with transaction.atomic():
            sheet = _locked(sheet.pk)
            # Checked under the row lock: a result that came in after the page was
            # rendered (or a draw undone meanwhile) refuses the write here.
            refusal = sheet.write_refusal(actor.organiser)
            if refusal is not None:
                raise refusal
            deals = _deals(sheet)
            # The key first: a double tap carries the old state too, and is answered
            # with what its first tap wrote, not refused as stale.
            first = next((d for d in deals if key is not None and d.key == key), None)
            if first is not None:
                if not _same_entry(first, entry, replace_id):
                    raise key_reused()
                return _view(sheet, players, deals), first
            target_id = replace_id or void_id
            target = next((d for d in deals if d.pk == target_id), None)
            if void_id is not None and target is not None and target.voided_at is not None:
                return _view(sheet, players, deals), target  # struck out already
            if after is not None:
                changes = changes_since(deals, after)
                if changes is not None:
                    raise SheetChanged(changes, version_of(deals))
            if target_id is not None:
                if target is None:
                    raise RuleError("deal", gettext_noop("There is no such deal on this sheet."))
                if target.voided_at is not None:
                    raise RuleError("deal", gettext_noop("This deal was already struck out."))
            live = [d for d in deals if d.voided_at is None]
            entries = [d.entry for d in live]
            if target is not None:
                at = live.index(target)
                if entry is None:
                    del entries[at]
                else:
                    entries[at] = entry
            else:
                at = len(entries)
                entries.append(entry)
            try:
                state = _score(sheet, entries)
            except RuleError as error:
                if entry is None and error.index is not None and error.index >= at:
                    # Name the deal as the sheet numbers it now, before the strike-out.
                    raise error.at(error.index + 1) from None
                raise
            now = timezone.now()
            audit_before = _audit_deal(target) if target is not None else None
            if target is not None:
                Deal.objects.filter(pk=target.pk).update(
                    voided_at=now, voided_by_id=actor.user_id, voided_via_link=actor.via_link
                )
                target.voided_at = now
                target.voided_by = getattr(actor.user, "username", None)
                target.voided_via_link = actor.via_link
            if entry is None:
                audit.record(
                    sheet.club_id, "sheet", sheet.pk, "deal struck out", actor, audit_before
                )
                view = _view(sheet, players, deals)
                if sheet.reports_result:
                    sheet_changed.send(Sheet, sheet=sheet, state=view.state, key=None, actor=actor)
                return view, target  # type: ignore[return-value]
            kind, inputs = Deal.inputs_of(entry)
            position = (
                target.position if target else 1 + max((d.position for d in deals), default=0)
            )
            created = Deal.objects.create(
                sheet=sheet,
                position=position,
                kind=kind,
                inputs=inputs,
                points=list(state.lines[at].points),
                key=key,
                recorded_by_id=actor.user_id,
                via_link=actor.via_link,
                replaces_id=target.pk if target else None,
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
            action = "deal corrected" if target is not None else "deal recorded"
            audit.record(
                sheet.club_id, "sheet", sheet.pk, action, actor, audit_before, _audit_deal(deal)
            )
            if sheet.reports_result:
                sheet_changed.send(Sheet, sheet=sheet, state=state, key=key, actor=actor)
            return SheetView(sheet, players, tuple(sorted(deals, key=_order)), state), deal
    except IntegrityError:
        # Another request with the same key committed between our read and insert (or
        # the key was used on another sheet).
        first = Deal.objects.filter(key=key, sheet=sheet).rows() if key is not None else []
        if not first or not _same_entry(first[0], entry, replace_id):
            raise key_reused() from None
        return sheet_view(sheet, players), first[0]


def _audit_deal(deal: DealRow) -> dict:
    return {
        "position": deal.position,
        "kind": deal.kind,
        "inputs": deal.inputs,
        "points": deal.points,
    }


def _order(deal: DealRow):
    return (deal.position, deal.recorded_at, deal.pk)


def _view(sheet: Sheet, players, deals: list[DealRow]) -> SheetView:
    live = [d for d in deals if d.voided_at is None]
    return SheetView(sheet, players, tuple(deals), _score(sheet, [d.entry for d in live]))


def revoke_link(sheet: Sheet) -> None:
    """Stop the table's private link from working."""
    Sheet.objects.filter(pk=sheet.pk, token_revoked_at__isnull=True).update(
        token_revoked_at=timezone.now()
    )


def renew_link(sheet: Sheet) -> None:
    """Give the table a new private link (the old one stops working)."""
    from scoring.models import new_token

    Sheet.objects.filter(pk=sheet.pk).update(entry_token=new_token(), token_revoked_at=None)


def import_document(
    club: Club, document: dict, actor: Actor, title: str = "", key: uuid.UUID | None = None
) -> Sheet:
    """Create a sheet from a sheet document (README, "The sheet as JSON").

    Players are found by name in the club, or added. The document is scored as a
    whole first; RuleError names the deal and field, and then nothing is stored.
    """
    from scoring.sheetjson import parse_document

    parsed = parse_document(document)
    earlier = _imported_with(key, club, parsed, title)
    if earlier is not None:
        return earlier  # the same import sent again
    state = core.score_sheet(parsed.variant, parsed.rules, 0, list(parsed.entries))
    preset_name = document.get("rule_set") if isinstance(document.get("rule_set"), str) else None
    try:
        return _import(club, document, actor, title, key, parsed, state, preset_name)
    except IntegrityError:
        # A second tap committed the same key between our read and insert.
        earlier = _imported_with(key, club, parsed, title)
        if earlier is None:
            raise
        return earlier


def _import(club, document, actor, title, key, parsed, state, preset_name) -> Sheet:
    from clubs.services import player_named

    with transaction.atomic():
        players = [player_named(club, name) for name in parsed.players]
        rule_set = (
            RuleSet.objects.filter(club__isnull=True, preset=preset_name).first()
            if preset_name
            else None
        )
        sheet = Sheet.objects.create(
            key=key,
            club=club,
            title=title.strip(),
            variant=str(parsed.variant),
            rule_set=rule_set,
            rules=parsed.rules.to_dict(),
            first_dealer=0,
            created_by=actor.user if actor.user_id else None,
        )
        Seat.objects.bulk_create(
            Seat(sheet=sheet, player=p, position=i) for i, p in enumerate(players)
        )
        rows = []
        for position, (entry, line) in enumerate(
            zip(parsed.entries, state.lines, strict=True), start=1
        ):
            kind, inputs = Deal.inputs_of(entry)
            rows.append(
                Deal(
                    sheet=sheet,
                    position=position,
                    kind=kind,
                    inputs=inputs,
                    points=list(line.points),
                    key=uuid.uuid4(),
                    recorded_by_id=actor.user_id,
                )
            )
        Deal.objects.bulk_create(rows)
        audit.record(club.pk, "sheet", sheet.pk, "sheet imported", actor, None, document)
    return sheet


def _imported_with(key, club: Club, parsed, title: str) -> Sheet | None:
    """The sheet a one-time ``key`` imported, if it imported this document (compared by
    what was stored: players by name, rules, every deal's inputs, the title); RuleError
    on ``key`` when it made something else."""
    sheet = Sheet.objects.filter(key=key).first() if key is not None else None
    if sheet is None:
        return None
    deals = [(d.kind, d.inputs) for d in _deals(sheet)]
    entries = [Deal.inputs_of(e) for e in parsed.entries]
    same = (
        sheet.club_id == club.pk
        and sheet.variant == str(parsed.variant)
        and sheet.title == title.strip()
        and sheet.rules == _as_stored(parsed.rules.to_dict())
        and [name_fold(p.name) for p in load_players(sheet)]
        == [name_fold(n) for n in parsed.players]
        and deals == [(k, _as_stored(i)) for k, i in entries]
    )
    if not same:
        raise key_reused()
    return sheet


def export_document(view: SheetView) -> dict:
    """The sheet as a scored document (the format ``import_document`` reads).

    The document's players start with the first dealer, as the format demands; voided
    deals are listed apart under ``voided`` with the time they were struck.
    """
    from scoring.sheetjson import entry_to_dict, score_document

    names = tuple(p.name for p in view.players)
    shift = view.sheet.first_dealer
    document = {
        "variant": view.sheet.variant,
        "rule_set": view.sheet.rules,
        "players": list(names[shift:] + names[:shift]),
        "deals": [entry_to_dict(d.entry, names) for d in view.live_deals],
    }
    out = score_document(document, limited=False)
    out["voided"] = [
        {**entry_to_dict(d.entry, names), "voided_at": d.voided_at.isoformat()}
        for d in view.deals
        if d.voided_at is not None
    ]
    return out


def copy_rule_set(club: Club, source: RuleSet, key: uuid.UUID | None = None) -> RuleSet:
    """A club's own copy of a preset or rule set, to change values and names (once per
    one-time ``key``: the same key again returns the first copy of the same source;
    RuleError on ``key`` when it copied another source or belongs to another club)."""
    earlier = RuleSet.objects.filter(key=key).first() if key else None
    if earlier is not None:
        if (earlier.club_id, earlier.copied_from_id) != (club.pk, source.pk):
            raise key_reused()
        return earlier
    rules = source.rules
    name = f"{source.name} ({club.name})"[:80]
    try:
        with transaction.atomic():
            return RuleSet.objects.create(
                club=club,
                name=name,
                preset=source.preset,
                data=rules.renamed(name).to_dict(),
                key=key,
                copied_from=source,
            )
    except IntegrityError:  # the same key committed meanwhile by a second tap
        if key is None:
            raise
        return copy_rule_set(club, source, key)


def update_rule_set(rule_set: RuleSet, data: dict) -> RuleSet:
    """Store new options and catalogue (the ``core.RuleSet.to_dict`` shape) after the core
    checked them; RuleError names the option or contract. Presets are not changed here,
    and sheets keep the copy they were opened with."""
    if rule_set.club_id is None:
        raise RuleError("rule_set", gettext_noop("Presets cannot be changed: copy one first."))
    rules = core.RuleSet.from_dict(data)
    with transaction.atomic():
        locked = RuleSet.objects.select_for_update().get(pk=rule_set.pk)
        locked.name = rules.name or locked.name
        locked.data = rules.to_dict()
        locked.save(update_fields=["name", "data"])
    return locked
