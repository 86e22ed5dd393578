"""Contract names in the reader's language: the presets' names are translated, a name a
club typed is shown as typed (RULES.md 3.1)."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from clubs.audit import SYSTEM
from scoring import rulesets, upkeep
from scoring.contract_names import PRESET_LABELS, PRESET_NAMES
from scoring.models import Sheet
from scoring.rules.presets import preset_data
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(client):
    return factories.signed_in_club(client)


def contract_buttons(html: str) -> list[str]:
    """The labels of the contract buttons of the entry form, without their values."""
    group = re.search(r'name="contract".*?</fieldset>', html, re.S)
    assert group, "no contract buttons"
    labels = re.findall(r"<span>([^<]*)(?:<small>|</span>)", group.group(0))
    return [label.strip() for label in labels]


def sheet_page(client, sheet, language: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(reverse("sheet:page", kwargs={"pk": sheet.pk})).content.decode()


def test_the_marked_names_are_exactly_the_presets_names():
    with translation.override("de-at"):
        marked = {str(name) for name in PRESET_NAMES}
        labels = {str(label) for label in PRESET_LABELS}
    in_file = {c["name"] for p in preset_data().values() for c in p["catalog"]}
    assert marked == in_file
    assert labels == {p["label"] for p in preset_data().values()}


def test_a_preset_table_shows_english_names_in_english_and_german_in_german(club, client):
    sheet = factories.sheet(club)
    english = contract_buttons(sheet_page(client, sheet, "en"))
    german = contract_buttons(sheet_page(client, sheet, "de-at"))
    assert english[:5] == [
        "Normal game",
        "Beggar",
        "Beggar holding an ace",
        "Ace beggar",
        "Schnapser",
    ]
    assert "Slam" in english and "Trump slam" in english and "Contra Schnapser" in english
    assert german[:5] == ["Normales Spiel", "Bettler", "Assenbettler", "Ass-Bettler", "Schnapser"]
    assert "Gang" in german and "Trumpfringerl" in german
    # What is stored stays German, whatever the language of the page.
    stored = Sheet.objects.get(pk=sheet.pk).rules["catalog"]
    assert [c["name"] for c in stored][:2] == ["Normales Spiel", "Bettler"]


def test_a_club_renamed_contract_keeps_its_name_in_both_languages(club, client):
    wiki = factories.presets()["wiki"]
    copy = rulesets.copy_rule_set(club, wiki, actor=SYSTEM)
    rules = copy.rules.with_changes(catalog={"bettler": {"name": "Fechter"}})
    copy = rulesets.update_rule_set(copy, rules.to_dict(), actor=SYSTEM)
    anna, ben, clara = factories.players(club, "Anna", "Ben", "Clara")
    sheet = upkeep.open_sheet(club, "dreierschnapsen", [anna, ben, clara], copy)
    english = contract_buttons(sheet_page(client, sheet, "en"))
    german = contract_buttons(sheet_page(client, sheet, "de-at"))
    assert english[1] == "Fechter" and german[1] == "Fechter"
    # The contracts the club did not rename are still the presets' names.
    assert english[0] == "Normal game" and german[0] == "Normales Spiel"


def test_a_saved_deal_reads_in_the_pages_language(club, client):
    sheet = factories.sheet(club)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("sheet:record", kwargs={"pk": sheet.pk})
    data = {"key": factories.key(), "kind": "dreier", "declarer": 2, "contract": "gang", "won": 1}
    response = client.post(url, data, headers={"HX-Request": "true"})
    assert "Slam · Clara · won" in response.content.decode()


def test_the_presets_are_named_in_the_pages_language(club, client):
    factories.presets()
    url = reverse("rule_sets", kwargs={"slug": club.slug})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Spielregeln (each for himself)" in client.get(url).content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de-at"
    assert "Spielregeln (jeder gegen jeden)" in client.get(url).content.decode()
