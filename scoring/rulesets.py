"""The only writers of rule sets: a club's copy of a preset, and its changes."""

import uuid

from django.db import IntegrityError, transaction

from base.errors import RuleError, gettext_noop, key_reused
from clubs.models import Club
from scoring import rules as core
from scoring.models import RuleSet
from scoring.rules.ruleset import check_contract_count


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
    check_contract_count(len(data.get("catalog") or ()))
    rules = core.RuleSet.from_dict(data)
    with transaction.atomic():
        locked = RuleSet.objects.select_for_update().get(pk=rule_set.pk)
        locked.name = rules.name or locked.name
        locked.data = rules.to_dict()
        locked.save(update_fields=["name", "data"])
    return locked
