"""Forms of bodies and cups: they read the POST; ``cups.services`` decides what may
stand. Every form that makes something carries a one-time key."""

import uuid
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from base.errors import RuleError
from base.numbers import whole_number
from clubs.forms import IdChoiceField, LinesField, form_field, rule_error_text
from clubs.models import Club, Player
from cups.models import Person
from cups.services import CupSettings
from seasons import ranking
from tournaments.models import Tournament


def date_input() -> forms.DateInput:
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class BodyForm(forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
    name = forms.CharField(label=_("Name"), max_length=100)
    slug = forms.SlugField(
        label=_("Short name"),
        max_length=50,
        required=False,
        help_text=_("for the address; made from the name when left empty"),
    )


class AdminForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)


class NightField(IdChoiceField):
    """A choice of nights, each as "01.12.2026 · its club · its name"."""

    def label_from_instance(self, obj: Tournament) -> str:
        return f"{obj.starts_at:%d.%m.%Y} · {obj.club.name} · {obj.name}"


class JoinForm(forms.Form):
    club = IdChoiceField(label=_("Club"), queryset=Club.objects.none())

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "club", forms.ModelChoiceField).queryset = clubs


class CupForm(forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
    name = forms.CharField(label=_("Name"), max_length=100)
    slug = forms.SlugField(label=_("Short name"), max_length=50, required=False)
    first_day = forms.DateField(label=_("First day"), widget=date_input())
    last_day = forms.DateField(label=_("Last day"), widget=date_input())
    points_key = LinesField(
        label=_("Points key"),
        max_lines=ranking.KEY_MAX_LINES,
        max_length=ranking.KEY_MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One line per place or range of places: 1: 25, 5-8: 10, 9-16: 5."),
    )
    participation = forms.IntegerField(
        label=_("Points for taking part"), min_value=0, max_value=1000, initial=1
    )
    best_of = forms.IntegerField(
        label=_("Best nights counted"),
        min_value=1,
        max_value=1000,
        required=False,
        help_text=_("empty: every night counts"),
    )
    categories = forms.CharField(
        label=_("Categories"),
        max_length=600,
        required=False,
        help_text=_("separate tables, by the clubs' categories, e.g. Damen, Jugend, Senioren"),
    )
    qualify_top = forms.IntegerField(
        label=_("Top places qualify for the final"), min_value=1, max_value=10000, required=False
    )
    qualify_per_heat = forms.IntegerField(
        label=_("Top places of each heat qualify"), min_value=1, max_value=10000, required=False
    )
    final = NightField(label=_("Final"), queryset=Tournament.objects.none(), required=False)

    def __init__(self, *args: Any, finals: QuerySet[Tournament], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "final", NightField).queryset = finals
        if not self.is_bound and not self.initial.get("points_key"):
            self.initial["points_key"] = ranking.key_text(ranking.DEFAULT_KEY)

    def clean_points_key(self) -> list[ranking.KeyLine]:
        try:
            return ranking.parse_key(self.cleaned_data["points_key"])
        except RuleError as error:
            raise forms.ValidationError(rule_error_text(error)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, last = data.get("first_day"), data.get("last_day")
        if first and last and last < first:
            self.add_error("last_day", _("The last day comes before the first day."))
        return data

    def settings(self) -> CupSettings:
        data = self.cleaned_data
        return CupSettings(
            name=data["name"],
            slug=data["slug"],
            first_day=data["first_day"],
            last_day=data["last_day"],
            points_key=data["points_key"],
            participation=data["participation"],
            best_of=data["best_of"],
            categories=tuple(c.strip() for c in data["categories"].split(",")),
            qualify_top=data["qualify_top"],
            qualify_per_heat=data["qualify_per_heat"],
            final=data["final"],
        )


class NightForm(forms.Form):
    tournament = NightField(label=_("Night"), queryset=Tournament.objects.none())
    heat = forms.CharField(
        label=_("Heat"), max_length=40, required=False, help_text=_("empty: no heat")
    )

    def __init__(self, *args: Any, nights: QuerySet[Tournament], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "tournament", NightField).queryset = nights


class LinkForm(forms.Form):
    """Link ``player`` to one of ``persons`` or, with ``person`` "new", a new person."""

    player = IdChoiceField(queryset=Player.objects.none(), widget=forms.HiddenInput)
    person = forms.CharField(label=_("Cup person"), max_length=20)

    def __init__(
        self, *args: Any, players: QuerySet[Player], persons: QuerySet[Person], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "player", forms.ModelChoiceField).queryset = players
        self.persons = persons

    def clean_person(self) -> Person | None:
        value = self.cleaned_data["person"]
        if value == "new":
            return None
        pk = whole_number(value)
        found = self.persons.filter(pk=pk).first() if pk is not None else None
        if found is None:
            raise forms.ValidationError(_("Choose a person of the list, or a new person."))
        return found


class InviteForm(forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
