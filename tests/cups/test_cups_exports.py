"""The cup's exports (RULES.md 8.7): CSV, XLSX, ODS and the PDF carry the cells of the
page, each night's points with the struck ones marked."""

import csv
import datetime as dt
import io

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone
from odf import teletype
from odf.opendocument import load as load_ods
from odf.table import Table, TableCell, TableRow
from pypdf import PdfReader

from clubs import audit
from clubs.models import Player
from cups import persons, services
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    """Best 2 of 3 nights of the club Nord; Anna's 20 of the third night is struck."""
    north = factories.club(name="Nord")
    body = factories.body(clubs=(north,))
    found = factories.cup(body, points_key="1: 25\n2: 20", best_of=2)
    for days, order in ((9, ["Anna", "Ben"]), (6, ["Ben", "Clara"]), (3, ["Anna", "Ben"])):
        when = timezone.now() - dt.timedelta(days=days)
        t = factories.played_night(north, order, starts_at=when)
        services.count_night(found, t, actor=audit.SYSTEM)
    return found


def public(client, cup, **query):
    url = reverse("cups:cup", kwargs={"slug": cup.body.slug, "cup_slug": cup.slug})
    return client.get(url, query)


def labels(cup):
    club = cup.nights.first().tournament.club.name
    days = [(timezone.localdate() - dt.timedelta(days=n)).strftime("%d.%m.") for n in (9, 6, 3)]
    return [f"{day} {club}" for day in days]


def expected(cup):
    club = cup.nights.first().tournament.club.name
    return [
        ["Rang", "Spieler", "Vereine", *labels(cup), "Abende", "Punkte"],
        ["1", "Anna", club, "25", "", "25", "2", "50"],
        ["2", "Ben", club, "20", "25", "(20)", "3", "45"],
        ["3", "Clara", club, "", "20", "", "1", "20"],
    ]


def test_the_csv_carries_every_nights_points_struck_ones_in_brackets(client, cup):
    content = public(client, cup, _export="csv").content.decode("utf-8-sig")
    assert list(csv.reader(io.StringIO(content))) == expected(cup)


def test_the_xlsx_carries_the_cells_of_the_csv(client, cup):
    book = openpyxl.load_workbook(io.BytesIO(public(client, cup, _export="xlsx").content))
    rows = [
        ["" if v is None else str(v) for v in r] for r in book.active.iter_rows(values_only=True)
    ]
    assert rows == expected(cup)


def test_the_ods_carries_the_cells_of_the_csv(client, cup):
    document = load_ods(io.BytesIO(public(client, cup, _export="ods").content))
    (sheet,) = document.spreadsheet.getElementsByType(Table)
    rows = []
    for row in sheet.getElementsByType(TableRow):
        cells = []
        for cell in row.getElementsByType(TableCell):
            repeat = int(cell.getAttribute("numbercolumnsrepeated") or 1)
            text = cell.getAttribute("value") or teletype.extractText(cell)  # numbers: value
            cells += [text] * repeat
        rows.append(cells)
    assert rows == expected(cup)


