"""Rule sets as data (RULES.md sections 1-3 and the options named there).

A ``RuleSet`` holds the options of every variant and the contract catalogue of
Dreier- and Bauernschnapsen. It is built from a plain dict (``RuleSet.from_dict``), the shape stored in
the database and in ``seeds/rulesets.json``::

    {"name": "wiki", "options": {"false_claim": "fixed", ...},
     "catalog": [{"code": "gang", "name": "Gang", "base": 9, "trump": false,
                  "may_declare": "anyone", "leads": "declarer", "enabled": true}, ...]}

Options (code names of RULES.md; defaults in ``DEFAULT_OPTIONS``):

- ``announcements_need_trick`` (bool): a Zwanziger/Vierziger counts only after a trick.
- ``closing_counts_at`` ("close" | "end"): when the loser's Augen are counted after Zudrehen.
- ``false_claim`` ("fixed" | "mirror"): what a false Ausmelden gives the opponent.
- ``schneider_counts`` (1..4): Bummerl for a Schneider (both variants).
- ``retourschneider_counts`` (1..8): Bummerl each for a Retourschneider (RULES.md 3.3: 4).
- ``partie_bummerl`` (2 | 3): Bummerl that win a Partie.
- ``spritzen_on_normal`` (bool): Spritzen allowed on the normal game.
- ``normal_game`` ("caller_vs_two" | "each_for_himself").
- ``game_target`` (int, 24): the Dreierschnapsen game ends at this many points.
- ``count_down_display`` (bool): show Dreierschnapsen totals counting down from the target.
- ``common_contracts`` (list of contract codes): the contracts the club plays most; the
  entry form shows them first and the others behind "more contracts" (the normal game
  is always first). Codes not in the catalogue or disabled are left out.
- ``spritzen_levels`` (0..3): the highest Spritzen level allowed (3: up to x8; the
  ``bauern`` preset: 1, only x2). RULES.md 4.2, for both Dreierschnapsen and
  Bauernschnapsen.
- ``not_spritzable`` (list of contract codes): contracts that cannot be spritzed
  (RULES.md 4.2; empty in the Dreierschnapsen presets).
- ``schnapser_by_partner`` (bool): Bauernschnapsen: the Rufer's partner may also
  declare the contracts the Rufer declares (Schnapser, Bauernschnapser). RULES.md 4.1.
- ``partner_sits_out`` (list of contract codes): Bauernschnapsen: contracts the
  declarer plays alone while his partner sits out (shown on the sheet; the partner
  shares his team's result all the same). RULES.md 4.1.
"""

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from base.errors import RuleError, gettext_noop

BUMMERL_START = 7
"""Two-player Schnapsen: both players start a Bummerl at 7 and count down (RULES.md 2)."""


class MayDeclare(StrEnum):
    """Who may declare a contract (RULES.md 3.1, column "may declare")."""

    ANYONE = "anyone"
    RUFER = "rufer"
    NOT_RUFER = "not_rufer"


class Leads(StrEnum):
    RUFER = "rufer"
    DECLARER = "declarer"


NORMAL = "normal"
"""Code of the normal game, whose value is 1, 2 or 3 by the losers' showing."""

MAX_CONTRACTS = 100
"""The most contracts of a rule set taken in from outside (an import, the rule-set
form; the presets have 9 to 16): every sheet of it lists them on each entry form."""


def check_contract_count(count: int) -> None:
    """RuleError on ``catalog`` when a rule set taken in would have more than
    ``MAX_CONTRACTS`` contracts (``count``); checked before the catalogue is read.
    Rule sets stored already are read whatever their size."""
    if count > MAX_CONTRACTS:
        raise RuleError(
            "catalog",
            gettext_noop("A rule set has at most %(most)s contracts, this one %(count)s."),
            most=MAX_CONTRACTS,
            count=count,
        )


DEFAULT_OPTIONS: dict[str, Any] = {
    "announcements_need_trick": True,
    "closing_counts_at": "close",
    "false_claim": "fixed",
    "schneider_counts": 2,
    "retourschneider_counts": 4,
    "partie_bummerl": 2,
    "spritzen_on_normal": False,
    "normal_game": "caller_vs_two",
    "game_target": 24,
    "count_down_display": False,
    "common_contracts": [
        "bettler",
        "assenbettler",
        "ass_bettler",
        "schnapser",
        "gang",
        "kontraschnapser",
    ],
    "spritzen_levels": 3,
    "not_spritzable": [],
    "schnapser_by_partner": True,
    "partner_sits_out": [],
}

MAX_SPRITZEN = 3
"""gespritzt (x2), zurückgespritzt (x4), nochmal zurückgespritzt (x8)."""

