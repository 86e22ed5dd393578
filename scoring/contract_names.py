"""Contract names in the reader's language (RULES.md 3.1).

The presets (``seeds/rulesets.json``) name their contracts in German; those names are
message ids (context ``"contract"``) with an English translation in
``locale/en/LC_MESSAGES/django.po``. A name a club typed itself (a renamed contract,
an added one) is not a preset's name and is shown as typed, in every language.
"""

from dataclasses import replace
from functools import cache

from django.utils.translation import pgettext, pgettext_lazy

from scoring import rules as core
from scoring.rules.presets import preset_data

PRESET_NAMES = (
    pgettext_lazy("contract", "Normales Spiel"),
    pgettext_lazy("contract", "Bettler"),
    pgettext_lazy("contract", "Assenbettler"),
    pgettext_lazy("contract", "Ass-Bettler"),
    pgettext_lazy("contract", "Schnapser"),
    pgettext_lazy("contract", "Plauderer"),
    pgettext_lazy("contract", "Damengang"),
    pgettext_lazy("contract", "Königsgang"),
    pgettext_lazy("contract", "Gang"),
    pgettext_lazy("contract", "Zehnergang"),
    pgettext_lazy("contract", "Zehnerloch"),
    pgettext_lazy("contract", "Bauernloch"),
    pgettext_lazy("contract", "Bauernschnapser"),
    pgettext_lazy("contract", "Kontraschnapser"),
    pgettext_lazy("contract", "Farbenringerl"),
    pgettext_lazy("contract", "Kontrabauernschnapser"),
    pgettext_lazy("contract", "Trumpfringerl"),
)
"""Every contract name of the presets, marked for ``makemessages``, which does not read
the JSON file; a test keeps this list and the file in step."""

PRESET_LABELS = (
    pgettext_lazy("rule set", "Standard (Wiki)"),
    pgettext_lazy("rule set", "Spielregeln (jeder gegen jeden)"),
    pgettext_lazy("rule set", "Bauernschnapsen (vier Spieler)"),
)
"""The presets' own names (``label``), shown by ``scoring.models.RuleSet.__str__``."""


@cache
def preset_pairs() -> frozenset[tuple[str, str]]:
    """``(code, German name)`` of every contract of every preset."""
    return frozenset(
        (item["code"], item["name"]) for data in preset_data().values() for item in data["catalog"]
    )


def shown_name(code: str, name: str) -> str:
    """``name`` of contract ``code`` in the active language when it is a preset's name
    for that code, else ``name`` as the club typed it."""
    if (code, name) in preset_pairs():
        return pgettext("contract", name)
    return name


def shown_rules(rules: core.RuleSet) -> core.RuleSet:
    """The same rule set with its contract names as ``shown_name`` gives them: for
    display only, never to be stored (the stored names stay German)."""
    catalog = tuple(replace(c, name=shown_name(c.code, c.name)) for c in rules.catalog)
    return replace(rules, catalog=catalog)
