"""The organiser's night at the door and the desk, through the web pages on a real
database: money per player and the cash report, the call list of a draw at the venue,
the names of rounds and matches, table numbers and where each player plays
(RULES.md 5.1, 5.2, 5.4, 5.5)."""

import uuid
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.models import AuditEntry
from tests import factories
from tests.base.test_printing import pdf_of, text_of
from tests.markup import squeezed
from tournaments.models import Card, Pairing
from tournaments.prizes import Place, cash, player_cash
from tournaments.rows import match_name, place_name, round_name
from tournaments.services.cards import sell_cards, set_paid
from tournaments.services.draws import draw_round
from tournaments.services.physical_draws import add_pull, start_physical_draw
from tournaments.services.reading import load_state
from tournaments.services.results import record_result
from tournaments.services.sheets import Actor, open_match_sheet

pytestmark = pytest.mark.django_db
ACTOR = Actor()


def url(name, t, **kwargs):
    return reverse(name, kwargs={"slug": t.club.slug, "tournament_id": t.pk, **kwargs})


@pytest.fixture
def club(client):
    return factories.signed_in_club(client)


def sold(club, *sales, **fields):
    """A tournament of ``club`` (8 cards, fee 10, at most 3 a player) and its ``sales``:
    (name, cards, paid)."""
    t = factories.tournament(club, **fields)
    for name, count, paid in sales:
        sell_cards(t, name, count, ACTOR, uuid.uuid4(), paid=paid)
    return t


def decide_all(t, score="2:0"):
    """Every open match of the latest round and the placement: the left card wins."""
    state = load_state(t)
    pairings = [*state.pairings[state.current.pk], *state.placement]
    for p in pairings:
        if p.kind == "match" and p.pk not in state.results:
            p.tournament = t
            record_result(p, p.left_id, score, uuid.uuid4(), ACTOR)


def play_to_the_end(t):
    """Draw and decide every round and placement match: the left card wins 2:0."""
    while True:
        draw_round(t, ACTOR, seed=3)
        factories.left_wins(t)
        if load_state(t).next_pot_size() is None:
            return


# --- Names of rounds and matches -------------------------------------------------------------


def test_a_round_is_named_by_its_pot_size_in_german_and_english():
    rounds = [(1, 64), (2, 32), (3, 16), (4, 8), (5, 4), (6, 2), (7, 1)]
    with translation.override("de-at"):
        assert [round_name(n, pot) for n, pot in rounds] == [
            "Runde 1 (128)",
            "Runde 2 (64)",
            "Runde 3 (32)",
            "Achtelfinale",
            "Viertelfinale",
            "Halbfinale",
            "Finale",
        ]
        assert [place_name(p.value) for p in Place] == [
            "Spiel um Platz 3",
            "Spiel um Platz 5",
            "Spiel um Platz 7",
            "Spiel um Platz 5–8",
        ]
        assert match_name(2, 4, 3) == "Viertelfinale, Partie 3"
        assert match_name(3, 1, 1) == "Finale"
        assert match_name(1, 64, 17) == "Runde 1 (128), Partie 17"
        assert match_name(None, None, "5-8", "5-8") == "Spiel um Platz 5–8"
    with translation.override("en"):
        assert [round_name(n, pot) for n, pot in rounds] == [
            "Round 1 (128)",
            "Round 2 (64)",
            "Round 3 (32)",
            "Round of 16",
            "Quarter-final",
            "Semi-final",
            "Final",
        ]
        assert place_name("3") == "Match for place 3"
        assert place_name("5-8") == "Match for places 5–8"


def test_a_128_card_night_names_round_one_with_its_cards_on_the_desk_and_round_page(client, club):
    t = factories.tournament(club, cards=128, sold=128, max_cards=1)
    draw_round(t, ACTOR, seed=2)
    desk = client.get(url("tournament", t)).content.decode()
    assert f'<a href="{url("round", t, number=1)}">Runde 1 (128)</a>' in desk
    page = client.get(url("round", t, number=1)).content.decode()
    assert "<h1>Runde 1 (128) <small>64 Paarungen</small></h1>" in page


