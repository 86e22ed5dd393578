"""Forms of the Preisschnapsen pages: they read and check input; services decide."""

import datetime
import uuid
import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from base.numbers import whole_number
from clubs.forms import IdChoiceField, IdField, LinesField, form_field, rule_error_text
from clubs.models import Category
from scoring.models import RuleSet
from scoring.rules import RuleError
from tournaments import formats, leben
from tournaments.models import Format, ResultCheck
from tournaments.prizes import PERCENT_KIND, prize_money
from tournaments.services.reading import CARD_COUNTS
from tournaments.services.sheets import MATCH_REFUSED_PRESET, check_match_rule_set

VIENNA = zoneinfo.ZoneInfo(settings.TIME_ZONE)


def local_datetime(day: datetime.date, time: datetime.time) -> datetime.datetime:
    """The moment ``day`` at ``time`` in Vienna; ValueError when the clock skips that time
    (spring) or shows it twice (autumn) on a change of daylight saving time."""
    early = datetime.datetime.combine(day, time, tzinfo=VIENNA)
    there_and_back = early.astimezone(datetime.UTC).astimezone(VIENNA)
    if there_and_back.replace(tzinfo=None) != early.replace(tzinfo=None):
        raise ValueError("missing")
    if early.utcoffset() != early.replace(fold=1).utcoffset():
        raise ValueError("ambiguous")
    return early


MAX_PRIZE_PLACE = 1024
"""Prize lists may go past place 8 (RULES.md 5.8): up to the most cards a night has."""

MAX_PRIZE_TEXT = 100_000
"""The most characters of a prize list as typed (``prizes_field``): a thousand lines of
a hundred characters (a prize's description keeps 200)."""


def prizes_field(label, placeholder: str, rows: int, **kwargs) -> LinesField:
    """A prize list's textarea: at most ``MAX_PRIZE_PLACE`` lines (one per prize, as
    there are places) and ``MAX_PRIZE_TEXT`` characters, refused with the limit named
    before the list is parsed."""
    return LinesField(
        label=label,
        required=False,
        max_lines=MAX_PRIZE_PLACE,
        max_length=MAX_PRIZE_TEXT,
        widget=forms.Textarea(attrs={"rows": rows, "placeholder": placeholder}),
        **kwargs,
    )


def parse_prizes(text: str) -> list[dict]:
    """Lines "place: description" (or "place. description") -> [{place, description}],
    places 1 to ``MAX_PRIZE_PLACE`` (the form checks them against the cards laid out)."""
    prizes = []
    seen = set()
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        head, sep, tail = line.replace(".", ":", 1).partition(":")
        place = whole_number(head)
        if not sep or place is None or not tail.strip():
            raise forms.ValidationError(
                _('Line %(n)s: write "place: prize", e.g. "1: Geschenkkorb".'), params={"n": number}
            )
        if not 1 <= place <= MAX_PRIZE_PLACE or place in seen:
            raise forms.ValidationError(
                _("Line %(n)s: places are 1 to %(most)s, each once."),
                params={"n": number, "most": MAX_PRIZE_PLACE},
            )
        seen.add(place)
        prizes.append({"place": place, "description": tail.strip()[:200]})
    return sorted(prizes, key=lambda p: p["place"])


def parse_category_prizes(text: str, club) -> list[dict]:
    """Lines "category place: description" ("Damen 1: Blumen") -> [{category (the id of
    the club's category of that name, case ignored), place, description}] (RULES.md 5.9)."""
    categories = {c.name.casefold(): c for c in Category.objects.filter(club=club)}
    prizes, seen = [], set()
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        head, sep, tail = line.partition(":")
        name, _space, typed = head.strip().rpartition(" ")
        place = whole_number(typed)
        if not sep or place is None or not tail.strip() or not name:
            raise forms.ValidationError(
                _('Line %(n)s: write "category place: prize", e.g. "Damen 1: Blumen".'),
                params={"n": number},
            )
        category = categories.get(name.strip().casefold())
        if category is None:
            raise forms.ValidationError(
                _('Line %(n)s: the club has no category "%(name)s" (add it under Categories).'),
                params={"n": number, "name": name.strip()},
            )
        if not 1 <= place <= MAX_PRIZE_PLACE or (category.pk, place) in seen:
            raise forms.ValidationError(
                _("Line %(n)s: places are 1 to %(most)s, each once."),
                params={"n": number, "most": MAX_PRIZE_PLACE},
            )
        seen.add((category.pk, place))
        prizes.append({"category": category.pk, "place": place, "description": tail.strip()[:200]})
    return sorted(prizes, key=lambda p: (p["category"], p["place"]))


