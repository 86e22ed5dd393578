"""Forms of seasons and ranking settings: they read the POST; ``seasons.services``
decides what may stand."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from base.errors import RuleError
from clubs.forms import LinesField, rule_error_text
from seasons import ranking
from seasons.models import Pick


class SeasonForm(forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
    name = forms.CharField(label=_("Name"), max_length=80)
    first_day = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))


class SettingsForm(forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
    pick = forms.ChoiceField(label=_("Ranking"), choices=Pick.choices, widget=forms.RadioSelect)
    min_games = forms.IntegerField(
        label=_("Minimum of games to be ranked"), min_value=0, max_value=10000
    )
    points_key = LinesField(
        label=_("Points key"),
        max_lines=ranking.KEY_MAX_LINES,
        max_length=ranking.KEY_MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=_("One line per place or range of places: 1: 25, 5-8: 10, 9-16: 5."),
    )
    participation = forms.IntegerField(
        label=_("Points for taking part"), min_value=0, max_value=1000
    )
    public = forms.BooleanField(label=_("Anyone may see the ranking pages"), required=False)

    def clean_points_key(self):
        try:
            return ranking.parse_key(self.cleaned_data["points_key"])
        except RuleError as error:
            raise forms.ValidationError(rule_error_text(error)) from None
