"""Players find their match (RULES.md 5.2, 5.3, 5.8): the public "where do I play?"
under the tournament's public link, with a name search and the byes of the round; a
player's several matches of a round numbered in the order he plays them, on the desk, the
public page and the PDF; the live bracket's name search; and each player's personal link
for the night (a signed token), handed out by the desk as QR codes.

The night: 16 cards, seven players, up to three cards each, round 2 (the quarter-final)
drawn and three of its matches open, played at three tables. Jürgen Öhlinger holds cards
6, 9 and 16, all three in open matches: 2 (table 2), 3 (table 3) and 4 (table 1, after
match 1 there); Franz holds 10 and 15, in matches 3 and 4."""

import re

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.base.test_printing import pdf_of, text_of
from tests.markup import squeezed
from tournaments.models import Card, Pairing, Result
from tournaments.personal import personal_token, read_personal_token
from tournaments.services.layout import set_tables
from tournaments.services.reading import load_state
from tournaments.services.sheets import Actor
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Clara", "Dora", "Emil", "Jürgen Öhlinger", "Franz"]


def night(stop_after=2, tables=3, seed=12):
    factories.presets()
    club = factories.club()
    t = simulate(
        club, cards=16, players=7, max_cards=3, seed=seed, names=NAMES, stop_after=stop_after
    )
    if tables:
        set_tables(t, tables, Actor(), seen=0)
    t.refresh_from_db()
    return t


def open_matches(t, round_number):
    """(match number, left card number, right card number) of the round's open matches,
    read from the database."""
    decided = Result.objects.live().values_list("pairing_id", flat=True)
    pairings = (
        Pairing.objects.live()
        .filter(tournament=t, round__number=round_number, round__undone_at__isnull=True)
        .filter(kind="match", stage="main")
        .exclude(pk__in=list(decided))
        .select_related("left", "right")
        .order_by("number")
    )
    return [(p.number, p.left.number, p.right.number) for p in pairings]


def private_tokens(t) -> set[str]:
    tokens = set()
    for p in Pairing.objects.filter(tournament=t):
        tokens |= {p.token, p.left_token, p.right_token}
    for player_id in Card.objects.filter(tournament=t).values_list("player_id", flat=True):
        tokens.add(personal_token(t.pk, player_id))
    return {token for token in tokens if token}


def cards_of(t, name):
    return sorted(
        Card.objects.filter(tournament=t, player__name=name).values_list("number", flat=True)
    )


def main_text(response) -> str:
    html = response.content.decode()
    return html[html.index("<main") : html.index("</main>")]


# --- The night as the tests read it ----------------------------------------------------


def test_the_night_has_juergen_in_three_open_matches_of_the_quarter_final():
    t = night()
    assert cards_of(t, "Jürgen Öhlinger") == [6, 9, 16]
    mine = [m for m in open_matches(t, 2) if {m[1], m[2]} & {6, 9, 16}]
    assert [m[0] for m in mine] == [2, 3, 4]
    # three tables: match n at table (n - 1) % 3 + 1 (RULES.md 5.3: the desk deals them)
    rows = {row.pairing.number: row.table for row in load_state_rows(t)}
    assert rows == {1: 1, 2: 2, 3: 3, 4: 1}


def load_state_rows(t):
    from tournaments.rows import rows

    state = load_state(t)
    return rows(state, state.pairings[state.current.pk])


# --- Several matches in one round, numbered in the order they are played -----------------

JUERGEN = [
    (16, 2, "2", "1. von 3 Partien"),
    (9, 3, "3", "2. von 3 Partien, nach Tisch 2"),
    (6, 4, "1", "3. von 3 Partien, nach Tisch 3"),
]
"""(card, match, table, order) of Jürgen's lines, in the order he plays them: by the
deal of the tables, match 4 waits at table 1 for match 1 and comes after table 3."""