def test_the_match_page_names_its_round_and_match_and_the_score_reads_with_the_winner(client, club):
    t = factories.tournament(club, cards=8, sold=8)
    draw_round(t, ACTOR, seed=4)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number")[1]
    page = client.get(reverse("match_link", kwargs={"token": pairing.token})).content.decode()
    assert f"<h1>Test <small>Viertelfinale, Partie {pairing.number}</small></h1>" in page
    pairing.tournament = t
    record_result(pairing, pairing.right_id, "2:1", uuid.uuid4(), ACTOR)
    winner = Card.objects.get(pk=pairing.right_id).player.name
    page = client.get(url("round", t, number=1)).content.decode()
    assert f'<strong class="score">{winner} 2:1</strong>' in page
    assert "<h1>Viertelfinale <small>4 Paarungen</small></h1>" in page


def test_placement_matches_and_the_final_are_named_on_the_round_page(client, club):
    t = factories.tournament(club, cards=8, sold=8)
    draw_round(t, ACTOR, seed=4)
    decide_all(t)
    draw_round(t, ACTOR, seed=4)
    page = client.get(url("round", t, number=2)).content.decode()
    assert "<h1>Halbfinale <small>2 Paarungen</small></h1>" in page
    assert page.count('<span class="n">Spiel um Platz 5–8</span>') == 2
    decide_all(t)
    draw_round(t, ACTOR, seed=4)
    page = client.get(url("round", t, number=3)).content.decode()
    assert "<h1>Finale <small>1 Paarung</small></h1>" in page
    assert '<span class="n">Spiel um Platz 3</span>' in page
    assert '<span class="n">Spiel um Platz 5</span>' in page
    assert '<span class="n">Spiel um Platz 7</span>' in page


def test_the_score_sheet_of_a_match_and_its_history_name_the_round_and_match(client, club):
    factories.presets()
    t = factories.tournament(club, cards=8, sold=8)
    draw_round(t, ACTOR, seed=4)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number")[0]
    pairing.tournament = t
    with translation.override("de-at"):
        sheet = open_match_sheet(pairing, ACTOR)
    assert sheet.title == f"Test · Viertelfinale, Partie {pairing.number}"
    history = client.get(url("tournament_history", t)).content.decode()
    assert f"Viertelfinale, Partie {pairing.number}" in history


def test_the_printed_match_sheets_name_the_round_the_match_and_the_table(client, club):
    t = factories.tournament(club, cards=8, sold=8)
    client.post(url("set_tables", t), {"tables": "3", "seen": "0"})
    draw_round(t, ACTOR, seed=4)
    text = text_of(pdf_of(client.get(url("print_match_sheets", t, number=1))))
    matches = Pairing.objects.filter(tournament=t, kind="match").order_by("number")
    for i, match in enumerate(matches):
        assert f"Viertelfinale, Partie {match.number} · Tisch {i % 3 + 1} · auf 2 Bummerl" in text


# --- Cash per player, unpaid flags, the cash report -------------------------------------------


@dataclass(frozen=True)
class Someone:
    pk: int
    name_key: str


@dataclass(frozen=True)
class Sold:
    number: int
    paid: bool
    player_id: int
    player: Someone


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.booleans()), max_size=30),
    st.integers(1, 4),
    st.sampled_from([Decimal("0"), Decimal("5"), Decimal("7.50")]),
)
def test_the_money_per_player_adds_up_to_the_cash_of_the_night(sales, most, fee):
    people = [
        Someone(i, key) for i, key in enumerate(["zach", "anna", "oberhuber", "anna", "b", "c"])
    ]
    cards = [Sold(n + 1, paid, who, people[who]) for n, (who, paid) in enumerate(sales)]
    lines = player_cash(fee, most, cards)
    total = cash(fee, cards)
    assert sum(len(line.cards) for line in lines) == total.sold
    assert sum(line.paid for line in lines) == total.paid
    assert sum((line.owed for line in lines), Decimal(0)) == total.open_amount
    assert sum((line.paid_amount for line in lines), Decimal(0)) == total.paid_amount
    assert all(line.left == max(0, most - len(line.cards)) for line in lines)
    assert [(line.player.name_key, line.player.pk) for line in lines] == sorted(
        (line.player.name_key, line.player.pk) for line in lines
    )
    for line in lines:
        assert [c.number for c in line.cards] == sorted(c.number for c in line.cards)
        assert all(not c.paid for c in line.unpaid)