class ConsolationForm(forms.Form):
    """Opening a consolation (RULES.md 5.11): for the losers of rounds 1 to ``rounds``."""

    rounds = forms.IntegerField(label=_("Out in rounds 1 to"), min_value=1, max_value=10)
    by = forms.ChoiceField(
        label=_("One card per"),
        choices=[("cards", _("card out")), ("players", _("player out"))],
        initial="cards",
    )
    prizes = prizes_field(_("Prizes"), "1: Flasche Wein", 3)

    def clean_prizes(self):
        return parse_prizes(self.cleaned_data.get("prizes") or "")


class StechenForm(forms.Form):
    """The order a Stechen gave a shared range (RULES.md 5.8): card numbers, best first;
    ``seen``: the id of the order the page showed (0: none)."""

    key = forms.UUIDField(widget=forms.HiddenInput)
    first = IdField(widget=forms.HiddenInput, max_value=MAX_PRIZE_PLACE)
    seen = IdField(widget=forms.HiddenInput, min_value=0)
    order = forms.CharField(label=_("Cards, the winner first"), max_length=4000)

    def clean_order(self):
        parts = [whole_number(p) for p in self.cleaned_data["order"].replace(",", " ").split()]
        if not parts or None in parts:
            raise forms.ValidationError(_("Write the card numbers, e.g. 12, 5, 31."))
        return parts


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    day = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    time = forms.TimeField(label=_("Start"), widget=forms.TimeInput(attrs={"type": "time"}))
    venue = forms.CharField(
        label=_("Venue"),
        max_length=200,
        required=False,
        help_text=_("Where the night is played, e.g. Gasthaus Grüner Baum, Hauptstraße 1."),
    )
    cards = forms.TypedChoiceField(
        label=_("Cards laid out"), coerce=int, choices=[(n, n) for n in CARD_COUNTS], initial=64
    )
    max_cards = forms.IntegerField(
        label=_("Most cards per player"), min_value=1, max_value=16, initial=3
    )
    match_bummerl = forms.TypedChoiceField(
        label=_("A match is won with"),
        coerce=int,
        choices=[(2, _("2 Bummerl")), (3, _("3 Bummerl"))],
        initial=2,
    )
    rule_set = IdChoiceField(
        label=_("Rule set of the match sheets"),
        queryset=RuleSet.objects.none(),
        required=False,
        empty_label=_("the preset Standard (Wiki)"),
        help_text=_(
            "The club's own copy of a preset may change the rules of a deal; the Bummerl "
            "that win a match and what a Schneider counts are the night's."
        ),
    )
    entry_fee = forms.DecimalField(
        label=_("Entry fee per card (€)"), min_value=0, max_digits=8, decimal_places=2, initial=10
    )
    one_prize_per_player = forms.BooleanField(
        label=_("At most one prize per player"), required=False
    )
    result_check = forms.ChoiceField(
        label=_("Results from the players' phones"),
        choices=ResultCheck.choices,
        initial=ResultCheck.SINGLE,
        required=False,  # left out (an older form, a script): today's single entry
        help_text=_(
            "Checked: a result a player enters with his link counts when the other player "
            "confirms it on his phone, or the desk accepts it."
        ),
    )
    prizes = prizes_field(
        _("Prizes"),
        "1: Geschenkkorb\n2: Schinken\n3: Wein",
        8,
        help_text=_('One line per place: "1: Geschenkkorb".'),
    )

    # The formats of RULES.md 5.10 and 6 (``format_fields``); cards: left as they are.
    format = forms.ChoiceField(
        label=_("Format"), choices=Format.choices, initial=Format.CARDS, required=False
    )
    players = forms.IntegerField(
        label=_("Most players (lives, points)"),
        min_value=2,
        max_value=formats.LEBEN_MAX_ENTRIES,
        required=False,
    )
    lives = forms.IntegerField(
        label=_("Lives per player"),
        min_value=leben.MIN_LIVES,
        max_value=leben.MAX_LIVES,
        initial=1,
        required=False,
    )
    rebuy_until = forms.IntegerField(
        label=_("A life may be bought until round"), min_value=1, max_value=99, required=False
    )
    life_fee = forms.DecimalField(
        label=_("Life fee (€)"),
        min_value=0,
        max_digits=8,
        decimal_places=2,
        required=False,
        help_text=_("What a life bought costs; empty: the entry fee."),
    )
    rounds_planned = forms.IntegerField(
        label=_("Rounds (points)"), min_value=1, max_value=formats.MAX_ROUNDS, required=False
    )
    avoid_repeat = forms.BooleanField(label=_("Avoid the last opponent"), required=False)
    team_size = forms.TypedChoiceField(
        label=_("Teams"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=[("", _("no teams")), (2, "2"), (3, "3"), (4, "4")],
    )
    match_games = forms.TypedChoiceField(
        label=_("A match (points)"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=[
            ("", _("a Partie (as above)")),
            (2, _("exactly 2 Bummerl")),
            (3, _("exactly 3 Bummerl")),
        ],
    )
    schneider_counts = forms.TypedChoiceField(
        label=_("A Schneider counts (points)"),
        coerce=int,
        required=False,
        empty_value=1,  # type: ignore[arg-type]  # django-stubs: text or None; Django: any
        choices=[(1, _("1 Bummerl")), (2, _("2 Bummerl"))],
    )
    bye_bummerl = forms.IntegerField(
        label=_("Bummerl for a bye (points)"),
        min_value=0,
        max_value=6,
        required=False,
        help_text=_("Empty: a won match, 2:0 (3:0 to 3 Bummerl)."),
    )

    def format_fields(self) -> dict:
        """The fields of the chosen format, for ``create_tournament``: lives and points
        events take ``players`` as their ``cards`` (the most entries, one per player)."""
        data = self.cleaned_data
        if data.get("format", "") in ("", Format.CARDS):
            return {"format": Format.CARDS, "cards": data["cards"]}
        fields = {"format": data["format"], "cards": data.get("players") or 1024}
        if data["format"] == Format.LEBEN:
            fields.update(
                lives=data.get("lives") or 1,
                rebuy_until=data.get("rebuy_until"),
                life_fee=data.get("life_fee"),  # None: the entry fee (RULES.md 5.10)
            )
        else:
            fields.update(
                rounds_planned=data.get("rounds_planned"),
                avoid_repeat=data["avoid_repeat"],
                team_size=data.get("team_size"),
                match_games=data.get("match_games"),
                schneider_counts=data.get("schneider_counts") or 1,
                bye_bummerl=data.get("bye_bummerl"),
            )
        return fields

    # Ranking and categories (RULES.md 5.8, 5.9)
    ranking_ties = forms.ChoiceField(
        label=_("Cards out in the same round"),
        choices=[
            ("shared", _("share their places (9–16)")),
            ("stechen", _("are ordered by a Stechen")),
            ("lot", _("are ordered by lot")),
        ],
        initial="shared",
        required=False,
    )
    category_prizes = prizes_field(
        _("Category prizes"),
        "Damen 1: Blumen\nJugend 1: Buch",
        4,
        help_text=_('One line per prize: "category place: prize", e.g. "Damen 1: Blumen".'),
    )
    category_with_overall = forms.BooleanField(
        label=_("A winner of an overall prize may also win a category prize"), required=False
    )

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        # Any preset or rule set of the club is looked up (so that another game's is
        # refused by name, ``clean_rule_set``); the list offers the two-player ones.
        field = form_field(self, "rule_set", forms.ModelChoiceField)
        field.queryset = (
            RuleSet.objects.filter(club__isnull=True) | RuleSet.objects.filter(club=club)
        ).order_by("club_id", "name", "id")
        field.choices = [("", field.empty_label)] + [
            (r.pk, str(r)) for r in field.queryset if r.preset != MATCH_REFUSED_PRESET
        ]

    def clean_rule_set(self):
        rule_set = self.cleaned_data.get("rule_set")
        try:
            check_match_rule_set(self.club, rule_set)
        except RuleError as error:
            raise forms.ValidationError(rule_error_text(error)) from None
        return rule_set

    def clean_prizes(self):
        return parse_prizes(self.cleaned_data.get("prizes") or "")

    def clean_ranking_ties(self):
        return self.cleaned_data.get("ranking_ties") or "shared"  # a form without the field

    def clean_category_prizes(self):
        return parse_category_prizes(self.cleaned_data.get("category_prizes") or "", self.club)

    def clean_day(self):
        day = self.cleaned_data["day"]
        if not 2000 <= day.year <= 2100:
            raise forms.ValidationError(_("Choose a date between 2000 and 2100."))
        return day

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        too_far = [
            p["place"] for p in data.get("prizes") or [] if p["place"] > data.get("cards", 0)
        ]
        if too_far:
            self.add_error(
                "prizes",
                _("Place %(place)s is past the %(cards)s cards laid out.")
                % {"place": too_far[0], "cards": data["cards"]},
            )
        if data.get("day") and data.get("time"):
            try:
                data["starts_at"] = local_datetime(data["day"], data["time"])
            except (ValueError, OverflowError) as error:
                message = (
                    _("This time happens twice that night (the clocks go back): choose another.")
                    if str(error) == "ambiguous"
                    else _(
                        "This time does not exist that night (the clocks go forward): choose another."
                    )
                )
                self.add_error("time", message)
        shares = [
            money[1]
            for p in [*(data.get("prizes") or []), *(data.get("category_prizes") or [])]
            if (money := prize_money(p["description"])) and money[0] == PERCENT_KIND
        ]
        if sum(shares) > 100:
            self.add_error(
                "prizes",
                _("The prizes share out %(percent)s %% of the takings: at most 100 %%.")
                % {"percent": number_format(sum(shares))},
            )
        if data.get("format") == Format.POINTS and not data.get("rounds_planned"):
            self.add_error("rounds_planned", _("A points event needs its number of rounds."))
        return data


class SellForm(forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
    name = forms.CharField(label=_("Name"), max_length=80)
    count = forms.IntegerField(label=_("Cards"), min_value=1, max_value=16, initial=1)
    paid = forms.BooleanField(label=_("paid"), required=False, initial=True)


class TablesForm(forms.Form):
    """How many tables the night is played at; ``seen``: the number the page showed."""

    tables = forms.IntegerField(label=_("Tables"), min_value=0, max_value=512)
    seen = IdField(min_value=0, widget=forms.HiddenInput)


class ResultForm(forms.Form):
    """A result; ``seen`` (the live result's id the form was rendered with, or "none") is
    read by the view, which refuses a write from an older state."""

    key = forms.UUIDField(widget=forms.HiddenInput)
    winner = IdField(label=_("Winner"), min_value=0)  # a card's id (0: none, a confirmation)
    score = forms.CharField(label=_("Bummerl"), max_length=5)


class PullForm(forms.Form):
    """A pull; ``seen``: the id of the latest pull the page showed (0: none), the state
    the page was rendered from (``services.add_pull`` refuses a pull from an older one)."""

    number = forms.IntegerField(label=_("Number pulled"), min_value=1, max_value=1024)
    seen = IdField(
        min_value=0,
        widget=forms.HiddenInput,
        error_messages=dict.fromkeys(
            ("required", "invalid", "min_value", "max_value"),
            _("This page was out of date: enter the pull again for the turn shown."),
        ),
    )


def _moment(label):
    return forms.DateTimeField(
        label=label,
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )


class RegistrationWindowForm(forms.Form):
    """An announced night's registration window (``services.signup``)."""

    opens = _moment(_("Registration opens"))
    closes = _moment(_("Registration closes"))
    public = forms.BooleanField(label=_("Registration open to the public"), required=False)


class RegistrationTermsForm(forms.Form):
    """Beside the window: the organiser confirms each registration, the bank account for
    prepayment and the close of check-in (``services.signup``)."""

    confirm = forms.BooleanField(
        label=_("I confirm each registration (or refuse it)"), required=False
    )
    transfer_to = forms.CharField(
        label=_("Bank account for prepayment (holder and IBAN)"), max_length=200, required=False
    )
    checkin_closes = _moment(_("Check-in closes"))


class RegisterForm(forms.Form):
    """The public registration form of a night; the name is checked by the service (as
    at the door), so the field takes a little more than a name may have."""

    key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
    name = forms.CharField(label=_("Name"), max_length=200)
    contact = forms.CharField(label=_("Phone or e-mail (optional)"), max_length=200, required=False)
    cards = forms.IntegerField(label=_("Cards"), min_value=1, max_value=1024, initial=1)


class RegistrationCardsForm(forms.Form):
    cards = forms.IntegerField(label=_("Cards"), min_value=1, max_value=1024)
