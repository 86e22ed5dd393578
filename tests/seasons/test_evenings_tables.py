"""*Abende* are calendar days (Vienna), *Tische* are sheets: one word and one figure each,
the same on the player's page, the club's tally, the season and all-time rankings, their
export and printout. Anna plays two tables on 5 March 2026 and one on 12 March: 2 Abende,
3 Tische."""

import csv
import datetime as dt
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import Sheet
from seasons.models import RankingSettings, Season
from tests import factories
from tests.markup import squeezed

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna(client):
    """Anna v Ben at 19:00 (Anna 1 Bummerl in 2 games) and Anna v Clara at 22:30 (1 in
    1) on 5 March; Anna v Ben on 12 March (1 in 3). Ben: 2 tables on 2 days. Anna v
    Clara on 19 March is a tournament's match."""
    club = factories.signed_in_club(client, role="member")
    Season.objects.create(
        club=club, name="2026", first_day=dt.date(2026, 1, 1), last_day=dt.date(2026, 12, 31)
    )
    RankingSettings.objects.create(club=club, min_games=1, pick="per_game")
    anna, ben, clara = factories.players(club, "Anna", "Ben", "Clara")
    factories.two_player_sheet(club, anna, ben, when=dt.datetime(2026, 3, 5, 19), losers=(0, 1))
    factories.two_player_sheet(club, anna, clara, when=dt.datetime(2026, 3, 5, 22, 30), losers=(0,))
    factories.two_player_sheet(club, anna, ben, when=dt.datetime(2026, 3, 12, 19), losers=(1, 0, 1))
    # A tournament's match sheet counts in its tournament, never among the evenings.
    match = factories.two_player_sheet(
        club, anna, clara, when=dt.datetime(2026, 3, 19, 19), losers=(0, 0)
    )
    Sheet.objects.filter(pk=match.pk).update(reports_result=True)
    return anna


def test_the_player_page_counts_2_evenings_and_3_tables(client, anna):
    page = client.get(reverse("player", kwargs={"slug": anna.club.slug, "player_id": anna.pk}))
    [part] = page.context["tallies"]
    assert (part["tally"].bummerl, part["tally"].games) == (3, 6)
    assert (part["tally"].days, part["tally"].sheets) == (2, 3)
    html = page.content.decode()
    assert "<div><dt>Abende</dt><dd>2</dd></div>" in html
    assert "<div><dt>Tische</dt><dd>3</dd></div>" in html
    # Best evenings are days: 12 March (1 in 3, one table), then 5 March (2 in 3, two).
    [two] = page.context["statistics"]
    assert [(e["date"], e["bummerl"], e["games"], e["sheets"]) for e in two["best"]] == [
        (dt.date(2026, 3, 12), 1, 3, 1),
        (dt.date(2026, 3, 5), 2, 3, 2),
    ]
    assert two["worst"] == []
    best = html[html.index("<h3>Beste Abende</h3>") :]
    best = best[: best.index("</table>")]
    assert '<th class="num">Tische</th>' in best
    assert best.count("<tr>") == 3  # the heading and two evenings
    best = squeezed(best)
    assert '<td>05.03.2026</td><td class="num">2</td><td class="num">3</td>' in best  # no link
    assert '>12.03.2026</a></td><td class="num">1</td><td class="num">3</td>' in best
    # The chart has a point per evening: 1 in 3, then 3 in 6.
    assert two["per_game"] == pytest.approx(3 / 6)


def test_the_club_tally_counts_the_same_evenings_and_tables(client, anna):
    response = client.get(reverse("club", kwargs={"slug": anna.club.slug}))
    figures = {
        r.record["name"]: (r.record["days"], r.record["sheets"])
        for r in response.context["tally_table"].rows
    }
    assert figures == {"Anna": (2, 3), "Ben": (2, 2), "Clara": (1, 1)}
    headers = [c.header for c in response.context["tally_table"].columns]
    assert headers[-2:] == ["Abende", "Tische"]


def test_the_rankings_their_export_and_printout_count_the_same(client, anna):
    slug = anna.club.slug
    season = Season.objects.get(club=anna.club)
    for url in (
        reverse("seasons:ranking", kwargs={"slug": slug, "season_id": season.pk}),
        reverse("seasons:all_time", kwargs={"slug": slug}),
    ):
        response = client.get(url, {"table": "schnapsen"})
        rows = {
            r.record.name: (r.record.evenings, r.record.sheets)
            for r in response.context["current"][2].paginated_rows
        }
        assert rows == {"Anna": (2, 3), "Ben": (2, 2), "Clara": (1, 1)}
        content = client.get(url, {"table": "schnapsen", "_export": "csv"}).content
        lines = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
        assert lines[0][-3:] == ["Runden", "Abende", "Tische"]
        assert {line[1]: line[-3:] for line in lines[1:]} == {
            "Anna": ["6", "2", "3"],
            "Ben": ["5", "2", "2"],
            "Clara": ["1", "1", "1"],
        }
    pdf = client.get(reverse("seasons:print", kwargs={"slug": slug, "season_id": season.pk}))
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Runden Abende Tische" in text
