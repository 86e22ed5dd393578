"""Seasons and their rankings on the site (RULES.md 7): owners define seasons that do
not overlap; a sheet falls into the season of the Vienna day it was opened; the ranking
of a game (never mixed) ranks by Bummerl per game from the minimum of games, tournament
points come from the club's points key; ties share a rank and keep one order on every
page, in every export and in the printout; the public sees a ranking only when the
club publishes it."""

import csv
import datetime as dt
import io
import uuid

import pytest
from django.urls import reverse
from pypdf import PdfReader

from clubs.models import AuditEntry, Player
from seasons.models import RankingSettings, Season
from tests import factories
from tests.markup import squeezed

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return factories.club()


@pytest.fixture
def owner(club, client):
    user = factories.user(club, role="owner")
    client.force_login(user)
    return user


def new_season(client, club, name, first, last, key=None):
    return client.post(
        reverse("seasons:new", kwargs={"slug": club.slug}),
        {"name": name, "first_day": first, "last_day": last, "key": key or str(uuid.uuid4())},
    )


def test_an_owner_defines_a_season_once_for_a_double_post(client, club, owner):
    key = str(uuid.uuid4())
    for _ in range(2):
        response = new_season(client, club, "Saison 2026/27", "2026-09-01", "2027-06-30", key)
        assert response.status_code == 302
    season = Season.objects.get(club=club)
    assert (season.name, season.first_day, season.last_day) == (
        "Saison 2026/27",
        dt.date(2026, 9, 1),
        dt.date(2027, 6, 30),
    )
    assert AuditEntry.objects.filter(club=club, action="season saved").count() == 1


def test_overlapping_seasons_are_refused_naming_the_other_season(client, club, owner):
    new_season(client, club, "2026", "2026-01-01", "2026-12-31")
    response = new_season(client, club, "Winter", "2026-12-01", "2027-02-28")
    assert response.status_code == 400
    assert response.context["season_form"].errors["first_day"] == [
        "Diese Tage überschneiden sich mit „2026“ (01.01.2026 bis 31.12.2026)."
    ]
    response = new_season(client, club, "Falsch", "2027-03-01", "2027-02-28")
    assert response.status_code == 400
    assert "last_day" in response.context["season_form"].errors
    assert Season.objects.filter(club=club).count() == 1


def test_the_saved_message_names_the_season_with_its_kind_once(client, club, owner):
    index = reverse("seasons:index", kwargs={"slug": club.slug})
    for name, said in (
        ("2026", "Saison 2026"),
        ("Saison 2027", "Saison 2027"),
        ("saison 2028", "saison 2028"),  # the name as typed, the kind not said twice
    ):
        first = name[-4:]
        assert new_season(client, club, name, f"{first}-01-01", f"{first}-12-31").status_code == 302
        shown = [str(m) for m in client.get(index).context["messages"]]
        assert shown == [f"{said} gespeichert."], name


def test_a_member_cannot_define_seasons(client, club):
    client.force_login(factories.user(club, role="organiser"))
    assert new_season(client, club, "X", "2026-01-01", "2026-12-31").status_code == 403


@pytest.fixture
def evening(club, owner):
    """Season 2026. Anna, Ben, Clara, Dora, Emil play Schnapsen; Dreierschnapsen too."""
    season = Season.objects.create(
        club=club, name="2026", first_day=dt.date(2026, 1, 1), last_day=dt.date(2026, 12, 31)
    )
    anna, ben, clara, dora, emil = factories.players(club, "Anna", "Ben", "Clara", "Dora", "Emil")
    day = dt.datetime(2026, 3, 5, 19, 0)
    # Anna v Ben: Anna gets two Bummerl, Ben one (3 games).
    factories.two_player_sheet(club, anna, ben, when=day, losers=(0, 1, 0))
    # Same evening, Clara v Dora: Dora gets two, Clara none (2 games).
    factories.two_player_sheet(club, clara, dora, when=day, losers=(1, 1))
    # Another evening: Anna v Clara, Clara one Bummerl, Anna two (3 games); then Ben is
    # Schneider against Clara: 2 Bummerl in one game, which decide the Partie.
    later = dt.datetime(2026, 3, 12, 20)
    factories.two_player_sheet(club, anna, clara, when=later, losers=(1, 0, 0))
    factories.two_player_sheet(club, ben, clara, when=later, losers=(0,), schneider=(True,))
    # 31.12.2026 23:30 UTC is 1.1.2027 in Vienna: not in the season.
    factories.two_player_sheet(
        club, emil, ben, when=dt.datetime(2026, 12, 31, 23, 30, tzinfo=dt.UTC), losers=(0, 0)
    )
    # A day before the season.
    factories.two_player_sheet(club, emil, ben, when=dt.datetime(2025, 12, 31, 22), losers=(0, 0))
    factories.sheet(club, names=("Fritz", "Gerda", "Hans"))  # Dreierschnapsen, no game
    RankingSettings.objects.create(club=club, min_games=3)
    return season


