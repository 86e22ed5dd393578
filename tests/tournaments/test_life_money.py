"""Lives bought in Leben (RULES.md 5.10 ``rebuy``) and the money of a night, on a real
database through the desk's pages: a life costs the life fee (the entry fee when none is
set), is paid when bought and shows in the Kassa, the cash report PDF and the export; a
purchase past the lives a player may have is refused; every amount reads "€ 5.120,00"."""

import random
import uuid
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import AuditEntry
from scoring.rules import RuleError
from tests import factories
from tests.base.test_printing import pdf_of, text_of
from tests.markup import squeezed
from tournaments.export import export
from tournaments.formats import board
from tournaments.models import Card, Pairing, Tournament
from tournaments.money import euro
from tournaments.printing import cash_context
from tournaments.services.cards import sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.formats import buy_life
from tournaments.services.reading import load_state
from tournaments.services.results import record_result
from tournaments.services.sheets import Actor
from tournaments.simulation import play_open_matches

pytestmark = pytest.mark.django_db
ACTOR = Actor()


def url(name, t, **kwargs):
    return reverse(name, kwargs={"slug": t.club.slug, "tournament_id": t.pk, **kwargs})


@pytest.fixture
def club(client):
    return factories.signed_in_club(client)


def leben_night(club, players=4, lives=2, **fields):
    """A Leben night of ``club``: ``players`` entries P0, P1, … sold and paid at 10."""
    settings_ = {"format": "leben", "lives": lives, "rebuy_until": 2, "max_cards": 1}
    t = factories.tournament(club, cards=players, sold=players, **settings_ | fields)
    return Tournament.objects.get(pk=t.pk)


def play_round_one(t):
    """Round 1 drawn and every match won by its left player; the losers, by name."""
    first = draw_round(t, ACTOR, seed=2)
    losers = []
    for p in Pairing.objects.filter(round=first, kind="match").select_related("right__player"):
        record_result(p, p.left_id, "2:0", uuid.uuid4(), ACTOR)
        losers.append(p.right)
    return losers


def test_a_life_bought_costs_the_life_fee_and_shows_on_the_kassa_the_pdf_and_the_export(
    client, club
):
    t = leben_night(club, life_fee=Decimal("7.50"))
    loser = play_round_one(t)[0]
    name = loser.player.name
    page = client.post(url("buy_life", t, card_id=loser.pk), {"seen": "0"}, follow=True)
    html = page.content.decode()
    assert f"{name} hat ein Leben um € 7,50 nachgekauft, bezahlt: noch 2 Leben." in html
    assert Card.objects.get(pk=loser.pk).rebuys == 1
    assert (
        "<p>4 Karten verkauft, 4 bezahlt (€ 40,00), 0 offen (€ 0,00). "
        "1 Leben um € 7,50 nachgekauft, bezahlt (€ 7,50). "
        '<strong class="in-box">In der Kassa: € 47,50.</strong></p>'
    ) in html
    assert (
        f'<td>{name}</td><td class="num">1</td><td class="num">1</td><td class="num">1 (€ 7,50)</td>'
        in squeezed(html)
    )
    text = text_of(pdf_of(client.get(url("print_cash", t))))
    assert "bezahlt · € 10,00 4 € 40,00" in text
    assert "verkauft 4 € 40,00" in text
    assert "nachgekaufte Leben, bezahlt · € 7,50 1 € 7,50" in text
    assert "verkauft: Karten und Leben € 47,50" in text
    assert "In der Kassa: bezahlte Karten und Leben € 47,50" in text
    assert f"{name} 1 1 1 € 17,50 –" in text
    document = client.get(url("tournament_export", t)).json()
    assert document["life_fee"] == "7.50"
    by_name = {line["player"]: line for line in document["cash"]["players"]}
    assert by_name[name] == {
        "player": name,
        "cards": [loser.number],
        "cards_paid": 1,
        "lives_bought": 1,
        "paid_amount": "17.50",
        "owed": "0.00",
    }
    assert {k: v for k, v in document["cash"].items() if k != "players"} == {
        "entry_fee": "10.00",
        "cards_sold": 4,
        "cards_paid": 4,
        "cards_amount": "40.00",
        "cards_paid_amount": "40.00",
        "open_amount": "0.00",
        "life_fee": "7.50",
        "lives_bought": 1,
        "lives_amount": "7.50",
        "total": "47.50",
        "in_box": "47.50",
        "prize_money": [],  # its prizes are goods
        "prize_money_total": "0.00",
        "house": "47.50",
        "cancelled_sales": [],
    }
    standing = next(line for line in document["standings"] if line["player"] == name)
    assert (standing["lives"], standing["lives_left"], standing["lives_bought"]) == (3, 2, 1)
    public = client.get(reverse("public_export", kwargs={"token": t.public_token})).json()
    assert "cash" not in public and public["life_fee"] == "7.50"  # no payment in it
    life = AuditEntry.objects.get(scope="tournament", action="life bought")
    assert life.after == {"player": name, "lives": 3, "lives_left": 2, "price": "7.50"}