def test_the_pdf_carries_the_cells_of_the_csv(client, cup):
    url = reverse("cups:cup_print", kwargs={"slug": cup.body.slug, "cup_slug": cup.slug})
    pdf = client.get(url)
    assert pdf["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    lines = text.splitlines()
    header = lines.index("Rang Spieler Vereine 1 2 3 Abende Punkte")
    # the text of a PDF leaves an empty cell out: the others, in the CSV's order
    assert lines[header + 1 : header + 4] == [
        " ".join(cell for cell in row if cell) for row in expected(cup)[1:]
    ]


# -- the JSON export: every line and rating re-derived from RULES.md 8 and 9 alone ----------


def points_of(places, key, participation):
    """RULES.md 8.1: the key's points of the first place of the range, at least the
    points for taking part."""
    points = 0
    if places is not None:
        points = next((p for first, last, p in key if first <= places[0] <= last), 0)
    return max(points, participation)


def derive_lines(doc):
    """RULES.md 8.1 to 8.4 from the document's results: ``{cup player: (rank, cells,
    total)}``, each cell ``(points, struck)``."""
    cup = doc["cup"]
    nights = [n["id"] for n in doc["nights"]]
    best = {}
    for night in doc["nights"]:
        for r in night["results"]:
            points = points_of(r["places"], cup["points_key"], cup["participation"])
            assert points == r["points"]
            where = (r["cup_player"], night["id"])
            best[where] = max(best.get(where, 0), points)  # his best of a night, once
    found = {}
    for player in {p for p, _ in best}:
        played = [(i, best[(player, n)]) for i, n in enumerate(nights) if (player, n) in best]
        kept = sorted(played, key=lambda item: (-item[1], item[0]))[: cup["best_of"]]
        struck = {i for i, _ in played} - {i for i, _ in kept}
        cells = [
            (best.get((player, n)), i in struck and (player, n) in best)
            for i, n in enumerate(nights)
        ]
        found[player] = (cells, sum(p for i, p in played if i not in struck))
    totals = sorted({total for _, total in found.values()}, reverse=True)
    ranks = {}
    for player, (cells, total) in found.items():
        ranks[player] = (1 + sum(1 for _, t in found.values() if t > total), cells, total)
    assert totals  # something to check
    return ranks


def derive_ratings(variant, start, k):
    """RULES.md 9.2 and 9.3: Elo from ``start``, every pair of sides an encounter worth
    K/(sides - 1) from the ratings before the game, a team at its partners' mean."""
    rating, games = {}, {}
    for game in variant["games"]:
        sides = game["sides"]
        if len({p for side in sides for p in side}) < sum(len(side) for side in sides):
            continue  # one person on two sides: not counted (9.4)
        before = [sum(rating.get(p, start) for p in side) / len(side) for side in sides]
        change = [0.0] * len(sides)
        for a in range(len(sides)):
            for b in range(len(sides)):
                if a == b:
                    continue
                pa, pb = game["places"][a], game["places"][b]
                score = 1.0 if pa < pb else 0.5 if pa == pb else 0.0
                expected = 1 / (1 + 10 ** ((before[b] - before[a]) / 400))
                change[a] += k / (len(sides) - 1) * (score - expected)
        for side, delta in zip(sides, change, strict=True):
            for p in side:
                rating[p] = rating.get(p, start) + delta
                games[p] = games.get(p, 0) + 1
    return {p: (round(r), games[p]) for p, r in rating.items()}


def test_the_json_export_lets_a_checker_re_derive_every_line_and_rating(client):
    north, south = factories.club(name="Nord"), factories.club(name="Süd")
    body = factories.body(clubs=(north, south))
    found = factories.cup(body, points_key="1: 25\n2: 20\n3-4: 12", best_of=2, qualify_top=2)
    for club, days, order in (
        (north, 9, ["Anna", "Ben", "Clara", "Dora"]),
        (south, 6, ["Anna", "Emil", "Franz"]),
        (north, 3, ["Dora", "Anna", "Ben"]),
    ):
        when = timezone.now() - dt.timedelta(days=days)
        services.count_night(
            found, factories.played_night(club, order, starts_at=when), actor=audit.SYSTEM
        )
    anna_n, anna_s = (Player.objects.get(club=c, name="Anna") for c in (north, south))
    person = persons.link_player(body, anna_n, None, actor=audit.SYSTEM).person
    persons.link_player(body, anna_s, person, actor=audit.SYSTEM)
    factories.partie(south, (anna_s, Player.objects.get(club=south, name="Emil")), winner=1)
    url = reverse("cups:cup_json", kwargs={"slug": body.slug, "cup_slug": found.slug})
    response = client.get(url)
    assert response.status_code == 200
    doc = response.json()
    assert (doc["format"], doc["version"]) == ("bummerl-cup", 1)
    derived = derive_lines(doc)
    (overall,) = [t for t in doc["tables"] if t["code"] == "all"]
    assert {
        line["cup_player"]: (
            line["rank"],
            [(c["points"], c["struck"]) for c in line["cells"]],
            line["total"],
        )
        for line in overall["lines"]
    } == derived
    assert derived[f"person-{person.pk}"][2] == 50  # Anna: 25 at Süd and 25 of Nord's 25, 20
    ratings = doc["ratings"]
    (variant,) = ratings["variants"].values()
    assert {r["cup_player"]: (r["rating"], r["games"]) for r in variant["list"]} == (
        derive_ratings(variant, ratings["start"], ratings["k"])
    )
    assert {q["cup_player"] for q in doc["qualifiers"]} == {
        p for p, (rank, _c, _t) in derived.items() if rank <= 2
    }
