"""Prizes in money (RULES.md 5.5): a split of the takings in per cent or fixed amounts,
rounded down to whole euros, the rest the house's; the cash report balances. Pure
rules with hypothesis properties, then the form, the desk, the PDFs and the export."""

import io
import random
import uuid
from decimal import Decimal

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from scoring.services import Actor
from tests import factories
from tournaments.export import export
from tournaments.prizes import prize_money, split
from tournaments.services.cards import cancel_sale, sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.reading import load_state

ACTOR = Actor()


@pytest.mark.parametrize(
    ("description", "money"),
    [
        ("40 %", ("percent", Decimal(40))),
        ("12,5 % und ein Pokal", ("percent", Decimal("12.5"))),
        ("25 Prozent", ("percent", Decimal(25))),
        ("€ 50", ("amount", Decimal(50))),
        ("50 €", ("amount", Decimal(50))),
        ("50,50 Euro", ("amount", Decimal("50.50"))),
        ("Geschenkkorb", None),
        ("2 Flaschen Wein", None),
    ],
)
def test_a_prize_is_money_when_it_starts_with_a_share_or_an_amount(description, money):
    assert prize_money(description) == money


def test_a_share_rounds_down_to_whole_euros_and_the_house_keeps_the_rest():
    got = split(
        Decimal("310"), [("", 1, "50 %"), ("", 2, "30 %"), ("", 3, "Wein"), ("", 4, "€ 20")]
    )
    assert [(p.place, p.amount) for p in got.payouts] == [
        (1, Decimal(155)),
        (2, Decimal(93)),
        (4, Decimal(20)),
    ]
    assert (got.prize_money, got.house, got.short) == (Decimal(268), Decimal(42), False)
    short = split(Decimal(30), [("", 1, "€ 50")])
    assert (short.house, short.short) == (Decimal(-20), True)


@given(
    st.decimals(0, 100_000, places=2),
    st.lists(st.integers(0, 100), max_size=8).filter(lambda xs: sum(xs) <= 100),
)
def test_shares_never_pay_out_more_than_the_takings_and_the_split_balances(takings, shares):
    got = split(takings, [("", i + 1, f"{p} %") for i, p in enumerate(shares)])
    assert all(p.amount == int(p.amount) for p in got.payouts)  # whole euros
    assert all(0 <= takings * p.value / 100 - p.amount < 1 for p in got.payouts)
    assert got.prize_money + got.house == takings
    assert got.house >= 0


def url(name, t, **kwargs):
    return reverse(name, kwargs={"slug": t.club.slug, "tournament_id": t.pk, **kwargs})


@pytest.mark.django_db
def test_the_form_refuses_shares_past_100_per_cent(client):
    club = factories.signed_in_club(client)
    response = client.post(
        reverse("tournaments", kwargs={"slug": club.slug}),
        {
            "name": "Preisschnapsen",
            "day": "2026-12-05",
            "time": "19:00",
            "cards": 16,
            "max_cards": 3,
            "match_bummerl": 2,
            "entry_fee": "10",
            "prizes": "1: 60 %\n2: 50 %",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["prizes"] == [
        "Die Preise teilen 110 % der Einnahmen auf: höchstens 100 %."
    ]


@pytest.mark.django_db
def test_a_night_with_money_prizes_balances_its_cash_report(client):
    club = factories.club()
    prizes = [
        {"place": 1, "description": "50 %"},
        {"place": 2, "description": "30 %"},
        {"place": 3, "description": "€ 20"},
        {"place": 4, "description": "Wein"},
    ]
    t = factories.tournament(club, cards=8, entry_fee=10, prizes=prizes)
    typo = sell_cards(t, "Tippfehler", 1, ACTOR, uuid.uuid4(), paid=True)[0]
    cancel_sale(t, typo.pk, ACTOR)  # out of the takings (RULES.md 5.1), its number reused
    for i in range(8):
        sell_cards(t, f"Spieler {i + 1}", 1, ACTOR, uuid.uuid4(), paid=True)
    rng = random.Random(1)
    while load_state(t).next_pot_size() is not None:
        draw_round(t, ACTOR, seed=7)
        factories.play(t, rng=rng)
    factories.play(t, rng=rng)
    document = export(t, payments=True)
    cash = document["cash"]
    assert cash["in_box"] == "80.00"
    assert [(p["place"], p["amount"]) for p in cash["prize_money"]] == [
        (1, "40.00"),
        (2, "24.00"),
        (3, "20.00"),
    ]
    assert (cash["prize_money_total"], cash["house"]) == ("84.00", "-4.00")
    assert cash["cancelled_sales"] == [{"card": 1, "player": "Tippfehler", "paid": True}]
    client.force_login(factories.user(club, role="organiser"))
    desk = client.get(url("tournament", t)).content.decode()
    assert "Preisgeld" in desk and "€ 84,00" in desk
    assert "mehr als die Einnahmen" in desk  # € 20 fixed on an 80 € night: the house adds 4
    pdf = client.get(url("print_cash", t))
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "In der Kassa nach der Auszahlung" in text and "-€ 4,00" in text
    prize_pdf = client.get(url("print_prizes", t))
    listed = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(prize_pdf.content)).pages)
    assert "50 % (€ 40,00)" in listed and "€ 20 (€ 20,00)" in listed
    assert "Preisgeld € 84,00 von den Einnahmen € 80,00" in listed