def test_the_life_fee_is_set_on_the_form_and_is_the_entry_fee_when_empty(client, club):
    for fee, stored, price in (("", None, Decimal("5.00")), ("2.50", Decimal("2.50"), None)):
        name = f"Leben {fee or 'leer'}"
        response = client.post(
            reverse("tournaments", kwargs={"slug": club.slug}),
            {
                "name": name,
                "day": "2026-12-04",
                "time": "19:00",
                "cards": 64,
                "max_cards": 1,
                "match_bummerl": 2,
                "entry_fee": "5",
                "format": "leben",
                "players": 16,
                "lives": 2,
                "rebuy_until": 2,
                "life_fee": fee,
            },
        )
        assert response.status_code == 302
        t = Tournament.objects.get(name=name)
        assert t.life_fee == stored
        assert t.life_price == (price or stored)
    page = client.get(reverse("tournaments", kwargs={"slug": club.slug})).content.decode()
    assert "Preis eines Lebens (€)" in page
    assert "Was ein nachgekauftes Leben kostet; leer: der Einsatz pro Karte." in page


def test_a_life_past_the_most_lives_is_refused_and_nothing_changes(client, club):
    t = leben_night(club, lives=2)
    anna = Card.objects.get(tournament=t, player__name="P0")
    desk = client.get(url("tournament", t)).content.decode()
    assert "+1 Leben" not in desk  # everyone has his 2 lives: no button
    before = client.get(url("tournament_export", t)).json()["cash"]
    page = client.post(url("buy_life", t, card_id=anna.pk), {"seen": "0"}, follow=True)
    assert "P0 hat noch 2 Leben, höchstens 2 sind erlaubt: es wurde nichts gekauft." in (
        page.content.decode()
    )
    with pytest.raises(RuleError) as error:
        buy_life(t, anna.pk, ACTOR, seen=0)
    assert str(error.value) == (
        "card: P0 has the most lives allowed left (2 of 2): nothing was bought."
    )
    assert Card.objects.get(pk=anna.pk).rebuys == 0
    assert not AuditEntry.objects.filter(scope="tournament", action="life bought").exists()
    assert client.get(url("tournament_export", t)).json()["cash"] == before
    # A loser (1 of 2 left) buys one and is back at 2: a second life is refused.
    loser = play_round_one(t)[0]
    desk = client.get(url("tournament", t)).content.decode()
    assert desk.count("+1 Leben (€ 10,00)") == 2  # the two losers
    buy_life(t, loser.pk, ACTOR, seen=0)
    with pytest.raises(RuleError) as error:
        buy_life(t, loser.pk, ACTOR, seen=1)
    assert "has the most lives allowed left (2 of 2)" in str(error.value)
    assert Card.objects.get(pk=loser.pk).rebuys == 1
    assert cash_context(t)["cash"].in_box == Decimal("50.00")


