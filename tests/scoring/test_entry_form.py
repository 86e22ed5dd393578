"""``EntryForm`` shares its fields between the forms of one sheet (made once per
process): each form still shows its own sheet's seats and contracts in the language
of its request, and one form's data and errors never reach another."""

import pytest
from django.utils import translation

from scoring import reading
from scoring.forms import EntryForm
from tests import factories

pytestmark = pytest.mark.django_db


def test_each_form_has_its_sheets_seats_contracts_and_language():
    club = factories.club()
    one, two = factories.sheet(club), factories.sheet(club, names=("Dora", "Emil", "Fritz"))
    forms = [
        EntryForm(players=reading.load_players(s), rules=s.core_rules) for s in (one, two, one)
    ]
    assert [dict(f.fields["declarer"].choices) for f in forms] == [
        {"0": "Anna", "1": "Ben", "2": "Clara"},
        {"0": "Dora", "1": "Emil", "2": "Fritz"},
        {"0": "Anna", "1": "Ben", "2": "Clara"},
    ]
    assert forms[0].fields is not forms[2].fields
    names = {}
    for language in ("de", "en"):
        with translation.override(language):
            form = EntryForm(players=reading.load_players(one), rules=one.core_rules)
            names[language] = dict(form.fields["contract"].choices)["normal"]
            names[language + " label"] = str(form["declarer"].label)
    assert names == {
        "de": "Normales Spiel",
        "en": "Normal game",
        "de label": "Ansager",
        "en label": "Declarer",
    }


def test_a_forms_errors_and_data_stay_its_own():
    club = factories.club()
    sheet = factories.sheet(club)
    players, rules = reading.load_players(sheet), sheet.core_rules
    bad = EntryForm(
        {"key": factories.key(), "kind": "dreier", "declarer": "7"}, players=players, rules=rules
    )
    assert not bad.is_valid() and set(bad.errors) == {"declarer", "contract", "won"}
    good = EntryForm(factories.deal_form(sheet), players=players, rules=rules)
    assert good.is_valid(), good.errors
    assert good.entry is not None and bad.entry is None
    fresh = EntryForm(players=players, rules=rules)
    assert not fresh.is_bound and fresh.errors == {}
    assert 'value="7"' not in str(fresh["declarer"])
