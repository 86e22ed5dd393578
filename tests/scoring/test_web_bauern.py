"""Bauernschnapsen on the site (RULES.md 4): opening a table of four, the sheet with its
teams, who sits out, the game end, export and import, the tally and the club's rule
set. Django's test client against a real database."""

import json
import re
import uuid

import pytest
from django.urls import reverse

from scoring import reading, services, transfer
from scoring.models import Deal, RuleSet, Sheet
from scoring.rules import DreierDeal
from scoring.tally import tally, variants_played
from tests import factories
from tests.markup import squeezed

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Ben", "Clara", "Dora")


@pytest.fixture
def club(client):
    return factories.signed_in_club(client)


@pytest.fixture
def table(club):
    """Anna deals first, Ben is the first Rufer; Anna & Clara against Ben & Dora."""
    return factories.sheet(club, names=NAMES, preset="bauern")


def post_deal(client, sheet, **fields):
    data = {"key": factories.key(), "kind": "dreier", **fields}
    url = reverse("sheet:record", kwargs={"pk": sheet.pk})
    return client.post(url, data, headers={"HX-Request": "true"})


def live_points(sheet):
    return [d.points for d in Deal.objects.filter(sheet=sheet).live().order_by("position")]


def open_url(club):
    return reverse("open_table", kwargs={"slug": club.slug})


def open_form(club, people, rule_set, **more):
    data = {
        "key": str(uuid.uuid4()),
        "variant": "bauernschnapsen",
        "title": "Vierer",
        "rule_set": str(rule_set.pk),
    }
    for i, person in enumerate(people, 1):
        data[f"player_{i}"] = str(person.pk)
    return {**data, **more}


# --- opening a table of four ---------------------------------------------------------------


def test_a_table_of_four_opens_with_the_seats_in_clockwise_order(client, club):
    people = factories.players(club, *NAMES)
    bauern = factories.presets()["bauern"]
    response = client.post(open_url(club), open_form(club, people, bauern))
    sheet = Sheet.objects.get(club=club)
    assert response.status_code == 302
    assert sheet.variant == "bauernschnapsen"
    assert [p.name for p in reading.load_players(sheet)] == list(NAMES)
    assert sheet.rules["options"]["spritzen_levels"] == 1


def test_bauernschnapsen_needs_a_fourth_player(client, club):
    people = factories.players(club, *NAMES[:3])
    response = client.post(open_url(club), open_form(club, people, factories.presets()["bauern"]))
    assert response.status_code == 200
    assert response.context["form"].errors["player_4"] == ["Bauernschnapsen braucht vier Spieler."]
    assert not Sheet.objects.filter(club=club).exists()


def test_dreierschnapsen_has_no_fourth_seat(client, club):
    people = factories.players(club, *NAMES)
    data = open_form(club, people, factories.presets()["wiki"], variant="dreierschnapsen")
    response = client.post(open_url(club), data)
    assert response.context["form"].errors["player_4"] == [
        "Nur Bauernschnapsen hat einen vierten Platz."
    ]


def test_bauernschnapsen_refuses_a_preset_of_the_three_player_game(client, club):
    people = factories.players(club, *NAMES)
    response = client.post(open_url(club), open_form(club, people, factories.presets()["wiki"]))
    assert "rule_set" in response.context["form"].errors
    assert not Sheet.objects.filter(club=club).exists()


def test_the_open_page_for_bauernschnapsen_starts_from_the_bauern_preset(client, club):
    bauern = factories.presets()["bauern"]
    factories.presets()
    response = client.get(open_url(club), {"variant": "bauernschnapsen"})
    assert response.context["form"]["rule_set"].value() == bauern.pk
    assert 'name="player_4"' in response.content.decode()


def test_a_new_player_at_a_table_of_four_takes_the_fourth_seat(client, club):
    people = factories.players(club, *NAMES[:3])
    data = open_form(club, people, factories.presets()["bauern"], new_player="Dora", add="1")
    data["player_4"] = ""
    response = client.post(open_url(club), data)
    assert "Dora sitzt auf Platz 4." in response.content.decode()


# --- the sheet --------------------------------------------------------------------------------


def test_a_normal_game_is_two_taps_and_scores_for_both_partners(client, table):
    # The form comes with the Rufer (Ben) and the normal game chosen: 1/2/3, then won.
    response = post_deal(client, table, declarer=1, contract="normal", normal_points=2, won=1)
    assert response.status_code == 200
    assert live_points(table) == [[0, 2, 0, 2]]


