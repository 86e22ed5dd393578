"""A sheet as a JSON document (README, "The sheet as JSON"): import one as a new sheet,
export a sheet with its scores. The document's shape lives in ``scoring.sheetjson``.
"""

import uuid

from django.db import IntegrityError, transaction

from base.errors import key_reused
from base.text import name_fold
from clubs import audit
from clubs.audit import Action, Actor
from clubs.models import Club
from clubs.players import player_named
from scoring import rules as core
from scoring.models import Deal, RuleSet, Seat, Sheet, VoidedAs, as_stored, deal_rows
from scoring.reading import ScoredSheet, load_players
from scoring.sheetjson import entry_to_dict, parse_document, score_document
from scoring.signals import games_changed


def import_document(
    club: Club, document: dict, actor: Actor, title: str = "", key: uuid.UUID | None = None
) -> Sheet:
    """Create a sheet from a sheet document (README, "The sheet as JSON").

    Players are found by name in the club, or added. The document is scored as a
    whole first; RuleError names the deal and field, and then nothing is stored.
    """
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
        figures = state.seat_figures()
        Seat.objects.bulk_create(
            Seat(sheet=sheet, player=p, position=i, **figures[i]) for i, p in enumerate(players)
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
        games_changed.send(Sheet, sheet=sheet, state=state)
        audit.record(
            club.pk,
            "sheet",
            sheet.pk,
            Action.SHEET_IMPORTED,
            actor=actor,
            before=None,
            after=document,
        )
    return sheet


def _imported_with(key, club: Club, parsed, title: str) -> Sheet | None:
    """The sheet a one-time ``key`` imported, if it imported this document (compared by
    what was stored: players by name, rules, every deal's inputs, the title); RuleError
    on ``key`` when it made something else."""
    sheet = Sheet.objects.filter(key=key).first() if key is not None else None
    if sheet is None:
        return None
    deals = [(d.kind, d.inputs) for d in deal_rows(sheet.pk)]
    entries = [Deal.inputs_of(e) for e in parsed.entries]
    same = (
        sheet.club_id == club.pk
        and sheet.variant == str(parsed.variant)
        and sheet.title == title.strip()
        and sheet.rules == as_stored(parsed.rules.to_dict())
        and [name_fold(p.name) for p in load_players(sheet)]
        == [name_fold(n) for n in parsed.players]
        and deals == [(k, as_stored(i)) for k, i in entries]
    )
    if not same:
        raise key_reused()
    return sheet


def export_document(scored: ScoredSheet) -> dict:
    """The sheet as a scored document (the format ``import_document`` reads).

    The document's players start with the first dealer, as the format demands; voided
    deals are listed apart under ``voided`` with the time they were struck, how
    (``voided_as``: undone, struck or corrected) and by whom (``voided_by``: the user
    name, or null; ``voided_via_link``), as the sheet's history page says it.
    """
    names = tuple(p.name for p in scored.players)
    shift = scored.sheet.first_dealer
    document = {
        "variant": scored.sheet.variant,
        "rule_set": scored.sheet.rules,
        "players": list(names[shift:] + names[:shift]),
        "deals": [entry_to_dict(d.entry, names) for d in scored.live_deals],
    }
    out = score_document(document, limited=False)
    how = dict(
        Deal.objects.filter(sheet=scored.sheet, voided_at__isnull=False).values_list(
            "pk", "voided_as"
        )
    )
    out["voided"] = [
        {
            **entry_to_dict(d.entry, names),
            "voided_at": d.voided_at.isoformat(),
            "voided_as": how.get(d.pk) or VoidedAs.STRUCK,
            "voided_by": d.voided_by,
            "voided_via_link": d.voided_via_link,
        }
        for d in scored.deals
        if d.voided_at is not None
    ]
    return out