def test_money_reads_with_thousands_for_a_night_of_512_cards_at_10_euros(client, club):
    t = factories.tournament(club, cards=512, sold=0, max_cards=16)
    for i in range(32):
        sell_cards(t, f"Spieler {i:02}", 16, ACTOR, uuid.uuid4(), paid=True)
    html = client.get(url("tournament", t)).content.decode()
    assert (
        "<p>512 Karten verkauft, 512 bezahlt (€ 5.120,00), 0 offen (€ 0,00). "
        '<strong class="in-box">In der Kassa: € 5.120,00.</strong></p>'
    ) in html
    text = text_of(pdf_of(client.get(url("print_cash", t))))
    assert "bezahlt · € 10,00 512 € 5.120,00" in text
    assert "verkauft 512 € 5.120,00" in text
    assert "In der Kassa: bezahlte Karten € 5.120,00" in text
    assert "Spieler 00 16 16 € 160,00 –" in text
    assert client.get(url("tournament_export", t)).json()["cash"]["in_box"] == "5120.00"
    with translation.override("de-at"):
        assert euro(Decimal("5120")) == "€ 5.120,00"
        assert euro(Decimal("1234567.895")) == "€ 1.234.567,90"
        assert euro(Decimal("-2.5")) == "-€ 2,50"
        assert euro(None) == "€ 0,00"
    with translation.override("en"):
        assert euro(Decimal("5120")) == "€5,120.00"
        assert euro(7) == "€7.00"


FEES = st.sampled_from([Decimal("0"), Decimal("0.01"), Decimal("7.35"), Decimal("12.99")])


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(2, 9),
    lives=st.integers(1, 3),
    rebuy_until=st.integers(1, 4),
    entry_fee=FEES,
    life_fee=st.one_of(st.none(), FEES),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_cash_of_a_random_leben_night_is_cards_at_the_fee_and_lives_at_the_life_fee(
    db, players, lives, rebuy_until, entry_fee, life_fee, seed
):
    rng = random.Random(seed)
    t = factories.tournament(
        factories.club(),
        cards=players,
        sold=0,
        max_cards=1,
        format="leben",
        lives=lives,
        rebuy_until=rebuy_until,
        entry_fee=entry_fee,
        life_fee=life_fee,
    )
    t = Tournament.objects.get(pk=t.pk)
    for i in range(players):
        sell_cards(t, f"P{i}", 1, ACTOR, uuid.uuid4(), paid=rng.random() < 0.7)
    bought = 0
    while True:
        state = load_state(t)
        now = board(state)
        if now.next_round is None:
            break
        for line in now.lines:  # a life bought at random, refused ones buy nothing
            if rng.random() < 0.4:
                try:
                    buy_life(t, line.card.pk, ACTOR, line.card.rebuys)
                    bought += 1
                except RuleError:
                    pass
        draw_round(t, ACTOR, seed=rng.getrandbits(32))
        play_open_matches(t, rng)
    state = load_state(t)
    fee = entry_fee if life_fee is None else life_fee
    paid = sum(card.paid for card in state.cards.values())
    money = cash_context(t, state)["cash"]
    assert money.lives == bought == sum(c.rebuys for c in state.cards.values())
    assert money.total == players * entry_fee + bought * fee
    assert money.in_box == paid * entry_fee + bought * fee
    assert money.total - money.open_amount == money.in_box
    lines = cash_context(t, state)["players"]
    assert sum((line.paid_amount for line in lines), Decimal(0)) == money.in_box
    assert all(
        line.lives_left <= lives for line in board(state).lines
    )  # never above the lives (RULES.md 5.10)
    document = export(t)["cash"]
    assert document["total"] == f"{players * entry_fee + bought * fee:.2f}"
    assert document["in_box"] == f"{paid * entry_fee + bought * fee:.2f}"