def test_the_sheet_shows_four_seats_and_the_two_teams(client, table):
    post_deal(client, table, declarer=1, contract="gang", won=1)
    html = client.get(reverse("sheet:page", kwargs={"pk": table.pk})).content.decode()
    assert (
        '<span class="team team-1">Anna &amp; Clara</span> gegen '
        '<span class="team team-2">Ben &amp; Dora</span>'
    ) in html
    assert html.count('class="team-1"') == 2 and html.count('class="team-2"') == 2  # columns
    totals = re.search(r'<tr class="totals">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r"<td>(\d+)</td>", totals) == ["0", "9", "0", "9"]
    assert 'class="seg seats four"' in html
    assert html.count('name="declarer"') == 4


def test_the_form_names_who_sits_out_for_each_declarer(client, table):
    html = client.get(reverse("sheet:page", kwargs={"pk": table.pk})).content.decode()
    for seat, partner in ((0, "Clara"), (1, "Dora"), (2, "Anna"), (3, "Ben")):
        assert f'class="sits-out out-by-{seat}"> · {partner} setzt aus</span>' in html
    bettler = re.search(
        r'<label class="([^"]*)"><input type="radio" name="contract" value="bettler"',
        squeezed(html),
    )
    assert "alone" in bettler.group(1).split()
    schnapser = re.search(
        r'<label class="([^"]*)"><input type="radio" name="contract" value="schnapser"',
        squeezed(html),
    )
    assert "alone" not in schnapser.group(1).split()


def test_kontra_games_are_hidden_from_the_rufers_team(client, table):
    html = client.get(reverse("sheet:page", kwargs={"pk": table.pk})).content.decode()
    kontra = re.search(
        r'<label class="([^"]*)"><input type="radio" name="contract" value="kontraschnapser"',
        squeezed(html),
    )
    assert set(kontra.group(1).split()) == {"no-1", "no-3"}  # Rufer Ben and his partner Dora


def test_the_deal_list_names_the_partner_who_sat_out(client, table):
    post_deal(client, table, declarer=0, contract="bettler", won=0)
    html = client.get(reverse("sheet:page", kwargs={"pk": table.pk})).content.decode()
    assert "Bettler · Anna · verloren · Clara setzt aus" in html
    assert live_points(table) == [[0, 4, 0, 4]]


def test_a_kontraschnapser_by_the_rufers_partner_is_refused_on_the_field(client, table):
    response = post_deal(client, table, declarer=3, contract="kontraschnapser", won=1)
    assert "Nur das Team gegen den Rufer darf Kontraschnapser spielen." in response.content.decode()
    assert live_points(table) == []


def test_a_second_spritzen_level_is_refused_by_the_bauern_preset(client, table):
    response = post_deal(client, table, declarer=1, contract="gang", spritzen=2, won=1)
    assert "Dieses Regelwerk erlaubt Spritzen bis ×2." in response.content.decode()
    assert live_points(table) == []


def test_a_spritzen_level_left_on_a_contract_that_cannot_be_spritzed_is_dropped(client, table):
    html = client.get(reverse("sheet:page", kwargs={"pk": table.pk})).content.decode()
    ringerl = re.search(
        r'<label class="([^"]*)"><input type="radio" name="contract" value="trumpfringerl"',
        squeezed(html),
    )
    assert "unspritzable" in ringerl.group(1).split()  # the Spritzen row is hidden for it
    post_deal(client, table, declarer=2, contract="trumpfringerl", spritzen=1, won=1)
    assert live_points(table) == [[24, 0, 24, 0]]
    assert Deal.objects.get(sheet=table).inputs["spritzen"] == 0


def test_the_game_end_names_the_losing_team_and_each_gets_the_bummerl(client, table):
    post_deal(client, table, declarer=0, contract="kontrabauernschnapser", won=1)
    deal = Deal.objects.get(sheet=table)
    url = reverse("sheet:page", kwargs={"pk": table.pk})
    html = client.get(url, {"saved": deal.pk}).content.decode()
    assert "Runde 1 ist aus (24 · 0 · 24 · 0): Ben &amp; Dora sind Schneider: je 2 Bummerl." in html
    assert reading.read_sheet(table).state.tally == (0, 2, 0, 2)


def test_a_redeal_keeps_the_dealer(client, table):
    url = reverse("sheet:record", kwargs={"pk": table.pk})
    client.post(url, {"key": factories.key(), "kind": "redeal"}, headers={"HX-Request": "true"})
    state = reading.read_sheet(table).state
    assert (len(state.lines), state.dealer, state.rufer) == (1, 0, 1)


# --- JSON, tally, rule set --------------------------------------------------------------------


def test_export_gives_the_bauern_shape_and_imports_again(client, club, table):
    post_deal(client, table, declarer=1, contract="normal", normal_points=3, won=0)
    response = client.get(reverse("sheet:export", kwargs={"pk": table.pk}))
    document = json.loads(response.content)
    assert document["variant"] == "bauernschnapsen"
    assert document["players"] == list(NAMES)
    assert document["deals"][0]["points"] == {"Anna": 3, "Ben": 0, "Clara": 3, "Dora": 0}
    assert document["deals"][0]["rufer"] == "Ben"
    imported = transfer.import_document(club, document, services.Actor(), "again")
    again = reading.read_sheet(imported).state
    assert again.totals == (3, 0, 3, 0)
    assert imported.variant == "bauernschnapsen"


def test_the_tally_keeps_bauernschnapsen_apart_and_gives_each_partner_the_bummerl(client, club):
    bauern = factories.sheet(club, names=NAMES, preset="bauern")
    services.record_entry(
        bauern, DreierDeal("trumpfringerl", 1, True), uuid.uuid4(), services.Actor()
    )
    sheets = Sheet.objects.filter(club=club)
    assert [v for v, _label, _n in variants_played(sheets)] == ["bauernschnapsen"]
    figures = {r.name: (r.bummerl, r.schneider, r.games) for r in tally(sheets)}
    assert figures == {
        "Anna": (2, 1, 1),
        "Clara": (2, 1, 1),
        "Ben": (0, 0, 1),
        "Dora": (0, 0, 1),
    }
    response = client.get(reverse("club", kwargs={"slug": club.slug}), {"game": "bauernschnapsen"})
    assert response.context["game"] == "bauernschnapsen"


def test_a_club_copies_the_bauern_preset_and_changes_the_spritzen_options(client, club):
    bauern = factories.presets()["bauern"]
    client.post(reverse("rule_sets", kwargs={"slug": club.slug}), {"copy": bauern.pk})
    copy = RuleSet.objects.get(club=club)
    url = reverse("rule_set", kwargs={"slug": club.slug, "rule_set_id": copy.pk})
    page = client.get(url)
    html = page.content.decode()
    for german in ("Spritzen erlaubt bis", "kein Spritzen", "Partner setzt aus", "vorne gezeigt"):
        assert german in html
    assert "Bauernschnapsen: Der Partner des Rufers darf den Schnapser spielen" in html
    form = page.context["form"]
    values = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        values[name] = "on" if value is True else value
    values.update({"opt_spritzen_levels": "3", "gang-no_spritzen": "on"})
    del values["trumpfringerl-no_spritzen"]
    del values["opt_schnapser_by_partner"]
    assert client.post(url, values).status_code == 302
    rules = RuleSet.objects.get(pk=copy.pk).rules
    assert rules.spritzen_levels == 3
    assert set(rules.not_spritzable) == {"farbenringerl", "kontrabauernschnapser", "gang"}
    assert rules.schnapser_by_partner is False
    assert set(rules.partner_sits_out) == {"bettler", "ass_bettler", "gang", "zehnergang"}


def test_the_printouts_of_a_table_of_four_name_the_teams_and_the_games(client, table):
    from tests.base.test_printing import pdf_of, text_of

    post_deal(client, table, declarer=0, contract="kontrabauernschnapser", won=1)
    blank = text_of(pdf_of(client.get(reverse("sheet:print_blank", kwargs={"pk": table.pk}))))
    assert "Anna & Clara gegen Ben & Dora" in blank
    assert "Spritzen ×2" in blank and "×8" not in blank and "Zehnerloch: 10" in blank
    summary = text_of(pdf_of(client.get(reverse("sheet:print_summary", kwargs={"pk": table.pk}))))
    assert "Ben & Dora sind Schneider: je 2 Bummerl" in summary
