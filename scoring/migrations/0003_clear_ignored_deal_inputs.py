"""Deals stored before every field was checked may hold values the scoring ignored: Augen
outside 0..120 (or Augen without a trick) on a closing that failed, a false claim or a
Renonce, and 1..3 points on a contract other than the normal game. The rule core now
refuses them, so such a sheet could no longer be read: the ignored value is cleared.
The points of the deal do not change (the value never counted)."""

from django.db import migrations

IGNORING_AUGEN = ("closed_failed", "false_claim", "renonce")


def _bad_augen(inputs: dict, need_trick: bool) -> bool:
    augen = inputs.get("other_augen")
    if augen is None:
        return False
    if isinstance(augen, bool) or not isinstance(augen, int) or not 0 <= augen <= 120:
        return True
    return need_trick and inputs.get("other_had_trick") is False and augen > 0


def clear_ignored_inputs(apps, schema_editor):
    Deal = apps.get_model("scoring", "Deal")
    db = schema_editor.connection.alias
    deals = Deal.objects.using(db).filter(kind__in=("ended", "dreier")).select_related("sheet")
    for deal in deals.iterator(chunk_size=2000):
        inputs = dict(deal.inputs)
        if deal.kind == "ended":
            options = (deal.sheet.rules or {}).get("options", {})
            need_trick = options.get("announcements_need_trick", True)
            if inputs.get("end") in IGNORING_AUGEN and _bad_augen(inputs, need_trick):
                inputs["other_augen"] = None
        elif inputs.get("contract") != "normal" and inputs.get("normal_points") is not None:
            inputs["normal_points"] = None
        if inputs != deal.inputs:
            Deal.objects.using(db).filter(pk=deal.pk).update(inputs=inputs)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0002_rule_set_copied_from")]

    operations = [migrations.RunPython(clear_ignored_inputs, migrations.RunPython.noop)]
