"""The ranking exports (CSV, ODS, XLSX; public when the ranking is) never hand a
spreadsheet a formula: a name beginning with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is written with a leading apostrophe and stays text; numbers stay
numbers (OWASP, CSV injection)."""

import datetime as dt
import io

import openpyxl
import pytest
import tablib
from django.urls import reverse

from base.spreadsheets import cell
from clubs.models import Player
from seasons.models import RankingSettings, Season
from tests import factories

pytestmark = pytest.mark.django_db

HEADER = "Rang,Spieler,Bummerl pro Runde,Bummerl bekommen,Schneider erhalten,Runden,Abende,Tische"


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+SUM(A1:A2)", "'+SUM(A1:A2)"),
        ("-2+3", "'-2+3"),
        ("@SUM(1)", "'@SUM(1)"),
        ("\tTab", "'\tTab"),
        ("\rReturn", "'\rReturn"),
        ("Anna=Ben", "Anna=Ben"),
        ("'=quoted already", "'=quoted already"),
        ("", ""),
        (-2, -2),
        (0.3333, 0.3333),
        (None, None),
    ],
)
def test_a_cell_that_a_spreadsheet_would_read_as_a_formula_gets_an_apostrophe(value, written):
    assert cell(value) == written


@pytest.fixture
def ranking_url(client):
    """A public Schnapsen ranking: "=1+1" v "Anna" (Anna two Bummerl, "=1+1" one, in
    three games), "+SUM(A1:A2)" v "-2+3" (one Bummerl each in two games), "@SUM(1)" v
    a player whose name (stored before names were cleaned) begins with a tab (one
    Bummerl to the tab in one game). The visitor is not signed in."""
    club = factories.club()
    season = Season.objects.create(
        club=club, name="2026", first_day=dt.date(2026, 1, 1), last_day=dt.date(2026, 12, 31)
    )
    formula, anna, plus, minus, at, tab = factories.players(
        club, "=1+1", "Anna", "+SUM(A1:A2)", "-2+3", "@SUM(1)", "Tab"
    )
    Player.objects.filter(pk=tab.pk).update(name="\tTab")
    day = dt.datetime(2026, 5, 1, 19)
    factories.two_player_sheet(club, formula, anna, when=day, losers=(1, 0, 1))
    factories.two_player_sheet(club, plus, minus, when=day, losers=(0, 1))
    factories.two_player_sheet(club, at, tab, when=day, losers=(1,))
    RankingSettings.objects.create(club=club, min_games=1, pick="per_game", public=True)
    return reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": season.pk})


def test_the_csv_export_writes_formula_names_as_text(client, ranking_url):
    response = client.get(ranking_url, {"table": "schnapsen", "_export": "csv"})
    assert response.status_code == 200
    assert response.content.decode("utf-8-sig").split("\r\n") == [
        HEADER,
        "1,'@SUM(1),0.0,0,0,1,1,1",
        "2,'=1+1,0.3333,1,0,3,1,1",
        "3,'+SUM(A1:A2),0.5,1,0,2,1,1",
        "3,'-2+3,0.5,1,0,2,1,1",
        "5,Anna,0.6667,2,0,3,1,1",
        "6,'\tTab,1.0,1,0,1,1,1",
        "",
    ]


def test_the_xlsx_export_holds_formula_names_as_text_and_figures_as_numbers(client, ranking_url):
    response = client.get(ranking_url, {"table": "schnapsen", "_export": "xlsx"})
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    names = {row[1].value: row for row in sheet.iter_rows(min_row=2)}
    assert sorted(names) == sorted(["'@SUM(1)", "'=1+1", "'+SUM(A1:A2)", "'-2+3", "Anna", "'\tTab"])
    formula = names["'=1+1"]
    assert (formula[1].value, formula[1].data_type) == ("'=1+1", "s")  # text, not a formula
    assert all(c.data_type != "f" for row in sheet.iter_rows() for c in row)
    assert [(c.value, c.data_type) for c in formula[:1] + formula[2:]] == [
        (2, "n"),
        (0.3333, "n"),
        (1, "n"),
        (0, "n"),
        (3, "n"),
        (1, "n"),
        (1, "n"),
    ]


def test_the_ods_export_writes_formula_names_as_text_cells(client, ranking_url):
    response = client.get(ranking_url, {"table": "schnapsen", "_export": "ods"})
    assert response.status_code == 200
    book = tablib.Dataset().load(response.content, format="ods")
    assert [row[1] for row in book] == [
        "'@SUM(1)",
        "'=1+1",
        "'+SUM(A1:A2)",
        "'-2+3",
        "Anna",
        "'\tTab",
    ]
    assert book[1][2] == 0.3333