def test_the_desk_shows_cards_paid_owed_and_cards_left_per_player(client, club):
    t = sold(club, ("Zach", 1, True), ("Anna", 3, False), ("Ömer", 2, True))
    set_paid(Card.objects.get(tournament=t, number=3), ACTOR, paid=True)
    response = client.get(url("tournament", t))
    lines = [
        (line.player.name, len(line.cards), line.paid, line.owed, line.left)
        for line in response.context["players"]
    ]
    assert lines == [("Anna", 3, 1, 20, 0), ("Ömer", 2, 2, 0, 1), ("Zach", 1, 1, 0, 2)]
    html = response.content.decode()
    assert (
        "<p>6 Karten verkauft, 4 bezahlt (€ 40,00), 2 offen (€ 20,00). "
        '<strong class="in-box">In der Kassa: € 40,00.</strong></p>'
    ) in html
    row = '<tr class="unpaid"><td>Anna</td><td class="num">3</td><td class="num">1</td>'
    assert row in squeezed(html)
    assert squeezed("€ 20,00 <form") in squeezed(html)


def test_paying_a_players_cards_sent_twice_records_each_card_once(client, club):
    t = sold(club, ("Anna", 2, False), ("Ben", 1, False))
    anna = list(Card.objects.filter(tournament=t, player__name="Anna"))
    data = {"card": [str(c.pk) for c in anna]}
    first = client.post(url("pay_player", t), data)
    assert first["Location"] == url("tournament", t) + "#cash"
    client.post(url("pay_player", t), data)
    assert sorted(
        Card.objects.filter(tournament=t, paid=True).values_list("number", flat=True)
    ) == [
        1,
        2,
    ]
    entries = AuditEntry.objects.filter(scope="tournament", scope_id=t.pk, action="card paid")
    assert [(e.before, e.after) for e in entries.order_by("id")] == [
        ({"card": 1, "paid": False}, {"card": 1, "paid": True}),
        ({"card": 2, "paid": False}, {"card": 2, "paid": True}),
    ]
    assert client.get(url("tournament", t)).context["unpaid"][0].player.name == "Ben"


def test_taking_back_paid_sent_twice_records_once(client, club):
    t = sold(club, ("Anna", 1, True))
    card = Card.objects.get(tournament=t)
    for _ in range(2):
        client.post(url("mark_paid", t, card_id=card.pk), {"paid": "0", "confirm": "1"})
    entries = AuditEntry.objects.filter(scope="tournament", scope_id=t.pk, action="card paid")
    assert [(e.before, e.after) for e in entries] == [
        ({"card": 1, "paid": True}, {"card": 1, "paid": False})
    ]


def test_a_member_sees_the_cash_but_cannot_pay_or_print_the_report(client):
    club = factories.signed_in_club(client, role="member")
    t = sold(club, ("Anna", 1, False))
    card = Card.objects.get(tournament=t)
    assert client.post(url("pay_player", t), {"card": card.pk}).status_code == 403
    assert client.get(url("print_cash", t)).status_code == 403
    assert not Card.objects.get(pk=card.pk).paid
    assert "jetzt bezahlt" not in client.get(url("tournament", t)).content.decode()


def test_unpaid_cards_are_flagged_before_each_draw(client, club):
    t = sold(club, ("Anna", 2, False), ("Ben", 1, True), ("Clara", 1, False), ("Dora", 1, True))
    flag = (
        '<div class="banner warn unpaid" role="status"><strong>Noch nicht bezahlt:</strong>\n'
        "Anna (Karten 1, 2: € 20,00), Clara (Karte 4: € 10,00)</div>"
    )
    flag = squeezed(flag)
    assert flag in squeezed(client.get(url("tournament", t)).content.decode())
    round_ = start_physical_draw(t, ACTOR)
    assert flag in squeezed(client.get(url("physical_draw", t)).content.decode())
    for number in (1, 2, 3, 4, 1):
        add_pull(t, round_.pk, number, ACTOR)
    page = client.get(url("physical_draw", t))  # the draw is complete: to the round page
    assert page.status_code == 302
    decide_all(t)
    assert flag in squeezed(client.get(url("tournament", t)).content.decode())  # round 2 is due
    Card.objects.filter(tournament=t).update(paid=True)
    assert "Noch nicht bezahlt" not in client.get(url("tournament", t)).content.decode()


