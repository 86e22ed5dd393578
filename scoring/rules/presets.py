"""The rule-set presets shipped in ``seeds/rulesets.json`` (``wiki``, ``spielregeln``, ``bauern``)."""

import json
from functools import cache
from pathlib import Path
from typing import Any

from base.errors import RuleError, gettext_noop
from scoring.rules.ruleset import RuleSet

PRESETS_FILE = Path(__file__).resolve().parents[2] / "seeds" / "rulesets.json"


@cache
def preset_data() -> dict[str, dict[str, Any]]:
    """Preset name -> its dict (``name``, ``label``, ``options``, ``catalog``)."""
    with PRESETS_FILE.open(encoding="utf-8") as handle:
        return {p["name"]: p for p in json.load(handle)["presets"]}


def preset(name: str) -> RuleSet:
    """The preset ``name`` as a RuleSet; RuleError(field="rule_set") if there is none."""
    data = preset_data().get(name)
    if data is None:
        raise RuleError(
            "rule_set",
            gettext_noop("Unknown rule set %(name)s (presets: %(names)s)."),
            name=name,
            names=", ".join(preset_data()),
        )
    return RuleSet.from_dict(data)