def test_the_desk_numbers_a_players_matches_in_the_order_he_plays_them(client):
    t = night()
    client.force_login(factories.user(t.club, role="member"))
    url = reverse("seats", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    response = client.get(url)
    lines = [
        (s.card.number, s.row.pairing.number, str(s.row.table), s.order_text)
        for s in response.context["seats"]
        if s.player.name == "Jürgen Öhlinger"
    ]
    assert lines == JUERGEN
    html = response.content.decode()
    html = squeezed(html)
    for card, match, table, order in JUERGEN:
        assert (
            squeezed(
                f'<tr><td>Jürgen Öhlinger <small>#{card}</small> <small class="order">{order}</small>'
                f'</td><td class="num">{table}</td>'
            )
            in html
        )
        assert f"<td>Viertelfinale, Partie {match}</td></tr>" in html
    franz = [
        (s.card.number, s.row.pairing.number, s.order_text)
        for s in response.context["seats"]
        if s.player.name == "Franz"
    ]
    assert franz == [(15, 3, "1. von 2 Partien"), (10, 4, "2. von 2 Partien, nach Tisch 3")]
    # a player with one open match gets no order
    singles = [
        s for s in response.context["seats"] if s.player.name not in ("Jürgen Öhlinger", "Franz")
    ]
    assert [(s.player.name, s.order_text) for s in singles] == [("Emil", "")]
    assert html.count('class="order"') == 5


def test_the_pdf_of_where_do_i_play_numbers_his_matches_too(client):
    t = night()
    client.force_login(factories.user(t.club, role="member"))
    url = reverse("print_seats", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    text = text_of(pdf_of(client.get(url)))
    assert "Jürgen Öhlinger 3. von 3 Partien, nach Tisch 3 6 1" in text
    assert "Jürgen Öhlinger 1. von 3 Partien 16 2" in text


def test_without_tables_the_order_names_the_match_before(client):
    t = night(tables=0)
    client.force_login(factories.user(t.club, role="member"))
    url = reverse("seats", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    seats = client.get(url).context["seats"]
    assert [s.order_text for s in seats if s.player.name == "Jürgen Öhlinger"] == [
        "1. von 3 Partien",
        "2. von 3 Partien, nach Viertelfinale, Partie 2",
        "3. von 3 Partien, nach Viertelfinale, Partie 3",
    ]


def test_the_order_in_english(client):
    t = night()
    client.force_login(factories.user(t.club, role="member"))
    url = reverse("seats", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    seats = client.get(url, headers={"Accept-Language": "en"}).context["seats"]
    client.cookies["django_language"] = "en"
    html = client.get(url).content.decode()
    assert '<small class="order">match 3 of 3, after table 3</small>' in html
    assert len(seats) == 6
    assert [s.order_text for s in seats if s.player.name == "Franz"] == [
        "match 1 of 2",
        "match 2 of 2, after table 3",
    ]


# --- The public "where do I play?" ---------------------------------------------------------


def test_the_public_page_lists_every_open_match_by_name_without_private_links():
    t = night()
    response = Client().get(reverse("public_seats", kwargs={"token": t.public_token}))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Wo spiele ich? <small>Simulation · Viertelfinale</small></h1>" in html
    seats = response.context["seats"]
    lines = sorted((s.row.pairing.number, s.card.number) for s in seats)
    expected = sorted(
        [(n, left) for n, left, _right in open_matches(t, 2)]
        + [(n, right) for n, _left, right in open_matches(t, 2)]
    )
    assert lines == expected and len(lines) == 6
    assert squeezed(
        '<tr><td>Jürgen Öhlinger <small>#6</small> <small class="order">3. von 3 Partien, '
        'nach Tisch 3</small></td><td class="num">1</td>'
    ) in squeezed(html)
    for token in private_tokens(t):
        assert token not in html
    assert "bezahlt" not in html and "€" not in html
    assert "/c/" not in main_text(response)  # no link into the club's pages


def test_the_public_search_finds_a_player_with_umlauts_folded():
    t = night()
    url = reverse("public_seats", kwargs={"token": t.public_token})
    for query in ("ohlinger", "ÖHLINGER", "jurgen", "Jürgen Öh"):
        seats = Client().get(url, {"q": query}).context["seats"]
        assert [(s.card.number, s.order_text) for s in seats] == [
            (c, o) for c, _m, _t, o in JUERGEN
        ]
    none = Client().get(url, {"q": "Zacharias"})
    assert none.context["seats"] == []
    assert "Keine offene Partie unter diesem Namen." in none.content.decode()


def test_the_public_search_finds_oe_for_oe_umlaut_and_ue_for_ue_umlaut():
    t = night()
    url = reverse("public_seats", kwargs={"token": t.public_token})
    for query in ("oehlinger", "OEHLINGER", "juergen", "Juergen Oeh"):
        seats = Client().get(url, {"q": query}).context["seats"]
        assert [s.card.number for s in seats] == [c for c, _m, _t, _o in JUERGEN], query
    bracket = reverse("bracket", kwargs={"token": t.public_token})
    found = Client().get(bracket, {"q": "Oehlinger"}).context["found"]
    assert found and all(
        "Jürgen Öhlinger" in (row.left.player.name, row.right.player.name) for _c, row in found
    )


def test_the_public_page_lists_the_byes_of_the_round_and_finds_them_by_name():
    t = night(stop_after=1, seed=1)
    byes = sorted(
        (p.left.player.name, p.left.number)
        for p in Pairing.objects.filter(tournament=t, kind="bye").select_related("left__player")
    )
    assert len(byes) == 5  # 11 cards sold of 16: five numbers left in the right pot
    url = reverse("public_seats", kwargs={"token": t.public_token})
    response = Client().get(url)
    html = response.content.decode()
    assert [(c.player.name, c.number) for c in response.context["byes"]] == sorted(
        byes, key=lambda b: (b[0].lower(), b[1])
    )
    assert "<h2>Freilos in dieser Runde</h2>" in html
    name, number = byes[0]
    assert f"{name} <small>#{number}</small>" in html
    found = Client().get(url, {"q": name.lower()}).context["byes"]
    assert [(c.player.name, c.number) for c in found] == [b for b in byes if b[0] == name]


def test_the_live_bracket_links_the_public_page_and_finds_a_player_by_name():
    t = night()
    url = reverse("bracket", kwargs={"token": t.public_token})
    html = Client().get(url).content.decode()
    assert f'<a href="/p/{t.public_token}/seats/">Wo spiele ich?</a>' in html
    response = Client().get(url, {"q": "öhlinger"})
    html = response.content.decode()
    mine = {6, 9, 16}
    pairings = [
        p
        for p in Pairing.objects.filter(tournament=t).select_related("left", "right")
        if {p.left.number if p.left else None, p.right.number if p.right else None} & mine
    ]
    assert len(response.context["found"]) == len(pairings)
    assert {row.pairing.pk for _title, row in response.context["found"]} == {p.pk for p in pairings}
    assert "<h2>Partien von „öhlinger“</h2>" in html
    assert "Viertelfinale, 4</a>:" in squeezed(html) and "Tisch 1" in html
    assert f'hx-get="/p/{t.public_token}/?q=%C3%B6hlinger"' in html
    partial = Client().get(url, {"q": "öhlinger"}, headers={"HX-Request": "true"})
    assert "Partien von „öhlinger“" in partial.content.decode()
    nobody = Client().get(url, {"q": "Zacharias"}).content.decode()
    assert "Kein Spieler dieses Namens im Turnierbaum." in nobody


# --- The personal link -------------------------------------------------------------------


def player_id(t, name):
    return Card.objects.filter(tournament=t, player__name=name).first().player_id


def test_the_personal_token_carries_tournament_and_player_and_nothing_else_reads_it():
    t = night()
    pid = player_id(t, "Jürgen Öhlinger")
    token = personal_token(t.pk, pid)
    assert read_personal_token(token) == (t.pk, pid)
    assert personal_token(t.pk, pid) == token
    assert read_personal_token(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert read_personal_token(signing.dumps({"t": t.pk, "p": pid})) is None  # no salt
    assert read_personal_token(signing.dumps({"t": t.pk, "p": pid}, salt="other")) is None
    assert read_personal_token("not-a-token") is None


def test_the_personal_page_shows_his_matches_in_order_and_nothing_of_others():
    t = night()
    token = personal_token(t.pk, player_id(t, "Jürgen Öhlinger"))
    response = Client().get(reverse("personal", kwargs={"token": token}))
    assert response.status_code == 200
    assert response.request["PATH_INFO"] == f"/p/me/{token}/"
    text = main_text(response)
    assert "<h1>Jürgen Öhlinger <small>Simulation · " in text
    assert '<p id="my-cards">Deine Karten: #6, #9, #16</p>' in text
    assert "<h2>Viertelfinale</h2>" in text
    opponents = {}
    for number, left, right in open_matches(t, 2):
        other = right if left in (6, 9, 16) else left
        opponents[number] = Card.objects.get(tournament=t, number=other).player.name
    for _card, match, table, order in JUERGEN:
        assert squeezed(
            f"<li><strong>Tisch {table}</strong> · gegen {opponents[match]} · "
            f'Viertelfinale, Partie {match} <small class="order">({order})</small></li>'
        ) in squeezed(text)
    # his own card numbers only, no one else's; no private link, no payment
    assert set(re.findall(r"#(\d+)", text)) == {"6", "9", "16"}
    html = response.content.decode()
    for other in private_tokens(t) - {token}:
        assert other not in html
    assert "bezahlt" not in html and "€" not in html
    assert "my-place" not in text  # still in


def test_a_player_out_of_the_night_sees_his_place():
    t = night()
    state = load_state(t)
    round_1 = state.rounds[0]
    losers = []
    for p in state.pairings[round_1.pk]:
        result = state.results.get(p.pk)
        if p.kind == "match" and result:
            losers.append(p.left if result.winner_id == p.right_id else p.right)
    in_round_2 = {c for p in state.pairings[state.rounds[1].pk] for c in (p.left_id, p.right_id)}
    out = next(
        c.player
        for c in losers
        if not Card.objects.filter(tournament=t, player=c.player, pk__in=in_round_2).exists()
    )
    # 8 cards play on: the round-1 losers share the places 9 to 8 + their number
    html = Client().get(reverse("personal", kwargs={"token": personal_token(t.pk, out.pk)}))
    expected = f'<p class="banner ok" id="my-place">Dein Platz: 9–{8 + len(losers)}</p>'
    assert expected in html.content.decode()
    assert "Gerade keine Partie" not in html.content.decode()


def test_a_player_waiting_for_the_next_draw_is_told_so_and_sees_his_byes():
    # Round 1 of 16 (the Achtelfinale) with 11 cards sold: Emil's only card 5 has a bye;
    # Anna's card 1 has one, her cards 9 and 11 play open matches.
    t = night(stop_after=1, seed=1)
    byes = Pairing.objects.filter(tournament=t, kind="bye").select_related("left__player")
    assert sorted((p.left.player.name, p.left.number) for p in byes) == [
        ("Anna", 1),
        ("Dora", 4),
        ("Emil", 5),
        ("Franz", 7),
        ("Jürgen Öhlinger", 6),
    ]
    assert cards_of(t, "Emil") == [5] and cards_of(t, "Anna") == [1, 9, 11]
    assert [m for m in open_matches(t, 1) if {m[1], m[2]} & {9, 11}] == [(3, 9, 8), (6, 11, 2)]
    emil = Client().get(
        reverse("personal", kwargs={"token": personal_token(t.pk, player_id(t, "Emil"))})
    )
    text = main_text(emil)
    assert (
        '<ul class="plain" id="my-byes"><li>Achtelfinale: Freilos mit Karte #5</li></ul>'
        in squeezed(text)
    )
    assert "Gerade keine Partie für dich: warte auf die nächste Auslosung." in text
    assert "my-matches" not in text and "my-place" not in text
    anna = Client().get(
        reverse("personal", kwargs={"token": personal_token(t.pk, player_id(t, "Anna"))})
    )
    text = main_text(anna)
    text = squeezed(text)
    assert '<ul class="plain" id="my-byes"><li>Achtelfinale: Freilos mit Karte #1</li></ul>' in text
    assert text.count("<li><strong>Tisch ") == 2
    assert (
        squeezed('Achtelfinale, Partie 3 <small class="order">(1. von 2 Partien)</small>') in text
    )
    assert (
        squeezed('Achtelfinale, Partie 6 <small class="order">(2. von 2 Partien, nach Tisch ')
        in text
    )
    assert "Gerade keine Partie" not in text


def test_a_wrong_or_tampered_personal_link_answers_404():
    t = night()
    other = factories.club(name="Anderer Klub")
    stranger = factories.players(other, "Fremd")[0]
    good = personal_token(t.pk, player_id(t, "Anna"))
    for token in (
        "nonsense",
        good[:-2] + ("xy" if good[-2:] != "xy" else "zz"),
        signing.dumps({"t": t.pk, "p": player_id(t, "Anna")}),  # no salt of its own
        personal_token(t.pk + 1000, player_id(t, "Anna")),  # no such tournament
        personal_token(t.pk, stranger.pk),  # holds no card of it
    ):
        assert Client().get(f"/p/me/{token}/").status_code == 404, token
    assert Client().get(f"/p/me/{good}/").status_code == 200


# --- The desk hands the personal links out -------------------------------------------------


def test_the_personal_links_page_is_for_organisers_with_one_card_per_player():
    t = night()
    slug = t.club.slug
    url = reverse("personal_links", kwargs={"slug": slug, "tournament_id": t.pk})
    pdf = reverse("print_personal_links", kwargs={"slug": slug, "tournament_id": t.pk})
    codes = {}
    for role in ("member", "scorer", "organiser", "owner"):
        client = Client()
        client.force_login(factories.user(t.club, role=role))
        codes[role] = (client.get(url).status_code, client.get(pdf).status_code)
    assert codes == {
        "member": (403, 403),
        "scorer": (403, 403),
        "organiser": (200, 200),
        "owner": (200, 200),
    }
    assert Client().get(url).status_code == 302
    organiser = Client()
    organiser.force_login(factories.user(t.club, role="organiser"))
    response = organiser.get(url)
    links = response.context["links"]
    assert [link.player.name for link in links] == sorted(NAMES, key=str.lower)
    html = response.content.decode()
    for link in links:
        token = personal_token(t.pk, link.player.pk)
        assert link.url == f"http://testserver/p/me/{token}/"
        assert f'<a href="http://testserver/p/me/{token}/">Öffnen</a>' in html
        assert link.numbers == tuple(cards_of(t, link.player.name))
    assert html.count("<svg") == 7
    desk = organiser.get(reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}))
    assert f'href="{url}">Persönliche Links</a>' in desk.content.decode()
    member = Client()
    member.force_login(factories.user(t.club, role="member"))
    desk = member.get(reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}))
    assert url not in desk.content.decode()
    text = text_of(pdf_of(organiser.get(pdf)))
    assert "Simulation · Persönliche Links" in text
    for name in NAMES:
        assert name in text
    assert "Jürgen Öhlinger Simulation #6, #9, #16" in text