def test_a_prize_whose_winner_has_not_paid_is_flagged_on_the_desk_and_the_report(client, club):
    prizes = [{"place": 1, "description": "Schinken"}, {"place": 2, "description": "Wein"}]
    t = factories.tournament(club, cards=8, sold=8, prizes=prizes)
    play_to_the_end(t)
    state = load_state(t)
    first = next(a for a in state.awards() if a.place == 1)
    winner = state.cards[first.card]
    set_paid(winner, ACTOR, paid=False)
    html = client.get(url("tournament", t)).content.decode()
    assert squeezed(
        f"<li><strong>1.</strong> Schinken: {winner.player.name} (Karte {winner.number}) "
        '<strong class="unpaid">nicht bezahlt: € 10,00</strong></li>'
    ) in squeezed(html)
    second = next(a for a in state.awards() if a.place == 2)
    runner_up = state.cards[second.card]
    assert squeezed(
        f"<li><strong>2.</strong> Wein: {runner_up.player.name} (Karte {runner_up.number})</li>"
    ) in squeezed(html)
    text = text_of(pdf_of(client.get(url("print_cash", t))))
    assert "bezahlt · € 10,00 7 € 70,00" in text
    assert "nicht bezahlt · € 10,00 1 € 10,00" in text
    assert "verkauft 8 € 80,00" in text
    assert f"Nicht bezahlt Spieler Karten offen {winner.player.name} {winner.number} € 10,00" in (
        text
    )
    assert f"1. Schinken {winner.player.name} {winner.number} € 10,00" in text
    assert f"2. Wein {runner_up.player.name} {runner_up.number} –" in text


def test_the_cash_report_of_a_night_all_paid(client, club):
    t = sold(club, ("Anna", 2, True), ("Ben", 3, True))
    text = text_of(pdf_of(client.get(url("print_cash", t))))
    assert "Test · Kassabericht" in text
    assert "Alle Karten sind bezahlt." in text
    assert "Noch kein Preis vergeben." in text
    assert "Anna 2 2 € 20,00 – Ben 3 3 € 30,00 –" in text


# --- The call list of a draw at the venue -----------------------------------------------------


def test_the_call_list_says_who_draws_now_and_who_next(client, club):
    t = sold(club, ("Anna", 1, True), ("Ben", 2, False), ("Clara", 1, True), ("Dora", 1, True))
    round_ = start_physical_draw(t, ACTOR)
    add_pull(t, round_.pk, 2, ACTOR)  # Anna, left 2
    response = client.get(url("physical_draw", t))
    calls = [
        (c.position, c.player.name, c.cards, c.pulled, c.done, c.now)
        for c in response.context["calls"]
    ]
    assert calls == [
        (1, "Anna", (1,), (("left", 2),), True, False),
        (2, "Ben", (2, 3), (), False, True),
        (3, "Clara", (4,), (), False, False),
        (4, "Dora", (5,), (), False, False),
    ]
    html = response.content.decode()
    assert "Als Nächstes: Ben (Karte 2)" in html
    assert "Danach: Clara</p>" in squeezed(html)
    add_pull(t, round_.pk, 1, ACTOR)  # Ben's first card: he draws on with his second
    html = client.get(url("physical_draw", t)).content.decode()
    assert "Als Nächstes: Ben (Karte 3)" in html
    assert "Danach: Clara</p>" in squeezed(html)
    text = text_of(pdf_of(client.get(url("print_calls", t))))
    assert "Test · Aufrufliste" in text
    assert "Viertelfinale · Töpfe zu 4" in text
    assert "1 Anna 1 links 2 2 Ben 2, 3 links 1 € 20,00 3 Clara 4 4 Dora 5" in text


def test_in_a_later_round_the_call_list_puts_holders_of_several_cards_first(client, club):
    t = sold(club, ("Anna", 1, True), ("Ben", 1, True), ("Clara", 3, True), ("Dora", 3, True))
    draw_round(t, ACTOR, seed=1)
    decide_all(t)
    start_physical_draw(t, ACTOR)
    state = load_state(t)
    holding = {}
    for card_id in state.in_play():
        name = state.cards[card_id].player.name
        holding[name] = holding.get(name, 0) + 1
    calls = client.get(url("physical_draw", t)).context["calls"]
    counts = [len(c.cards) for c in calls]
    assert counts == sorted(counts, key=lambda n: n == 1)  # several cards first
    assert {c.player.name: len(c.cards) for c in calls} == holding
    assert calls[0].now and not any(c.now for c in calls[1:])


