"""The sheet in one hand, through Django's test client: game ends announced with who
gets the Bummerl (RULES.md 3.3), the tie-break deal's dealer named alike in the text
and the badge, and the common contracts first (option ``common_contracts``)."""

import re

import pytest
from django.urls import reverse

from base.errors import RuleError
from scoring.rules import RuleSet
from scoring.rules.presets import preset
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client):
    """Anna 0, Ben 1, Clara 2; Anna deals first, Ben is the first Rufer."""
    club = factories.signed_in_club(client)
    return factories.sheet(club)


def deal(client, sheet, **fields):
    data = {"key": factories.key(), "kind": "dreier", "spritzen": 0, **fields}
    response = client.post(
        reverse("sheet:record", kwargs={"pk": sheet.pk}), data, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    return response.content.decode()


def banner(html: str) -> str:
    found = re.search(r'<div class="banner ok saved"[^>]*>(.*?)</div>', html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip()


def heads(html: str) -> list[str]:
    return re.findall(r'<th scope="col">(.*?)</th>', html, re.S)


def test_the_deal_that_ends_the_game_says_who_gets_the_bummerl(client, table):
    # Ben (Rufer) Zehnergang x2 won: 0/20/0. Clara (Rufer) normal 2 won: 0/20/2.
    # Anna (Rufer) normal 1 won: 1/20/2. Ben (Rufer) normal 3 won: 1/23/2.
    # Clara is Rufer; Ben's Bettler won: 1/27/2. Game over; Anna has the fewest (1).
    deal(client, table, declarer=1, contract="zehnergang", spritzen=1, won=1)
    deal(client, table, declarer=2, contract="normal", normal_points=2, won=1)
    deal(client, table, declarer=0, contract="normal", normal_points=1, won=1)
    html = deal(client, table, declarer=1, contract="normal", normal_points=3, won=1)
    assert "ist aus" not in banner(html)
    html = deal(client, table, declarer=1, contract="bettler", won=1)
    assert banner(html) == (
        "Runde 1 ist aus (1 · 27 · 2): Anna bekommt ein Bummerl. "
        "Gespeichert: Bettler · Ben · gewonnen Rückgängig"
    )


def test_a_schneider_is_announced(client, table):
    # Ben Zehnergang x2 won: 0/20/0; Clara normal 1 won: 0/20/1; Anna is Rufer, Ben's
    # Bettler won: 0/24/1. Anna has 0: Schneider, 2 Bummerl.
    deal(client, table, declarer=1, contract="zehnergang", spritzen=1, won=1)
    deal(client, table, declarer=2, contract="normal", normal_points=1, won=1)
    html = deal(client, table, declarer=1, contract="bettler", won=1)
    assert "Runde 1 ist aus (0 · 24 · 1): Anna ist Schneider: 2 Bummerl." in banner(html)


def test_a_retourschneider_is_announced(client, table):
    # Ben Rufer: Clara's Gang x2 lost, Anna and Ben +18: 18/18/0. Clara Rufer: her
    # Assenbettler lost, +5 each: 23/23/0. Anna Rufer: Clara's Kontrabauernschnapser
    # (24) won: 23/23/24. Two stood at 23, the third at 0 and won: 4 Bummerl each.
    deal(client, table, declarer=2, contract="gang", spritzen=1, won=0)
    deal(client, table, declarer=2, contract="assenbettler", won=0)
    html = deal(client, table, declarer=2, contract="kontrabauernschnapser", won=1)
    assert (
        "Runde 1 ist aus (23 · 23 · 24): Retourschneider: Anna & Ben bekommen je 4 Bummerl."
        in banner(html).replace("&amp;", "&")
    )


def test_the_tie_break_text_and_the_dealer_badge_name_the_third_player(client, table):
    # Ben Zehnergang x2 won: 0/20/0. Clara's normal 2 lost: Anna, Ben +2: 2/22/0.
    # Anna's normal 2 lost: Ben, Clara +2: 2/24/2. Anna and Clara tie for the last
    # place; Ben, the third, deals the tie-break deal (not Anna, the next dealer else).
    deal(client, table, declarer=1, contract="zehnergang", spritzen=1, won=1)
    deal(client, table, declarer=2, contract="normal", normal_points=2, won=0)
    html = deal(client, table, declarer=0, contract="normal", normal_points=2, won=0)
    text = re.search(
        r'<form class="entry tiebreak".*?<p class="banner warn"[^>]*>(.*?)</p>', html, re.S
    )
    assert text.group(1) == (
        "Gleichstand um den letzten Platz: Anna und Clara spielen ein Stechen "
        "(ein Spiel Zweierschnapsen); Ben gibt. Wer hat es gewonnen?"
    )
    cells = heads(html)
    assert ['class="badge"' in c for c in cells] == [False, True, False]
    assert not any("badge rufer" in c for c in cells)
    assert 'class="banner ok saved"' in html and "ist aus" not in banner(html)
    # Clara wins the tie-break: Anna gets the Bummerl (2 points, no Schneider).
    response = client.post(
        reverse("sheet:record", kwargs={"pk": table.pk}),
        {"key": factories.key(), "kind": "tiebreak", "tiebreak_winner": 2},
        headers={"HX-Request": "true"},
    )
    assert "Runde 1 ist aus (2 · 24 · 2): Anna bekommt ein Bummerl." in banner(
        response.content.decode()
    )


def test_the_common_contracts_come_first_and_the_rest_behind_more(client, table):
    html = client.get(reverse("sheet:page", kwargs={"pk": table.pk})).content.decode()
    form = html[html.index('class="entry deal-form"') :]
    first, more = form.split('<details class="more"', 1)
    more = more[: more.index("</details>")]
    codes = lambda part: re.findall(r'name="contract" value="([a-z_]+)"', part)  # noqa: E731
    assert codes(first) == [
        "normal", "bettler", "assenbettler", "ass_bettler", "schnapser", "gang", "kontraschnapser",
    ]  # fmt: skip
    assert codes(more) == [
        "plauderer", "damengang", "koenigsgang", "zehnergang", "bauernloch",
        "bauernschnapser", "farbenringerl", "kontrabauernschnapser", "trumpfringerl",
    ]  # fmt: skip
    assert "9 weitere Spiele" in more
    # The two Bettler of 5 are told apart.
    assert "hält ein Ass" in first and "auch ohne Ass" in first


def test_a_club_picks_its_common_contracts():
    wiki = preset("wiki")
    club = wiki.with_changes(options={"common_contracts": ["damengang", "nonesuch"]})
    assert [c.code for c in club.common] == ["normal", "damengang"]
    assert [c.code for c in preset("spielregeln").common] == [
        "normal", "bettler", "assenbettler", "schnapser", "gang", "kontraschnapser",
    ]  # fmt: skip
    with pytest.raises(RuleError):
        RuleSet.from_dict({**wiki.to_dict(), "options": {"common_contracts": "gang"}})


def test_two_players_read_the_end_of_a_bummerl_as_points_left(client):
    # Anna wins 3, 3 and 1: she is at 0 left, Ben still at 7 (no point): Schneider.
    club = factories.signed_in_club(client)
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    url = reverse("sheet:record", kwargs={"pk": sheet.pk})
    for points in (3, 3, 1):
        response = client.post(
            url,
            {"key": factories.key(), "kind": "quick", "winner": 0, "points": points},
            headers={"HX-Request": "true"},
        )
    assert "Bummerl 1 ist aus (0 · 7): Ben ist Schneider: 2 Bummerl." in banner(
        response.content.decode()
    )


def test_two_players_call_a_finished_game_a_bummerl_in_the_list_as_in_the_banner(client):
    # RULES.md 2: the game of two-player Schnapsen is the Bummerl; the sheet's banner
    # and its deal list use the one word.
    club = factories.signed_in_club(client)
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    url = reverse("sheet:record", kwargs={"pk": sheet.pk})
    for points in (3, 3, 1):
        response = client.post(
            url,
            {"key": factories.key(), "kind": "quick", "winner": 0, "points": points},
            headers={"HX-Request": "true"},
        )
    html = response.content.decode()
    assert "Bummerl 1 ist aus" in banner(html)
    line = re.search(r'<li class="game-end">\s*<strong>([^<]*)</strong>', html).group(1)
    assert line == "Bummerl 1, fehlende Punkte:"
    page = client.get(reverse("sheet:page", kwargs={"pk": sheet.pk})).content.decode()
    assert "Runde" not in page
    # Dreierschnapsen keeps its word for a game.
    three = factories.sheet(club, names=("Clara", "Dora", "Emil"))
    factories.finish_game(three)
    page = client.get(reverse("sheet:page", kwargs={"pk": three.pk})).content.decode()
    assert re.search(r'<li class="game-end">\s*<strong>Runde 1:</strong>', page)
