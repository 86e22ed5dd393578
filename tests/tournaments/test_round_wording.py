"""The words of a night that went off script: a round is named as the pages name it
(``tournaments.rows.round_name``: "Viertelfinale auslosen", not "Runde 3 auslosen"), a
match sheet says how its match ends, a two-player sheet's game is a Bummerl (not a
"Runde" beside the tournament's rounds), and a count says 1 in the singular."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services as scoring
from scoring.rules import QuickDeal
from scoring.services import Actor
from tests import factories
from tests.base.test_printing import pdf_of, text_of
from tests.scoring.test_sheet_one_hand import banner
from tests.tournaments.test_link_lanes import LINK
from tournaments.models import Pairing
from tournaments.services.draws import draw_round
from tournaments.services.results import record_result
from tournaments.services.sheets import open_match_sheet

pytestmark = pytest.mark.django_db
ACTOR = Actor()


def organiser(club) -> Client:
    client = Client()
    client.force_login(factories.user(club, role="organiser"))
    return client


def desk(client, t) -> str:
    return client.get(reverse("tournament", args=(t.club.slug, t.pk))).content.decode()


@pytest.mark.parametrize(
    ("cards", "name"),
    [(8, "Viertelfinale"), (16, "Achtelfinale"), (32, "Runde 1 (32)")],
)
def test_the_desk_draws_the_next_round_by_its_name(cards, name):
    t = factories.tournament(factories.club(), cards=cards, sold=cards, max_cards=1)
    html = desk(organiser(t.club), t)
    assert f'<button class="won" name="mode" value="digital">{name} auslosen</button>' in html
    assert "Runde 1 auslosen" not in html


def test_after_the_quarter_final_the_desk_draws_the_semi_final_and_names_the_seed():
    t = factories.night(factories.club())
    round_ = draw_round(t, ACTOR, seed=1)
    for pairing in Pairing.objects.filter(round=round_, kind="match"):
        record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)
    html = desk(organiser(t.club), t)
    assert '<button class="won" name="mode" value="digital">Halbfinale auslosen</button>' in html
    assert "<small>Viertelfinale wurde ausgelost mit dem Startwert</small>" in html
    assert "Runde 2 auslosen" not in html


def test_a_points_event_draws_its_numbered_round():
    t = factories.tournament(
        factories.club(), cards=4, sold=4, max_cards=1, format="points", rounds_planned=2
    )
    html = desk(organiser(t.club), t)
    assert '<button class="won" name="mode" value="digital">Runde 1 auslosen</button>' in html


def test_the_draw_at_the_venue_is_named_by_its_round():
    t = factories.night(factories.club())
    client = organiser(t.club)
    url = reverse("draw_next", args=(t.club.slug, t.pk))
    client.post(url, {"round": 1, "mode": "physical"})
    page = client.get(reverse("physical_draw", args=(t.club.slug, t.pk))).content.decode()
    assert "<h1>Viertelfinale: Auslosung vor Ort</h1>" in page
    assert "Viertelfinale wird vor Ort ausgelost." in desk(client, t)


def match_sheets(t) -> str:
    draw_round(t, ACTOR, seed=1)
    client = organiser(t.club)
    return text_of(pdf_of(client.get(reverse("print_match_sheets", args=(t.club.slug, t.pk, 1)))))


def test_a_match_sheet_of_a_partie_says_to_two_bummerl():
    text = match_sheets(factories.night(factories.club()))
    assert "Viertelfinale, Partie 1 · auf 2 Bummerl" in text


def test_a_match_sheet_of_a_points_match_says_over_two_bummerl_not_to():
    t = factories.tournament(
        factories.club(),
        cards=4,
        sold=4,
        max_cards=1,
        format="points",
        rounds_planned=2,
        match_games=2,
    )
    text = match_sheets(t)
    assert "Runde 1, Partie 1 · über 2 Bummerl" in text
    assert "auf 2 Bummerl" not in text


def test_the_score_sheet_of_a_match_ends_a_bummerl_not_a_runde():
    factories.presets()
    t = factories.night(factories.club())
    draw_round(t, ACTOR, seed=1)
    sheet = open_match_sheet(factories.first_match(t), ACTOR)
    for entry in (QuickDeal(1, 3), QuickDeal(1, 3)):
        scoring.record_entry(sheet, entry, uuid.uuid4(), LINK)
    client = Client()
    response = client.post(
        reverse("entry:record", kwargs={"token": sheet.entry_token}),
        {"key": str(uuid.uuid4()), "kind": "quick", "winner": "1", "points": "1"},
        headers={"HX-Request": "true"},
    )
    said = banner(response.content.decode())
    assert said.startswith("Bummerl 1 ist aus (7 · 0): P2 ist Schneider: 1 Bummerl. Gespeichert: ")
    assert "Runde 1 ist aus" not in said
    summary = text_of(
        pdf_of(client.get(reverse("entry:print_summary", kwargs={"token": sheet.entry_token})))
    )
    assert "Bummerl-Stand" in summary and " Runden " not in summary


def test_a_two_player_sheet_without_a_bummerl_says_so_on_paper():
    factories.presets()
    club = factories.club()
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    client = organiser(club)
    text = text_of(pdf_of(client.get(reverse("sheet:print_summary", kwargs={"pk": sheet.pk}))))
    assert "Noch keine Bummerl." in text and "Noch keine Runden." not in text


def test_the_room_screen_says_one_point_and_two_points():
    t = factories.tournament(
        factories.club(),
        cards=4,
        sold=4,
        max_cards=1,
        format="points",
        rounds_planned=2,
        match_games=2,
    )
    first, second = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).order_by("number")
    record_result(first, None, "1:1", uuid.uuid4(), ACTOR)  # a draw (RULES.md 6)
    record_result(second, second.right_id, "2:0", uuid.uuid4(), ACTOR)
    html = Client().get(reverse("room_screen", kwargs={"token": t.public_token})).content.decode()
    assert html.count("<small>1 Punkt</small>") == 2
    assert html.count("<small>2 Punkte</small>") == 1
    assert html.count("<small>0 Punkte</small>") == 1
    assert "1 Punkte" not in html


def test_the_room_screen_says_one_life():
    t = factories.tournament(
        factories.club(), cards=4, sold=4, max_cards=1, format="leben", lives=1
    )
    draw_round(t, ACTOR, seed=1)
    html = Client().get(reverse("room_screen", kwargs={"token": t.public_token})).content.decode()
    assert "<small>1 Leben</small>" in html


@pytest.mark.parametrize(
    ("rounds", "said"), [(1, "1 Runde, dänische Wertung"), (3, "3 Runden, dänische Wertung")]
)
def test_the_standings_printout_counts_its_rounds(rounds, said):
    t = factories.tournament(
        factories.club(), cards=4, sold=4, max_cards=1, format="points", rounds_planned=rounds
    )
    client = organiser(t.club)
    text = text_of(pdf_of(client.get(reverse("print_standings", args=(t.club.slug, t.pk)))))
    assert said in text
