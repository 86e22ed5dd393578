"""Forms of the score sheet: they read the POST into a rule-core entry, nothing more.

Field checks live here (a choice, a number in range); whether the entry may stand at
its place on the sheet is decided by the rule core through ``scoring.services``,
whose RuleError the view puts on the field it names.
"""

import uuid
from typing import Any

from django import forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.forms import IdChoiceField, form_field
from clubs.models import Player
from scoring import rules as core
from scoring.models import RuleSet, Variant

KINDS = ("dreier", "redeal", "tiebreak", "quick", "ended")
YES_NO = [("1", _("yes")), ("0", _("no"))]


def _bool(value: str) -> bool:
    return value == "1"


class EntryForm(forms.Form):
    """One entry of a sheet. ``kind`` says which fields it needs:

    - ``dreier``: declarer, contract, won, spritzen (0..3), normal_points (normal game)
    - ``redeal``: nothing more
    - ``tiebreak``: tiebreak_winner
    - ``quick``: winner, points (two players)
    - ``ended``: end, by, other_augen, other_had_trick (two players)
    """

    key = forms.UUIDField(widget=forms.HiddenInput)
    kind = forms.ChoiceField(choices=[(k, k) for k in KINDS], widget=forms.HiddenInput)
    declarer = forms.TypedChoiceField(
        label=_("Declarer"), coerce=int, required=False, empty_value=None
    )
    contract = forms.ChoiceField(label=_("Contract"), required=False)
    won = forms.TypedChoiceField(
        label=_("Won"), choices=YES_NO, coerce=_bool, required=False, empty_value=None
    )
    spritzen = forms.TypedChoiceField(
        label=_("Spritzen"),
        coerce=int,
        required=False,
        empty_value=0,  # type: ignore[arg-type]  # django-stubs: text or None; Django: any
        choices=[("0", "–"), ("1", "×2"), ("2", "×4"), ("3", "×8")],
    )
    normal_points = forms.TypedChoiceField(
        label=_("Points"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[(str(i), str(i)) for i in (1, 2, 3)],
    )
    tiebreak_winner = forms.TypedChoiceField(
        label=_("Tie-break won by"), coerce=int, required=False
    )
    winner = forms.TypedChoiceField(label=_("Winner"), coerce=int, required=False, empty_value=None)
    points = forms.TypedChoiceField(
        label=_("Points"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[(str(i), str(i)) for i in (1, 2, 3)],
    )
    end = forms.ChoiceField(
        label=_("How the deal ended"),
        required=False,
        choices=[
            (core.End.AUSMELDEN.value, _("melded out (Ausmelden)")),
            (core.End.LAST_TRICK.value, _("last trick")),
            (core.End.CLOSED_WON.value, _("closed and reached 66")),
            (core.End.CLOSED_FAILED.value, _("closed and failed")),
            (core.End.FALSE_CLAIM.value, _("claimed 66 falsely")),
            (core.End.RENONCE.value, _("revoked (Renonce)")),
        ],
    )
    by = forms.TypedChoiceField(label=_("By"), coerce=int, required=False, empty_value=None)
    other_augen = forms.IntegerField(
        label=_("Augen of the other player"), required=False, min_value=0, max_value=120
    )
    other_had_trick = forms.TypedChoiceField(
        label=_("The other player had a trick"),
        choices=YES_NO,
        coerce=_bool,
        required=False,
        empty_value=None,
    )

    SHOWN = {
        "dreier": ("declarer", "contract", "won", "spritzen", "normal_points"),
        "redeal": (),
        "tiebreak": ("tiebreak_winner",),
        "quick": ("winner", "points"),
        "ended": ("end", "by", "other_augen", "other_had_trick"),
    }
    """The fields each kind of entry shows; errors on other fields go above the form."""

    REQUIRED = {
        "dreier": ("declarer", "contract", "won"),
        "redeal": (),
        "tiebreak": ("tiebreak_winner",),
        "quick": ("winner", "points"),
        "ended": ("end", "by"),
    }

    def __init__(self, *args, players=(), rules: core.RuleSet | None = None, **kwargs):
        kwargs.setdefault("initial", {}).setdefault("key", uuid.uuid4())
        contracts = tuple((c.code, c.name) for c in rules.contracts) if rules else None
        super().__init__(*args, **kwargs)
        seats = [(str(i), p.name) for i, p in enumerate(players)]
        for name in ("declarer", "tiebreak_winner", "winner", "by"):
            form_field(self, name, forms.ChoiceField).choices = seats
        if contracts is not None:
            form_field(self, "contract", forms.ChoiceField).choices = list(contracts)
        self.rules = rules
        self.entry: core.sheet.Entry | None = None
        """The entry read, once the form is valid."""

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        kind = data.get("kind")
        if kind is None:
            return data
        for name in self.REQUIRED[kind]:
            if data.get(name) in (None, "") and name not in self.errors:
                self.add_error(name, _("Please choose."))
        if self.errors:
            return data
        if kind == "dreier":
            if data["contract"] == "normal" and self.rules and not self.rules.spritzen_on_normal:
                # The Spritzen buttons are hidden on the normal game: a level chosen for
                # another contract before switching back is not meant.
                data["spritzen"] = 0
            if self.rules and data["contract"] in self.rules.not_spritzable:
                data["spritzen"] = 0  # hidden for this contract: a level left from another
            self.entry = core.DreierDeal(
                contract=data["contract"],
                declarer=data["declarer"],
                won=data["won"],
                spritzen=data.get("spritzen") or 0,
                # Points belong to the normal game only; a stale choice is dropped.
                normal_points=data.get("normal_points") if data["contract"] == "normal" else None,
            )
        elif kind == "redeal":
            self.entry = core.Redeal()
        elif kind == "tiebreak":
            self.entry = core.TieBreak(data["tiebreak_winner"])
        elif kind == "quick":
            self.entry = core.QuickDeal(data["winner"], data["points"])
        else:
            self.entry = core.EndedDeal(
                end=data["end"],
                by=data["by"],
                other_augen=data.get("other_augen"),
                other_had_trick=data.get("other_had_trick"),
            )
        return data


class OpenSheetForm(forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput)
    variant = forms.ChoiceField(
        label=_("Game"),
        choices=Variant.choices,
        initial=Variant.DREIERSCHNAPSEN,
        widget=forms.RadioSelect,
    )
    title = forms.CharField(label=_("Title"), max_length=100, required=False)
    player_1 = IdChoiceField(label=_("Seat 1 (deals first)"), queryset=Player.objects.none())
    player_2 = IdChoiceField(label=_("Seat 2 (to the left)"), queryset=Player.objects.none())
    player_3 = IdChoiceField(
        label=_("Seat 3"),
        queryset=Player.objects.none(),
        required=False,
        help_text=_("Empty for two-player Schnapsen."),
    )
    player_4 = IdChoiceField(
        label=_("Seat 4"),
        queryset=Player.objects.none(),
        required=False,
        help_text=_("Bauernschnapsen only: seats 1 and 3 play against seats 2 and 4."),
    )
    rule_set = IdChoiceField(label=_("Rule set"), queryset=RuleSet.objects.none())

    def __init__(self, *args, club, **kwargs):
        kwargs.setdefault("initial", {}).setdefault("key", uuid.uuid4())
        super().__init__(*args, **kwargs)
        players = Player.objects.filter(club=club)
        for name in ("player_1", "player_2", "player_3", "player_4"):
            field = form_field(self, name, forms.ModelChoiceField)
            field.queryset = players
            field.empty_label = _("– choose a player –")
        values = self.data if self.is_bound else self.initial
        variant = values.get("variant", None if self.is_bound else self.fields["variant"].initial)
        if variant != Variant.BAUERNSCHNAPSEN and values.get("player_4") in (None, ""):
            # Only Bauernschnapsen has a fourth seat: the other games' form shows none
            # (unless one was chosen, so that its refusal is seen where it is).
            self.fields["player_4"].widget = forms.HiddenInput()
        rule_sets = RuleSet.objects.filter(club__isnull=True) | RuleSet.objects.filter(club=club)
        self.rule_sets = rule_sets
        form_field(self, "rule_set", forms.ModelChoiceField).queryset = rule_sets.order_by(
            "club_id", "name"
        )
        if "rule_set" not in self.initial:
            self.initial["rule_set"] = self.starting_rule_set(self.initial.get("variant"))

    def starting_rule_set(self, variant) -> RuleSet | None:
        """The preset a table of ``variant`` starts from: Bauernschnapsen its own (RULES.md
        4.1), the others wiki."""
        bauern = variant == Variant.BAUERNSCHNAPSEN
        return self.rule_sets.filter(
            preset="bauern" if bauern else "wiki", club__isnull=True
        ).first()

    def fitting_rule_set(self, variant, chosen: str) -> str:
        """The rule set (its id as text) to show once ``variant`` is picked, ``chosen``
        being the one shown before: a preset of another game gives way to the game's own
        (Bauernschnapsen's needs its teams' contracts; the others are not played by it);
        a club's own rule set stays."""
        found = self.rule_sets.filter(pk=chosen).first() if chosen.isdigit() else None
        bauern = variant == Variant.BAUERNSCHNAPSEN
        if found is not None and (
            (found.preset == "bauern") == bauern or (found.club_id and not found.preset)
        ):
            return chosen
        start = self.starting_rule_set(variant)
        return str(start.pk) if start is not None else chosen

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        variant = data.get("variant")
        chosen = [data.get(f"player_{i}") for i in (1, 2, 3, 4)]
        if variant == Variant.SCHNAPSEN and chosen[2] is not None:
            self.add_error("player_3", _("Two-player Schnapsen has two seats."))
        if (
            variant == Variant.DREIERSCHNAPSEN
            and chosen[2] is None
            and "player_3" not in self.errors
        ):
            self.add_error("player_3", _("Dreierschnapsen needs a third player."))
        if variant != Variant.BAUERNSCHNAPSEN and chosen[3] is not None:
            self.add_error("player_4", _("Only Bauernschnapsen has a fourth seat."))
        if variant == Variant.BAUERNSCHNAPSEN:
            for i in (3, 4):
                if chosen[i - 1] is None and f"player_{i}" not in self.errors:
                    self.add_error(f"player_{i}", _("Bauernschnapsen needs four players."))
            rule_set = data.get("rule_set")
            if rule_set is not None and rule_set.club_id is None and rule_set.preset != "bauern":
                # A preset of the three-player game has no teams' contracts (RULES.md 4.1).
                self.add_error(
                    "rule_set",
                    _(
                        "Bauernschnapsen is played by the Bauernschnapsen rule set or a copy: "
                        "it is chosen now."
                    ),
                )
        present = [p for p in chosen if p is not None]
        if len({p.pk for p in present}) != len(present):
            self.add_error("player_2", _("Every seat needs a different player."))
        data["players"] = present
        return data


class ImportForm(forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)
    title = forms.CharField(label=_("Title"), max_length=100, required=False)
    document = forms.CharField(
        label=_("Sheet as JSON"), widget=forms.Textarea(attrs={"rows": 10}), required=False
    )
    # Django's own words for a file that did not come, in the site's voice (its German
    # says "Sie").
    file = forms.FileField(
        label=_("or a file"),
        required=False,
        error_messages={
            "invalid": _("No file came through: choose the file again and send it once more."),
            "contradiction": _("Choose a file or clear the field, not both."),
        },
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        text = data.get("document") or ""
        limit = settings.BUMMERL_IMPORT_MAX_BYTES
        too_big = _("A sheet to import has at most %(limit)s kB.") % {"limit": limit // 1024}
        if upload:
            if upload.size > limit:
                self.add_error("file", too_big)
                return data
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                self.add_error("file", _("The file is not UTF-8 text."))
                return data
        elif len(text.encode("utf-8", "replace")) > limit:
            self.add_error("document", too_big)
            return data
        if not text.strip():
            self.add_error("document", _("Paste a sheet or choose a file."))
        data["text"] = text
        return data


OPTION_LABELS = {
    "announcements_need_trick": _("A Zwanziger/Vierziger counts only after a trick"),
    "closing_counts_at": _("After Zudrehen, the loser's Augen count"),
    "false_claim": _("A false Ausmelden gives the opponent"),
    "schneider_counts": _("Bummerl for a Schneider"),
    "retourschneider_counts": _("Bummerl each for a Retourschneider"),
    "partie_bummerl": _("Bummerl that win a Partie"),
    "spritzen_on_normal": _("Spritzen allowed on the normal game"),
    "normal_game": _("Normal game (Dreierschnapsen)"),
    "game_target": _("A Dreierschnapsen game goes to"),
    "count_down_display": _("Show Dreierschnapsen points counting down"),
    "spritzen_levels": _("Spritzen allowed up to"),
    "schnapser_by_partner": _("Bauernschnapsen: the Rufer's partner may play the Schnapser"),
}
LIST_OPTIONS = {
    "common_contracts": ("common", _("shown first")),
    "not_spritzable": ("no_spritzen", _("no Spritzen")),
    "partner_sits_out": ("alone", _("partner sits out")),
}
"""Options that list contract codes: a tick per contract (``<code>-<suffix>``), in the
column named here."""
OPTION_CHOICES: dict[str, list[tuple[str, str | Promise]]] = {
    "closing_counts_at": [("close", _("when the talon was closed")), ("end", _("at the end"))],
    "false_claim": [
        ("fixed", _("2, or 3 if he had no trick")),
        ("mirror", _("what the claim would have won")),
    ],
    "normal_game": [
        ("caller_vs_two", _("the Rufer against the other two")),
        ("each_for_himself", _("every player for himself")),
    ],
    "partie_bummerl": [("2", "2"), ("3", "3")],
    "spritzen_levels": [
        ("0", _("no Spritzen")),
        ("1", "×2"),
        ("2", "×4"),
        ("3", "×8"),
    ],
}
INT_CHOICES = ("partie_bummerl", "spritzen_levels")
DECLARE_CHOICES = [
    ("anyone", _("anyone")),
    ("rufer", _("the Rufer only")),
    ("not_rufer", _("not the Rufer (Bauernschnapsen: the other team)")),
]


class RuleSetForm(forms.Form):
    """Options and contracts of a club's rule set; ``to_data()`` gives the core's dict.
    Contract fields are named ``<code>-name``, ``<code>-base``, ``<code>-enabled``."""

    name = forms.CharField(label=_("Name"), max_length=80)
    new_code = forms.SlugField(label=_("New contract: code"), required=False, max_length=30)
    new_name = forms.CharField(label=_("Name"), required=False, max_length=60)
    new_base = forms.IntegerField(label=_("Value"), required=False, min_value=1, max_value=999)
    new_may_declare = forms.ChoiceField(
        label=_("May declare"), choices=DECLARE_CHOICES, required=False
    )

    def __init__(self, *args, rules: core.RuleSet, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.fields["name"].initial = rules.name
        for key, value in rules.options.items():
            label = OPTION_LABELS.get(key, key)
            if isinstance(value, list):
                continue  # a tick per contract (LIST_OPTIONS)
            field: forms.Field
            if isinstance(value, bool):
                field = forms.BooleanField(label=label, required=False, initial=value)
            elif key in OPTION_CHOICES:
                field = forms.ChoiceField(
                    label=label, choices=OPTION_CHOICES[key], initial=str(value)
                )
            else:
                field = forms.IntegerField(label=label, initial=value, min_value=1, max_value=100)
            self.fields[f"opt_{key}"] = field
        for contract in rules.catalog:
            code = contract.code
            self.fields[f"{code}-name"] = forms.CharField(
                label=code, max_length=60, initial=contract.name
            )
            if contract.base is not None:
                self.fields[f"{code}-base"] = forms.IntegerField(
                    label=_("Value"), min_value=1, max_value=999, initial=contract.base
                )
                self.fields[f"{code}-enabled"] = forms.BooleanField(
                    label=_("played"), required=False, initial=contract.enabled
                )
                for key, (suffix, label) in LIST_OPTIONS.items():
                    self.fields[f"{code}-{suffix}"] = forms.BooleanField(
                        label=label,
                        required=False,
                        initial=code in (rules.options.get(key) or ()),
                    )

    def list_labels(self):
        """The headings of the tick columns of the contract table (LIST_OPTIONS)."""
        return [label for _suffix, label in LIST_OPTIONS.values()]

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith("opt_")]

    def contract_rows(self):
        rows = []
        for contract in self.rules.catalog:
            code = contract.code
            rows.append(
                {
                    "contract": contract,
                    "name": self[f"{code}-name"],
                    "base": self[f"{code}-base"] if contract.base is not None else None,
                    "enabled": self[f"{code}-enabled"] if contract.base is not None else None,
                    "ticks": [self[f"{code}-{suffix}"] for suffix, _label in LIST_OPTIONS.values()]
                    if contract.base is not None
                    else [],
                }
            )
        return rows

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        code = data.get("new_code")
        if code and any(c.code == code for c in self.rules.catalog):
            self.add_error("new_code", _("This code is taken."))
        if code and not data.get("new_base"):
            self.add_error("new_base", _("A new contract needs a value."))
        return data

    def to_data(self) -> dict:
        data = self.cleaned_data
        options: dict[str, Any] = {}
        for key, value in self.rules.options.items():
            if isinstance(value, list):  # LIST_OPTIONS
                suffix = LIST_OPTIONS[key][0]
                options[key] = [
                    c.code
                    for c in self.rules.catalog
                    if c.base is not None and data.get(f"{c.code}-{suffix}")
                ]
                continue
            raw: Any = data.get(f"opt_{key}")
            options[key] = int(raw) if key in INT_CHOICES else raw
            if isinstance(value, bool):
                options[key] = bool(raw)
        catalog = []
        for contract in self.rules.catalog:
            item = contract.to_dict()
            item["name"] = data[f"{contract.code}-name"]
            if contract.base is not None:
                item["base"] = data[f"{contract.code}-base"]
                item["enabled"] = data[f"{contract.code}-enabled"]
            catalog.append(item)
        if data.get("new_code"):
            catalog.append(
                {
                    "code": data["new_code"],
                    "name": data.get("new_name") or data["new_code"],
                    "base": data["new_base"],
                    "may_declare": data.get("new_may_declare") or "anyone",
                    "leads": "declarer",
                }
            )
        return {"name": data["name"], "options": options, "catalog": catalog}


class TitleForm(forms.Form):
    """A table's new title; empty: the table is called by its players' names."""

    title = forms.CharField(label=_("Title"), max_length=100, required=False)