def test_the_call_list_pdf_is_for_organisers_during_a_draw_at_the_venue(client, club):
    t = sold(club, ("Anna", 1, True), ("Ben", 2, True), ("Clara", 2, True))
    assert client.get(url("print_calls", t)).status_code == 404  # no draw at the venue
    start_physical_draw(t, ACTOR)
    client.force_login(factories.user(club, role="scorer"))
    assert client.get(url("print_calls", t)).status_code == 403


# --- Tables and where each player plays -------------------------------------------------------


def test_the_matches_of_the_round_are_dealt_out_over_the_tables(client, club):
    t = factories.tournament(club, cards=16, sold=16, max_cards=1)
    response = client.post(url("set_tables", t), {"tables": "5", "seen": "0"})
    assert response["Location"] == url("tournament", t) + "#tables"
    draw_round(t, ACTOR, seed=1)
    state = load_state(t)
    tables = [seat.row.table for seat in client.get(url("seats", t)).context["seats"]]
    assert sorted(tables) == sorted([1, 2, 3, 4, 5, 1, 2, 3] * 2)
    rows = client.get(url("round", t, number=1)).context["rows"]
    assert [(row.pairing.number, row.table) for row in rows] == [
        (n, (n - 1) % 5 + 1) for n in range(1, 9)
    ]
    first = state.pairings[state.current.pk][0]
    page = client.get(reverse("match_link", kwargs={"token": first.token})).content.decode()
    assert "<h1>Test <small>Achtelfinale, Partie 1 · Tisch 1</small></h1>" in page


def test_setting_the_tables_from_an_old_page_is_refused_and_the_same_number_logs_once(client, club):
    t = factories.tournament(club, cards=8, sold=8)
    client.post(url("set_tables", t), {"tables": "4", "seen": "0"})
    client.post(url("set_tables", t), {"tables": "4", "seen": "0"})  # sent twice
    response = client.post(url("set_tables", t), {"tables": "6", "seen": "0"})  # an old page
    assert response.status_code == 400
    assert (
        "Inzwischen wurden die Tische auf 4 gesetzt: diese Seite war veraltet."
        in response.content.decode()
    )
    bad = client.post(url("set_tables", t), {"tables": "-1", "seen": "4"})
    assert bad.status_code == 400
    t.refresh_from_db()
    assert t.tables == 4
    entries = AuditEntry.objects.filter(scope="tournament", scope_id=t.pk, action="tables set")
    assert [(e.before, e.after) for e in entries] == [({"tables": 0}, {"tables": 4})]
    history = client.get(url("tournament_history", t)).content.decode()
    assert "Tische festgelegt" in history
    assert "Vorher:</span> Tische: 0" in history
    assert "Nachher:</span> Tische: 4" in history


def test_where_do_i_play_lists_every_player_in_german_order_on_screen_and_as_pdf(client, club):
    t = sold(
        club,
        ("Otto", 1, True),
        ("Österreicher", 1, True),
        ("Zach", 1, True),
        ("Oberhuber", 1, True),
        ("anna", 1, True),
        ("Ärger", 1, True),
        ("Bauer", 2, True),
        tables=2,
    )
    draw_round(t, ACTOR, seed=5)
    response = client.get(url("seats", t))
    seats = response.context["seats"]
    names = [s.player.name for s in seats]
    expected = sorted(
        names, key=lambda n: n.lower().replace("ä", "a").replace("ö", "o")
    )  # DIN 5007 variant 1: umlauts sort as their vowel
    assert names == expected
    assert names[:2] == ["anna", "Ärger"]
    assert names.index("Oberhuber") < names.index("Österreicher") < names.index("Otto")
    for seat in seats:
        assert seat.row.kind == "match"
        assert {seat.card.pk, seat.other.pk} == {seat.row.left.pk, seat.row.right.pk}
    html = response.content.decode()
    first = seats[0]
    assert squeezed(
        f"<tr><td>{first.player.name} <small>#{first.card.number}</small></td>"
        f'<td class="num">{first.row.table}</td>'
        f"<td>{first.other.player.name} <small>#{first.other.number}</small></td>"
        f"<td>Viertelfinale, Partie {first.row.pairing.number}</td></tr>"
    ) in squeezed(html)
    text = text_of(pdf_of(client.get(url("print_seats", t))))
    assert "Test · Wo spiele ich?" in text
    line = (
        f"{first.player.name} {first.card.number} {first.row.table} "
        f"{first.other.player.name} (#{first.other.number}) "
        f"Viertelfinale, Partie {first.row.pairing.number}"
    )
    assert line in text


