"""A club copies a preset and changes values and names; sheets keep their own copy."""

import uuid

import pytest
from django.urls import reverse

from clubs.audit import SYSTEM
from scoring import reading, rulesets, services, upkeep
from scoring.models import RuleSet
from scoring.rules import DreierDeal
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(client):
    club = factories.signed_in_club(client)
    wiki = factories.presets()["wiki"]
    return club, wiki


def form_values(client, url):
    """The edit form's current values, as a browser would send them back."""
    form = client.get(url).context["form"]
    values = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        values[name] = "on" if value is True else value
    return values


def test_it_copies_a_preset_and_changes_a_value_and_a_name(client, setup):
    club, wiki = setup
    response = client.post(reverse("rule_sets", kwargs={"slug": club.slug}), {"copy": wiki.pk})
    copy = RuleSet.objects.get(club=club)
    assert response.status_code == 302
    url = reverse("rule_set", kwargs={"slug": club.slug, "rule_set_id": copy.pk})
    values = form_values(client, url)
    values.update({"gang-base": 10, "gang-name": "Gangl", "name": "Hausregeln"})
    del values["plauderer-enabled"]
    assert client.post(url, values).status_code == 302
    copy.refresh_from_db()
    rules = copy.rules
    assert copy.name == "Hausregeln"
    assert rules.contract("gang").base == 10 and rules.contract("gang").name == "Gangl"
    assert [c.code for c in rules.contracts if c.code == "plauderer"] == []
    assert wiki.rules.contract("gang").base == 9  # the preset is untouched


def test_a_sheet_keeps_the_rule_set_it_was_opened_with(client, setup):
    club, wiki = setup
    copy = rulesets.copy_rule_set(club, wiki, actor=SYSTEM)
    anna, ben, clara = factories.players(club, "Anna", "Ben", "Clara")
    old = upkeep.open_sheet(club, "dreierschnapsen", [anna, ben, clara], copy)
    copy = rulesets.update_rule_set(
        copy, copy.rules.with_changes(catalog={"gang": 11}).to_dict(), actor=SYSTEM
    )
    new = upkeep.open_sheet(club, "dreierschnapsen", [anna, ben, clara], copy)
    for sheet in (old, new):
        services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), services.Actor())
    assert reading.read_sheet(old).state.totals == (9, 0, 0)
    assert reading.read_sheet(new).state.totals == (11, 0, 0)


def test_a_new_contract_needs_a_value(client, setup):
    club, wiki = setup
    copy = rulesets.copy_rule_set(club, wiki, actor=SYSTEM)
    url = reverse("rule_set", kwargs={"slug": club.slug, "rule_set_id": copy.pk})
    values = form_values(client, url)
    values.update({"new_code": "hausspiel", "new_name": "Hausspiel"})
    response = client.post(url, values)
    assert response.status_code == 200
    assert "new_base" in response.context["form"].errors
    values["new_base"] = 15
    assert client.post(url, values).status_code == 302
    copy.refresh_from_db()
    assert copy.rules.contract("hausspiel").base == 15


def test_presets_cannot_be_edited_and_scorers_cannot_copy(client, setup):
    club, wiki = setup
    url = reverse("rule_set", kwargs={"slug": club.slug, "rule_set_id": wiki.pk})
    assert client.get(url).status_code == 404
    client.force_login(factories.user(club, role="scorer"))
    response = client.post(reverse("rule_sets", kwargs={"slug": club.slug}), {"copy": wiki.pk})
    assert response.status_code == 403
