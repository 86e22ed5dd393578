"""The only writers of score sheets: open a sheet, record, correct and void deals.

Every function runs in one transaction and takes the sheet's row lock first, so two
phones at one table are served one after the other, in order. The rule core decides:
the whole live sequence, with the change applied, is scored by ``score_sheet`` before
anything is written, and a ``RuleError`` leaves the database untouched.
A repeated submit (same one-time ``key``) returns the deal the first one recorded.
"""

import uuid
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs import audit
from clubs.models import Club, Player
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
    earlier = Sheet.objects.filter(key=key).first() if key else None
    if earlier is not None:  # the same form sent again
        return earlier
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
    return sheet


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
) -> tuple[SheetView, DealRow]:
    """Append one entry (a deal, a redeal or a tie-break) to the sheet.

    Returns the sheet as it now is and the deal row. With a ``key`` already used on
    this sheet, nothing is written and the first row is returned. Raises RuleError
    (with ``index``) when the entry breaks a rule at that place.
    """
    return _write(sheet, key, actor, players, entry=entry)


def correct_deal(
    sheet: Sheet,
    deal_id: int,
    entry: "core.sheet.Entry",
    key: uuid.UUID,
    actor: Actor,
    players: tuple[Player, ...] | None = None,
) -> tuple[SheetView, DealRow]:
    """Void live deal ``deal_id`` and record ``entry`` in its place, in one step.

    The rest of the sheet is scored again; RuleError names the first entry that no
    longer fits, and then nothing changes.
    """
    return _write(sheet, key, actor, players, entry=entry, replace_id=deal_id)


def void_deal(
    sheet: Sheet, deal_id: int, actor: Actor, players: tuple[Player, ...] | None = None
) -> tuple[SheetView, DealRow]:
    """Strike a deal that should not be on the sheet (kept, marked with who and when).

    Voiding a voided deal changes nothing. RuleError when a later entry no longer fits
    without it.
    """
    return _write(sheet, None, actor, players, void_id=deal_id)


def _write(
    sheet: Sheet,
    key: uuid.UUID | None,
    actor: Actor,
    players: tuple[Player, ...] | None,
    entry=None,
    replace_id: int | None = None,
    void_id: int | None = None,
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
            if key is not None:
                for deal in deals:
                    if deal.key == key:  # a repeated submit: answer with the first result
                        return _view(sheet, players, deals), deal
            target_id = replace_id or void_id
            target = None
            if target_id is not None:
                target = next((d for d in deals if d.pk == target_id), None)
                if target is None:
                    raise RuleError("deal", gettext_noop("There is no such deal on this sheet."))
                if target.voided_at is not None:
                    if void_id is not None:
                        return _view(sheet, players, deals), target
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
        # Another request with the same key committed between our read and insert.
        first = Deal.objects.filter(key=key, sheet=sheet).rows() if key is not None else []
        if not first:
            raise RuleError(
                "key", gettext_noop("This form was already used: reload the page.")
            ) from None
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
    from clubs.services import player_named
    from scoring.sheetjson import parse_document

    earlier = Sheet.objects.filter(key=key).first() if key else None
    if earlier is not None:  # the same import sent again
        return earlier
    parsed = parse_document(document)
    state = core.score_sheet(parsed.variant, parsed.rules, 0, list(parsed.entries))
    preset_name = document.get("rule_set") if isinstance(document.get("rule_set"), str) else None
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
    out = score_document(document)
    out["voided"] = [
        {**entry_to_dict(d.entry, names), "voided_at": d.voided_at.isoformat()}
        for d in view.deals
        if d.voided_at is not None
    ]
    return out


def copy_rule_set(club: Club, source: RuleSet, key: uuid.UUID | None = None) -> RuleSet:
    """A club's own copy of a preset or rule set, to change values and names (once per
    one-time ``key``)."""
    earlier = RuleSet.objects.filter(key=key, club=club).first() if key else None
    if earlier is not None:
        return earlier
    rules = source.rules
    name = f"{source.name} ({club.name})"[:80]
    return RuleSet.objects.create(
        club=club, name=name, preset=source.preset, data=rules.renamed(name).to_dict(), key=key
    )


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
