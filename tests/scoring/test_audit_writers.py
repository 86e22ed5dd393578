"""Every writer keeps its change in the history: opening a table and its next Partie
(the table's history), copying and changing a rule set (the club's)."""

import pytest
from django.urls import reverse

from clubs.audit import Action, Actor
from clubs.models import AuditEntry
from scoring import rulesets, services, upkeep
from scoring.models import RuleSet, Sheet
from scoring.rules import QuickDeal
from tests import factories

pytestmark = pytest.mark.django_db


def club_entries(club, action):
    return list(
        AuditEntry.objects.filter(scope="club", scope_id=club.pk, action=action).order_by("id")
    )


def sheet_entries(sheet):
    return list(AuditEntry.objects.filter(scope="sheet", scope_id=sheet.pk).order_by("id"))


def history_text(client, club) -> str:
    return client.get(reverse("club_history", kwargs={"slug": club.slug})).content.decode()


def test_opening_a_table_is_kept_with_its_players_and_rule_set(client):
    club = factories.club()
    alice = factories.user(club, role="organiser")
    anna, ben, clara = factories.players(club, "Anna", "Ben", "Clara")
    wiki = factories.presets()["wiki"]
    sheet = upkeep.open_sheet(club, "dreierschnapsen", [anna, ben, clara], wiki, actor=Actor(alice))
    (entry,) = sheet_entries(sheet)
    assert (entry.action, entry.actor) == (Action.SHEET_OPENED, alice)
    assert entry.after == {
        "players": ["Anna", "Ben", "Clara"],
        "rule_set": wiki.name,
    }
    client.force_login(alice)
    page = client.get(reverse("sheet:history", kwargs={"pk": sheet.pk})).content.decode()
    assert "Tisch eröffnet" in page and "Anna, Ben, Clara" in page


def test_the_same_form_sent_twice_opens_and_keeps_one_table():
    club = factories.club()
    anna, ben = factories.players(club, "Anna", "Ben")
    wiki = factories.presets()["wiki"]
    key = factories.key()
    first = upkeep.open_sheet(club, "schnapsen", [anna, ben], wiki, key=key, actor=Actor())
    again = upkeep.open_sheet(club, "schnapsen", [anna, ben], wiki, key=key, actor=Actor())
    assert again.pk == first.pk
    assert [e.action for e in sheet_entries(first)] == [Action.SHEET_OPENED]


def test_the_next_partie_is_kept_with_the_table_before():
    club = factories.club()
    alice = factories.user(club, role="organiser")
    table = factories.sheet(club, names=("Anna", "Ben"))
    for _ in range(3):  # a Schneider, 2 Bummerl, the Partie (RULES.md 2)
        services.record_entry(table, QuickDeal(0, 3), factories.key(), Actor(alice))
    following = upkeep.open_next_partie(table, factories.key(), Actor(alice))
    upkeep.open_next_partie(table, factories.key(), Actor(alice))  # the other phone
    assert following == Sheet.objects.get(previous=table)
    (entry,) = sheet_entries(following)
    assert (entry.action, entry.actor, entry.after) == (
        Action.PARTIE_OPENED,
        alice,
        {"previous": table.pk},
    )


def test_copying_and_changing_a_rule_set_through_its_pages_is_kept(client):
    club = factories.club()
    alice = factories.user(club, role="organiser")
    client.force_login(alice)
    wiki = factories.presets()["wiki"]
    client.post(reverse("rule_sets", kwargs={"slug": club.slug}), {"copy": wiki.pk})
    copy = RuleSet.objects.get(club=club)
    (copied,) = club_entries(club, Action.RULE_SET_COPIED)
    assert copied.actor == alice
    assert copied.after == {"rule_set": copy.pk, "name": copy.name, "copied_from": wiki.name}

    url = reverse("rule_set", kwargs={"slug": club.slug, "rule_set_id": copy.pk})
    form = client.get(url).context["form"]
    values = {}
    for name in form.fields:
        value = form[name].value()
        if value is not None and value is not False:
            values[name] = "on" if value is True else value
    values.update({"gang-base": 10, "name": "Hausregeln"})
    assert client.post(url, values).status_code == 302
    (changed,) = club_entries(club, Action.RULE_SET_CHANGED)
    assert changed.actor == alice
    assert changed.before == {
        "rule_set": copy.pk,
        "name": copy.name,
        "contracts": {"gang": {"base": 9}},
    }
    assert changed.after == {
        "rule_set": copy.pk,
        "name": "Hausregeln",
        "contracts": {"gang": {"base": 10}},
    }
    assert client.post(url, {**values}).status_code == 302  # the same values again
    assert len(club_entries(club, Action.RULE_SET_CHANGED)) == 1
    page = history_text(client, club)
    assert "Regelwerk kopiert" in page and "Regelwerk geändert" in page


def test_rule_changes_name_only_what_differs():
    before = {
        "name": "A",
        "options": {"x": 1, "y": 2},
        "catalog": [{"code": "gang", "base": 9, "name": "Gang"}, {"code": "bettler", "base": 6}],
    }
    after = {
        "name": "A",
        "options": {"x": 1, "y": 3, "z": True},
        "catalog": [{"code": "gang", "base": 9, "name": "Gangl"}, {"code": "kontra", "base": 2}],
    }
    assert rulesets.rule_changes(before, after) == (
        {
            "options": {"y": 2, "z": None},
            "contracts": {"gang": {"name": "Gang"}, "bettler": {"base": 6}, "kontra": {}},
        },
        {
            "options": {"y": 3, "z": True},
            "contracts": {"gang": {"name": "Gangl"}, "bettler": {}, "kontra": {"base": 2}},
        },
    )
    assert rulesets.rule_changes(before, before) == ({}, {})