def test_without_tables_no_table_numbers_are_shown(client, club):
    t = factories.tournament(club, cards=8, sold=8)
    draw_round(t, ACTOR, seed=4)
    assert all(row.table is None for row in client.get(url("round", t, number=1)).context["rows"])
    html = client.get(url("seats", t)).content.decode()
    assert '<th class="num">Tisch</th>' not in html
    assert 'class="table"' not in client.get(url("round", t, number=1)).content.decode()


def test_the_desk_and_where_do_i_play_read_a_fixed_number_of_queries(client, club):
    counts = []
    for cards in (16, 128):
        t = factories.tournament(club, cards=cards, sold=cards, max_cards=1, tables=10)
        draw_round(t, ACTOR, seed=1)
        with CaptureQueriesContext(connection) as desk:
            client.get(url("tournament", t))
        with CaptureQueriesContext(connection) as seats:
            client.get(url("seats", t))
        counts.append((len(desk), len(seats)))
    assert counts[0] == counts[1]


ENGLISH = (
    "Not paid yet",
    "owed",
    "can buy",
    "paid now",
    "Call list",
    "draws now",
    "Then:",
    "Where do I play",
    "Print / PDF",
    "Tables (0",
    "table 1",
    "against",
    "Match for",
    "Final",
    "Round ",
    "Quarter",
)


def test_the_new_desk_pages_show_no_english_in_german(client, club):
    at_venue = sold(club, ("Anna", 3, False), ("Ben", 1, True), ("Clara", 1, False))
    start_physical_draw(at_venue, ACTOR)
    drawn = sold(club, ("Anna", 3, False), ("Ben", 2, True), ("Clara", 1, False), tables=4)
    draw_round(drawn, ACTOR, seed=2)
    for path in (
        url("tournament", drawn),
        url("tournament", at_venue),
        url("physical_draw", at_venue),
        url("seats", drawn),
        url("round", drawn, number=1),
    ):
        html = client.get(path).content.decode()
        assert [word for word in ENGLISH if word in html] == [], path
    desk = client.get(url("tournament", drawn)).content.decode()
    assert "Tische (0: ohne Tischnummern)" in desk
    assert "Drucken / PDF: Kassabericht" in desk
    call_page = client.get(url("physical_draw", at_venue)).content.decode()
    assert '<h2 id="calls">Aufrufliste</h2>' in call_page
    assert "<em>zieht jetzt</em>" in call_page


# --- On a phone -------------------------------------------------------------------------------

LONG = "Maximilian Oberhollenzer-Größwang"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_desk_the_call_list_and_where_do_i_play_fit_a_320_phone(live_server, page):
    club = factories.club(name="Schnapsrunde zum Goldenen Hirschen")
    factories.user(club, role="organiser", username="carl")
    at_venue = sold(club, (LONG, 3, False), ("Ben", 1, True), ("Clara", 1, False))
    start_physical_draw(at_venue, ACTOR)
    drawn = sold(club, (LONG, 3, False), ("Ben", 2, True), ("Clara", 1, False), tables=4)
    draw_round(drawn, ACTOR, seed=2)
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill("carl")
    page.locator("input[name=password]").fill("pw-carl")
    page.locator("main form button").click()
    pages = {
        "desk": url("tournament", drawn),
        "desk during the draw": url("tournament", at_venue),
        "call list": url("physical_draw", at_venue),
        "where do I play": url("seats", drawn),
    }
    widths = {}
    for name, path in pages.items():
        response = page.goto(live_server.url + path)
        assert response.status == 200, name
        widths[name] = page.evaluate("document.documentElement.scrollWidth")
    assert widths == dict.fromkeys(pages, 320)