_CHOICES: dict[str, tuple[Any, ...]] = {
    "closing_counts_at": ("close", "end"),
    "false_claim": ("fixed", "mirror"),
    "normal_game": ("caller_vs_two", "each_for_himself"),
    "partie_bummerl": (2, 3),
}
_RANGES: dict[str, tuple[int, int]] = {
    "schneider_counts": (1, 4),
    "retourschneider_counts": (1, 8),
    "game_target": (6, 100),
    "spritzen_levels": (0, MAX_SPRITZEN),
}


@dataclass(frozen=True)
class Contract:
    """One Dreierschnapsen contract of a catalogue.

    ``base`` is the value in points before Spritzen; None for the normal game, whose
    value (1..3) is entered per deal. ``trump`` None means the sources say nothing.
    """

    code: str
    name: str
    base: int | None
    trump: bool | None = None
    may_declare: MayDeclare = MayDeclare.ANYONE
    leads: Leads = Leads.DECLARER
    enabled: bool = True

    def allows(self, declarer: int, rufer: int) -> bool:
        """Whether the player in seat ``declarer`` may declare it when ``rufer`` is Rufer."""
        if self.may_declare is MayDeclare.RUFER:
            return declarer == rufer
        if self.may_declare is MayDeclare.NOT_RUFER:
            return declarer != rufer
        return True

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "base": self.base,
            "trump": self.trump,
            "may_declare": str(self.may_declare),
            "leads": str(self.leads),
            "enabled": self.enabled,
        }


@dataclass(frozen=True)
class RuleSet:
    """Options and contract catalogue of one rule set (see the module docstring)."""

    name: str
    catalog: tuple[Contract, ...]
    options: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_OPTIONS))

    def __getattr__(self, name: str) -> Any:
        # Options read as attributes: rules.false_claim, rules.partie_bummerl, ...
        options = self.__dict__.get("options", {})
        if name in options:
            return options[name]
        raise AttributeError(name)

    def contract(self, code: str) -> Contract:
        """The enabled contract ``code``; RuleError(field="contract") when absent or disabled."""
        for contract in self.catalog:
            if contract.code == code and contract.enabled:
                return contract
        raise RuleError(
            "contract", gettext_noop("The rule set has no contract %(code)s."), code=code
        )

    @property
    def contracts(self) -> tuple[Contract, ...]:
        """The enabled contracts, normal game first, then by base value."""
        enabled = [c for c in self.catalog if c.enabled]
        return tuple(sorted(enabled, key=lambda c: (c.base is not None, c.base or 0)))

    @property
    def common(self) -> tuple[Contract, ...]:
        """The enabled contracts the entry form shows first (``common_contracts``), in
        the order of ``contracts``; the normal game is always one of them."""
        wanted = set(self.options.get("common_contracts") or ())
        return tuple(c for c in self.contracts if c.code == NORMAL or c.code in wanted)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RuleSet":
        """Build and check a rule set; RuleError names the bad option or contract."""
        if not isinstance(data, dict):
            raise RuleError("rule_set", gettext_noop("A rule set must be an object."))
        options = {k: list(v) if isinstance(v, list) else v for k, v in DEFAULT_OPTIONS.items()}
        raw_options = data.get("options") or {}
        if not isinstance(raw_options, dict):
            raise RuleError("options", gettext_noop("Options must be an object."))
        for key, value in raw_options.items():
            options[key] = _check_option(key, value)
        raw_catalog = data.get("catalog")
        if not isinstance(raw_catalog, list) or not raw_catalog:
            raise RuleError("catalog", gettext_noop("The contract catalogue must be a list."))
        catalog = tuple(_contract_from_dict(item) for item in raw_catalog)
        codes = [c.code for c in catalog]
        if len(set(codes)) != len(codes):
            raise RuleError("catalog", gettext_noop("A contract code appears twice."))
        if NORMAL not in codes:
            raise RuleError("catalog", gettext_noop("The catalogue needs the normal game."))
        return cls(name=str(data.get("name", "")), catalog=catalog, options=options)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "options": {k: list(v) if isinstance(v, list) else v for k, v in self.options.items()},
            "catalog": [c.to_dict() for c in self.catalog],
        }

    def with_changes(
        self, options: dict[str, Any] | None = None, catalog: dict[str, Any] | None = None
    ) -> "RuleSet":
        """A copy with some options set and some contracts changed.

        ``catalog`` maps a contract code to a new base value (int), to ``None`` or
        ``False`` (disable it), or to a dict of fields (``name``, ``base``, ``enabled`` …);
        an unknown code with a dict adds a contract.
        """
        data = self.to_dict()
        data["options"].update(options or {})
        by_code = {c["code"]: c for c in data["catalog"]}
        for code, change in (catalog or {}).items():
            entry = by_code.get(code)
            if entry is None:
                if not isinstance(change, dict):
                    raise RuleError(
                        f"catalog.{code}",
                        gettext_noop("Unknown contract %(code)s: give its fields."),
                        code=code,
                    )
                entry = {"code": code, "name": code, "base": None}
                data["catalog"].append(entry)
                by_code[code] = entry
            if isinstance(change, bool) or change is None:
                entry["enabled"] = bool(change)
            elif isinstance(change, int):
                entry["base"] = change
            elif isinstance(change, dict):
                entry.update(change)
            else:
                raise RuleError(
                    f"catalog.{code}", gettext_noop("Give a value, false, or an object.")
                )
        return RuleSet.from_dict(data)

    def renamed(self, name: str) -> "RuleSet":
        return replace(self, name=name)


