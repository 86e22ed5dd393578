"""The only writers of rule sets: a club's copy of a preset, and its changes. Each is
kept in the club's history (``rule set copied``, ``rule set changed``)."""

import uuid
from typing import Any

from django.db import IntegrityError, transaction

from base.errors import RuleError, gettext_noop, key_reused
from clubs import audit
from clubs.audit import Action, Actor
from clubs.models import Club
from scoring import rules as core
from scoring.models import RuleSet
from scoring.rules.ruleset import check_contract_count


def copy_rule_set(
    club: Club, source: RuleSet, key: uuid.UUID | None = None, *, actor: Actor
) -> RuleSet:
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
            copy = RuleSet.objects.create(
                club=club,
                name=name,
                preset=source.preset,
                data=rules.renamed(name).to_dict(),
                key=key,
                copied_from=source,
            )
            audit.record(
                club.pk,
                "club",
                club.pk,
                Action.RULE_SET_COPIED,
                actor=actor,
                after={"rule_set": copy.pk, "name": name, "copied_from": source.name},
            )
            return copy
    except IntegrityError:  # the same key committed meanwhile by a second tap
        if key is None:
            raise
        return copy_rule_set(club, source, key, actor=actor)


def update_rule_set(rule_set: RuleSet, data: dict, *, actor: Actor) -> RuleSet:
    """Store new options and catalogue (the ``core.RuleSet.to_dict`` shape) after the core
    checked them; RuleError names the option or contract. Presets are not changed here,
    and sheets keep the copy they were opened with. The club's history keeps what
    changed, before and after (``rule_changes``); a save that changes nothing records
    nothing."""
    if rule_set.club_id is None:
        raise RuleError("rule_set", gettext_noop("Presets cannot be changed: copy one first."))
    check_contract_count(len(data.get("catalog") or ()))
    rules = core.RuleSet.from_dict(data)
    with transaction.atomic():
        locked = RuleSet.objects.select_for_update(no_key=True).get(pk=rule_set.pk)
        before = {"name": locked.name, **locked.data}
        locked.name = rules.name or locked.name
        locked.data = rules.to_dict()
        old, new = rule_changes(before, {**locked.data, "name": locked.name})
        if old or new:
            locked.save(update_fields=["name", "data"])
            audit.record(
                rule_set.club_id,  # the same row's: a club's rule set, not a preset
                "club",
                rule_set.club_id,
                Action.RULE_SET_CHANGED,
                actor=actor,
                before={"rule_set": locked.pk, **old},
                after={"rule_set": locked.pk, **new},
            )
    return locked


def rule_changes(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict, dict]:
    """What changed between two rule sets in the ``core.RuleSet.to_dict`` shape, as the
    two sides the history shows: ``{"name": …, "options": {option: value},
    "contracts": {code: {field: value}}}`` with only the parts that differ (a contract
    only on one side is there whole). Two equal rule sets give two empty dicts."""
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    if before.get("name") != after.get("name"):
        old["name"], new["name"] = before.get("name"), after.get("name")
    options_before, options_after = before.get("options", {}), after.get("options", {})
    for option in sorted(set(options_before) | set(options_after)):
        if options_before.get(option) != options_after.get(option):
            old.setdefault("options", {})[option] = options_before.get(option)
            new.setdefault("options", {})[option] = options_after.get(option)
    contracts_before = {c["code"]: c for c in before.get("catalog", [])}
    contracts_after = {c["code"]: c for c in after.get("catalog", [])}
    for code in sorted(set(contracts_before) | set(contracts_after)):
        was, now = contracts_before.get(code, {}), contracts_after.get(code, {})
        fields = [
            f for f in sorted(set(was) | set(now)) if f != "code" and was.get(f) != now.get(f)
        ]
        if fields:
            old.setdefault("contracts", {})[code] = {f: was.get(f) for f in fields if f in was}
            new.setdefault("contracts", {})[code] = {f: now.get(f) for f in fields if f in now}
    return old, new
