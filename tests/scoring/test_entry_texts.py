"""The deal texts of a sheet's list (``display.sheet_rows``, ``describe_entry``) are those
of each entry, players' names, rule set and language, and never one of another rule
set, name or language."""

import dataclasses

from django.utils import translation

from scoring import rules as core
from scoring.display import describe_entry
from scoring.rules.presets import preset_data


@dataclasses.dataclass(frozen=True)
class Person:
    name: str


def entry_text(entry, players, rules) -> str:
    return describe_entry(entry, players, rules)


RULES = core.RuleSet.from_dict(preset_data()["wiki"])
PLAYERS = [Person("Anna"), Person("Ben"), Person("Clara")]
GANG = core.DreierDeal("gang", 1, True, 1)


# What ``describe_entry`` says of each entry of the first test, by (language, the rule
# set's name of the Gang, the second player, entry): Ben's Gang, spritzed once and won;
# a redeal; Clara's tie-break.
EXPECTED = {
    ("de", "Gang", "Ben", "gang"): "Gang ×2 · Ben · gewonnen",
    ("de", "Gang", "Ben", "redeal"): "Neu gegeben",
    ("de", "Gang", "Ben", "tiebreak"): "Stechen gewonnen von Clara",
    ("de", "Gang", "Benedikt", "gang"): "Gang ×2 · Benedikt · gewonnen",
    ("de", "Gang", "Benedikt", "redeal"): "Neu gegeben",
    ("de", "Gang", "Benedikt", "tiebreak"): "Stechen gewonnen von Clara",
    ("de", "Durchmarsch", "Ben", "gang"): "Durchmarsch ×2 · Ben · gewonnen",
    ("de", "Durchmarsch", "Ben", "redeal"): "Neu gegeben",
    ("de", "Durchmarsch", "Ben", "tiebreak"): "Stechen gewonnen von Clara",
    ("de", "Durchmarsch", "Benedikt", "gang"): "Durchmarsch ×2 · Benedikt · gewonnen",
    ("de", "Durchmarsch", "Benedikt", "redeal"): "Neu gegeben",
    ("de", "Durchmarsch", "Benedikt", "tiebreak"): "Stechen gewonnen von Clara",
    ("en", "Gang", "Ben", "gang"): "Gang ×2 · Ben · won",
    ("en", "Gang", "Ben", "redeal"): "Redealt",
    ("en", "Gang", "Ben", "tiebreak"): "Tie-break won by Clara",
    ("en", "Gang", "Benedikt", "gang"): "Gang ×2 · Benedikt · won",
    ("en", "Gang", "Benedikt", "redeal"): "Redealt",
    ("en", "Gang", "Benedikt", "tiebreak"): "Tie-break won by Clara",
    ("en", "Durchmarsch", "Ben", "gang"): "Durchmarsch ×2 · Ben · won",
    ("en", "Durchmarsch", "Ben", "redeal"): "Redealt",
    ("en", "Durchmarsch", "Ben", "tiebreak"): "Tie-break won by Clara",
    ("en", "Durchmarsch", "Benedikt", "gang"): "Durchmarsch ×2 · Benedikt · won",
    ("en", "Durchmarsch", "Benedikt", "redeal"): "Redealt",
    ("en", "Durchmarsch", "Benedikt", "tiebreak"): "Tie-break won by Clara",
}


def renamed(rules, code: str, name: str):
    catalog = tuple(
        dataclasses.replace(c, name=name) if c.code == code else c for c in rules.catalog
    )
    return dataclasses.replace(rules, catalog=catalog)


def test_a_text_is_the_one_for_its_names_rules_and_language():
    other = renamed(RULES, "gang", "Durchmarsch")
    entries = {"gang": GANG, "redeal": core.Redeal(), "tiebreak": core.TieBreak(2)}
    for language in ("de", "en", "de"):
        with translation.override(language):
            for rules in (RULES, other, RULES):
                for players in (PLAYERS, [Person("Anna"), Person("Benedikt"), Person("Clara")]):
                    for kind, entry in entries.items():
                        text = entry_text(entry, players, rules)
                        gang = "Durchmarsch" if rules is other else "Gang"
                        assert text == EXPECTED[language, gang, players[1].name, kind]
    with translation.override("de"):
        assert entry_text(GANG, PLAYERS, RULES) != entry_text(GANG, PLAYERS, other)
        assert "Durchmarsch" in entry_text(GANG, PLAYERS, other)
        assert "Benedikt" in entry_text(GANG, [Person("A"), Person("Benedikt"), Person("C")], RULES)
        german = entry_text(GANG, PLAYERS, RULES)
    with translation.override("en"):
        assert entry_text(GANG, PLAYERS, RULES) != german


def test_an_equal_rule_set_of_another_sheet_gives_the_same_text():
    again = core.RuleSet.from_dict(preset_data()["wiki"])
    assert again is not RULES
    assert entry_text(GANG, PLAYERS, again) == entry_text(GANG, PLAYERS, RULES)