def _check_option(key: str, value: Any) -> Any:
    if key not in DEFAULT_OPTIONS:
        raise RuleError(f"options.{key}", gettext_noop("Unknown option %(key)s."), key=key)
    default = DEFAULT_OPTIONS[key]
    if isinstance(default, list):
        if (
            not isinstance(value, list)
            or len(value) > 100
            or not all(isinstance(v, str) and 0 < len(v) <= 60 for v in value)
        ):
            raise RuleError(f"options.{key}", gettext_noop("Must be a list of contract codes."))
        return list(dict.fromkeys(value))
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RuleError(f"options.{key}", gettext_noop("Must be true or false."))
        return value
    if key in _CHOICES and value not in _CHOICES[key]:
        raise RuleError(
            f"options.{key}",
            gettext_noop("Must be one of %(choices)s."),
            choices=", ".join(str(c) for c in _CHOICES[key]),
        )
    if key in _RANGES:
        low, high = _RANGES[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RuleError(
                f"options.{key}",
                gettext_noop("Must be a whole number from %(low)s to %(high)s."),
                low=low,
                high=high,
            )
    return value


CONTRACT_KEYS = ("code", "name", "base", "trump", "may_declare", "leads", "enabled")
"""The fields of a contract (``Contract.to_dict``); any other is refused, not ignored."""


def _contract_from_dict(item: Any) -> Contract:
    if not isinstance(item, dict) or not isinstance(item.get("code"), str) or not item["code"]:
        raise RuleError("catalog", gettext_noop("Every contract needs a code."))
    code = item["code"]
    where = f"catalog.{code[:30]}"
    for key in item:
        if key not in CONTRACT_KEYS:
            raise RuleError(where, gettext_noop("Unknown field %(key)s."), key=str(key)[:40])
    if "enabled" in item and not isinstance(item["enabled"], bool):
        raise RuleError(where, gettext_noop("Must be true or false."))
    if code == NORMAL:
        # Values the normal game cannot take are refused rather than replaced (RULES.md 3.1).
        if item.get("base") is not None:
            raise RuleError(
                where, gettext_noop("The normal game is worth 1, 2 or 3 by the deal: no value.")
            )
        if any(item.get(key, "rufer") != "rufer" for key in ("may_declare", "leads")):
            raise RuleError(
                where,
                gettext_noop(
                    "The Rufer declares and leads the normal game (see the option normal_game)."
                ),
            )
        if item.get("enabled") is False:
            raise RuleError(where, gettext_noop("The normal game cannot be disabled."))
    for text in (code, item.get("name") or ""):
        if not isinstance(text, str) or any(
            ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF for c in text
        ):
            raise RuleError(where, gettext_noop("Code and name must be plain text."))
    if item.get("trump") not in (True, False, None):
        raise RuleError(where, gettext_noop("Trump is true, false or null."))
    base = item.get("base")
    if code == NORMAL:
        base = None
    elif isinstance(base, bool) or not isinstance(base, int) or not 1 <= base <= 999:
        raise RuleError(where, gettext_noop("The value must be a whole number from 1 to 999."))
    try:
        may_declare = MayDeclare(item.get("may_declare", "anyone"))
        leads = Leads(item.get("leads", "declarer"))
    except ValueError:
        raise RuleError(where, gettext_noop("Unknown value for who declares or leads.")) from None
    name = str(item.get("name") or code).strip()[:60]
    return Contract(
        code=code,
        name=name,
        base=base,
        trump=item.get("trump"),
        may_declare=MayDeclare.RUFER if code == NORMAL else may_declare,
        leads=Leads.RUFER if code == NORMAL else leads,
        enabled=bool(item.get("enabled", True)) or code == NORMAL,
    )