def ranking_rows(response):
    return [
        (
            r.record.rank,
            r.record.name,
            r.record.games,
            r.record.bummerl,
            r.record.schneider,
            r.record.evenings,
        )
        for r in response.context["current"][2].paginated_rows
    ]


def test_the_season_ranking_ranks_bummerl_per_game_of_one_game(client, club, evening):
    url = reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": evening.pk})
    response = client.get(url, {"table": "schnapsen"})
    assert response.status_code == 200
    # Clara 1 Bummerl in 6 games, Anna 4 in 6, Ben 3 in 4 (one Schneider), Dora 2 in 2.
    assert ranking_rows(response) == [
        (1, "Clara", 6, 1, 0, 2),
        (2, "Anna", 6, 4, 0, 2),
        (3, "Ben", 4, 3, 1, 2),
        (None, "Dora", 2, 2, 0, 1),  # fewer than 3 games: no rank
    ]
    html = response.content.decode()
    assert all(f'<td class="num">{v}</td>' in html for v in ("0,17", "0,67", "0,75", "1,00"))
    codes = [code for code, _label, _table in response.context["tables"]]
    assert codes == ["schnapsen", "dreierschnapsen", "points"]


def test_the_ranking_table_scrolls_in_its_box_and_keeps_the_ranking_order(client, club, evening):
    # table.list scrolls inside itself on a phone (site.css); the ranking's own order only
    for url in (
        reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": evening.pk}),
        reverse("seasons:all_time", kwargs={"slug": club.slug}),
    ):
        for table in ("schnapsen", "points"):
            html = client.get(url, {"table": table}).content.decode()
            assert html.count("<table") == 1
            assert html.count('<table class="list ranking">') == 1
            assert "sort=" not in html


def test_a_sheet_opened_after_midnight_in_vienna_belongs_to_the_next_season(client, club, evening):
    nxt = Season.objects.create(
        club=club, name="2027", first_day=dt.date(2027, 1, 1), last_day=dt.date(2027, 12, 31)
    )
    url = reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": nxt.pk})
    rows = ranking_rows(client.get(url, {"table": "schnapsen"}))
    assert [(name, games, bummerl) for _r, name, games, bummerl, _s, _e in rows] == [
        ("Ben", 2, 0),
        ("Emil", 2, 2),
    ]


def test_the_all_time_ranking_counts_every_season(client, club, evening):
    url = reverse("seasons:all_time", kwargs={"slug": club.slug})
    rows = ranking_rows(client.get(url, {"table": "schnapsen"}))
    assert {name: (games, bummerl) for _r, name, games, bummerl, _s, _e in rows} == {
        "Anna": (6, 4),
        "Ben": (8, 3),
        "Clara": (6, 1),
        "Dora": (2, 2),
        "Emil": (4, 4),
    }


@pytest.fixture
def tied(club, owner):
    """60 players, all level (1 Bummerl in 3 games), names in mixed case and umlauts."""
    season = Season.objects.create(
        club=club, name="2026", first_day=dt.date(2026, 1, 1), last_day=dt.date(2026, 12, 31)
    )
    names = [f"{p}{n:02d}" for n in range(30) for p in ("Ölz ", "oberer ")]
    people = factories.players(club, *names)
    for first, second in zip(people[::2], people[1::2], strict=True):
        factories.two_player_sheet(
            club, first, second, when=dt.datetime(2026, 5, 1, 19), losers=(0, 1, 0)
        )
        factories.two_player_sheet(
            club, second, first, when=dt.datetime(2026, 5, 2, 19), losers=(0, 1, 0)
        )
    RankingSettings.objects.create(club=club, min_games=1, pick="per_game")
    return season


def test_ties_keep_one_order_on_every_page_in_every_export_and_in_the_printout(client, club, tied):
    url = reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": tied.pk})
    expected = sorted(Player.objects.filter(club=club), key=lambda p: (p.name_key, p.pk))
    expected_names = [p.name for p in expected]
    assert expected_names[0] == "oberer 00" and expected_names[-1] == "Ölz 29"
    paged = []
    for page in (1, 2):
        response = client.get(url, {"page": page})
        rows = ranking_rows(response)
        assert {r[0] for r in rows} == {1}  # one tie: everyone shares rank 1
        paged += [r[1] for r in rows]
    assert paged == expected_names
    content = client.get(url, {"_export": "csv"}).content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(content)))
    assert lines[0][:2] == ["Rang", "Spieler"]
    assert [line[1] for line in lines[1:]] == expected_names
    assert {line[0] for line in lines[1:]} == {"1"}
    for fmt in ("ods", "xlsx"):
        response = client.get(url, {"_export": fmt})
        assert response.status_code == 200 and len(response.content) > 1000
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(client.get(url, {"_export": "xlsx"}).content))
    assert [r[1] for r in book.active.iter_rows(min_row=2, values_only=True)] == expected_names
    pdf = client.get(reverse("seasons:print", kwargs={"slug": club.slug, "season_id": tied.pk}))
    assert pdf["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert club.name in text
    positions = [text.index(name) for name in expected_names]
    assert positions == sorted(positions)


def test_the_ranking_page_costs_the_same_queries_for_more_sheets(client, club, tied):
    url = reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": tied.pk})
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as before:
        client.get(url)
    people = factories.players(club, *[f"Neu {i}" for i in range(20)])
    for first, second in zip(people[::2], people[1::2], strict=True):
        factories.two_player_sheet(
            club, first, second, when=dt.datetime(2026, 6, 1, 19), losers=(0, 1)
        )
    with CaptureQueriesContext(connection) as after:
        client.get(url)
    assert len(after) == len(before) <= 8


def test_tournament_points_follow_the_points_key(client, club, owner):
    from tournaments.simulation import simulate

    season = Season.objects.create(
        club=club, name="2026", first_day=dt.date(2020, 1, 1), last_day=dt.date(2040, 12, 31)
    )
    response = client.post(
        reverse("seasons:settings", kwargs={"slug": club.slug}),
        {
            "key": str(uuid.uuid4()),
            "pick": "points",
            "min_games": 5,
            "participation": 1,
            "points_key": "1: 25\n2: 20\n3: 16\n4: 13\n5-8: 10",
        },
    )
    assert response.status_code == 302
    simulate(club, cards=8, players=8, max_cards=1, seed=5)
    url = reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": season.pk})
    response = client.get(url)
    rows = [(r.record.rank, r.record.points) for r in response.context["current"][2].paginated_rows]
    assert rows == [(1, 25), (2, 20), (3, 16), (4, 13), (5, 10), (5, 10), (5, 10), (5, 10)]
    fives = [r.record.name for r in response.context["current"][2].paginated_rows][4:]
    assert fives == sorted(fives)
    html = response.content.decode()
    assert "1. 25 · 2. 20 · 3. 16 · 4. 13 · 5–8. 10" in squeezed(html)


def test_a_wrong_points_key_is_refused_on_its_field(client, club, owner):
    response = client.post(
        reverse("seasons:settings", kwargs={"slug": club.slug}),
        {
            "key": str(uuid.uuid4()),
            "pick": "both",
            "min_games": 5,
            "participation": 1,
            "points_key": "1: 25\n2 zwanzig",
        },
    )
    assert response.status_code == 400
    assert response.context["settings_form"].errors["points_key"] == [
        "Zeile 2: einen Platz oder Bereich, einen Doppelpunkt und die Punkte (5-8: 10)."
    ]


def test_the_public_sees_a_ranking_only_when_the_club_publishes_it(client, club, evening):
    url = reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": evening.pk})
    client.logout()
    assert client.get(url).status_code == 302  # sign in
    client.force_login(factories.user(None, username="stranger"))
    assert client.get(url).status_code == 404
    RankingSettings.objects.filter(club=club).update(public=True)
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Clara" in html
    assert "/players/" not in html and "/tables/" not in html
    client.logout()
    assert client.get(url).status_code == 200
    player = Player.objects.get(club=club, name="Clara")
    page = client.get(reverse("player", kwargs={"slug": club.slug, "player_id": player.pk}))
    assert page.status_code == 302  # the player's page stays for members


def test_a_players_page_shows_his_statistics_per_game_with_a_chart(client, club, evening):
    anna = Player.objects.get(club=club, name="Anna")
    ben = Player.objects.get(club=club, name="Ben")
    # Two more tables with Ben make him a regular partner (3 tables).
    factories.two_player_sheet(club, anna, ben, when=dt.datetime(2026, 4, 1, 19), losers=(1, 1))
    factories.two_player_sheet(club, ben, anna, when=dt.datetime(2026, 4, 8, 19), losers=(1, 0, 0))
    page = client.get(reverse("player", kwargs={"slug": club.slug, "player_id": anna.pk}))
    assert page.status_code == 200
    [two] = page.context["statistics"]
    assert two["variant"] == "schnapsen"
    # Evenings in order: 2/3, 2/3 (with Clara), 0/2, 1/3: running 2/3, 4/6, 4/8, 5/11.
    assert two["per_game"] == pytest.approx(5 / 11)
    assert [(e["bummerl"], e["games"]) for e in two["best"]] == [(0, 2), (1, 3), (2, 3)]
    assert [(e["bummerl"], e["games"]) for e in two["worst"]] == [(2, 3)]
    [partner] = two["partners"]
    assert (partner.name, partner.tables, partner.games, partner.mine, partner.theirs) == (
        "Ben",
        3,
        8,
        3,
        5,
    )
    html = page.content.decode()
    assert '<svg class="chart" viewBox="0 0 320 160" role="img"' in html
    assert "<title>Bummerl pro Runde im Lauf der Zeit: Schnapsen (zu zweit)</title>" in html
    assert "Direkter Vergleich" in html


def test_a_players_page_lists_his_tournament_places_and_points(client, club, owner):
    from tournaments.simulation import simulate

    t = simulate(club, cards=8, players=8, max_cards=1, seed=5)
    from tournaments.export import export

    first = next(r for r in export(t)["ranking"] if r["place"] == 1)
    winner = Player.objects.get(club=club, name=first["player"])
    page = client.get(reverse("player", kwargs={"slug": club.slug, "player_id": winner.pk}))
    [result] = page.context["tournament_results"]
    assert (result["tournament"], result["places"], result["points"]) == (t, (1, 1), 25)


def test_the_rankings_page_reads_german_for_an_owner(client, club, owner):
    response = client.get(reverse("seasons:index", kwargs={"slug": club.slug}))
    html = response.content.decode()
    for german in (
        "Ranglisten",
        "Ewige Rangliste",
        "Neue Saison",
        "Erster Tag",
        "Einstellungen der Wertung",
        "nach Turnierpunkten",
        "beides, als eigene Tabellen",
        "Mindestens Runden für die Wertung",
        "Punkteschlüssel",
        "Punkte für die Teilnahme",
        "Ranglisten für alle sichtbar",
        "1: 25\n2: 20\n3: 16\n4: 13\n5-8: 10\n9-16: 5\n17-32: 3",
    ):
        assert german in html, german
    for english in ("Rankings", "New season", "Points key", "by tournament points"):
        assert english not in html, english
