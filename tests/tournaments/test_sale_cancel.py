"""A mistyped sale is cancelled until its card is drawn (RULES.md 5.1): the card is gone,
its number goes to the next sale, it leaves the takings and the public pages, and the
tournament's history keeps it."""

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Player
from scoring.rules import RuleError
from tests import factories
from tournaments.models import Card
from tournaments.prizes import cash
from tournaments.services.cards import cancel_sale
from tournaments.services.draws import draw_round, undo_draw
from tournaments.services.sheets import Actor

pytestmark = pytest.mark.django_db
ACTOR = Actor()
DRAWN_DE = (
    "Karte {n} ist schon ausgelost: ihr Verkauf kann nicht mehr storniert werden. "
    "Stattdessen zurückziehen."
)


def test_a_typo_is_cancelled_its_number_goes_to_the_next_sale_and_the_takings_balance():
    t = factories.tournament(factories.club(), max_cards=2)
    factories.sell(t, "Anna")
    factories.sell(t, "Ben")
    (typo,) = factories.sell(t, "Bne")
    factories.sell(t, "Clara")
    cancelled = cancel_sale(t, typo.pk, ACTOR)
    assert cancelled.number == 3
    assert not Card.objects.filter(pk=typo.pk).exists()
    takings = cash(t.entry_fee, Card.objects.filter(tournament=t))
    assert (takings.sold, takings.paid_amount) == (3, 3 * t.entry_fee)
    # The name typed wrong leaves the club: the sale added it, nothing else holds it.
    assert not Player.objects.filter(club=t.club, name="Bne").exists()
    entry = AuditEntry.objects.filter(scope="tournament", scope_id=t.pk).latest("pk")
    assert (entry.action, entry.before, entry.after) == (
        "sale cancelled",
        {"card": 3, "player": "Bne", "paid": True},
        {"player_removed": True},
    )
    (ben,) = factories.sell(t, "Ben")
    assert ben.number == 3


def test_numbers_never_pass_the_cards_laid_out():
    t = factories.tournament(factories.club(), cards=8, sold=8, max_cards=2)
    five = Card.objects.get(tournament=t, number=5)
    cancel_sale(t, five.pk, ACTOR)
    (again,) = factories.sell(t, "Neu")
    assert again.number == 5
    with pytest.raises(RuleError) as refused:
        factories.sell(t, "Noch")
    assert refused.value.params == {"left": 0, "cards": 8}
    numbers = sorted(Card.objects.filter(tournament=t).values_list("number", flat=True))
    assert numbers == list(range(1, 9))


def test_a_player_with_another_card_stays_in_the_club():
    t = factories.tournament(factories.club(), max_cards=2)
    first, second = factories.sell(t, "Anna", count=2)
    cancel_sale(t, second.pk, ACTOR)
    assert Player.objects.filter(club=t.club, name="Anna").exists()
    cancel_sale(t, first.pk, ACTOR)
    # A player of the club from before the night is not removed either.
    old = factories.players(t.club, "Dora")[0]
    Player.objects.filter(pk=old.pk).update(created_at=old.created_at.replace(year=2020))
    (dora,) = factories.sell(t, "Dora")
    cancel_sale(t, dora.pk, ACTOR)
    assert Player.objects.filter(pk=old.pk).exists()


def test_a_drawn_card_cannot_be_cancelled_not_even_after_its_draw_was_undone():
    t = factories.tournament(factories.club(), cards=8, sold=6, max_cards=2)
    card = Card.objects.get(tournament=t, number=2)
    round_ = draw_round(t, ACTOR, seed=1)
    with pytest.raises(RuleError) as refused:
        cancel_sale(t, card.pk, ACTOR)
    assert refused.value.params == {"card": 2}
    undo_draw(t, round_.pk, ACTOR)
    with pytest.raises(RuleError):  # the undone draw keeps its pairings with the card
        cancel_sale(t, card.pk, ACTOR)
    assert Card.objects.filter(pk=card.pk).exists()


def test_the_desk_cancels_once_and_then_offers_no_more_cancelling(client):
    t = factories.tournament(factories.club(), cards=8, max_cards=2)
    (typo,) = factories.sell(t, "Bne")
    factories.sell(t, "Anna")
    client.force_login(factories.user(t.club, role="organiser"))
    desk = reverse("tournament", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    url = reverse(
        "cancel_sale", kwargs={"slug": t.club.slug, "tournament_id": t.pk, "card_id": typo.pk}
    )
    assert f'href="{url}"' in client.get(desk).content.decode()
    page = client.get(url).content.decode()
    assert "Den Verkauf von Karte 1 (Bne) stornieren?" in page
    done = client.post(url, follow=True).content.decode()
    assert "Der Verkauf von Karte 1 (Bne) ist storniert." in done
    again = client.post(url, follow=True).content.decode()  # a second tap
    assert "Dieser Verkauf ist schon storniert." in again
    assert Card.objects.filter(tournament=t).count() == 1
    history = reverse("tournament_history", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    text = client.get(history).content.decode()
    assert "Verkauf storniert" in text and "Karte 1 (Bne), bezahlt" in text
    public = Client().get(reverse("bracket", kwargs={"token": t.public_token})).content.decode()
    assert "Bne" not in public
    (anna,) = Card.objects.filter(tournament=t)
    assert anna.number == 2


def test_the_desk_refuses_a_drawn_card_with_the_reason_and_scorers_cannot_cancel(client):
    t = factories.tournament(factories.club(), cards=8, sold=8, max_cards=2)
    card = Card.objects.get(tournament=t, number=4)
    url = reverse(
        "cancel_sale", kwargs={"slug": t.club.slug, "tournament_id": t.pk, "card_id": card.pk}
    )
    scorer = Client()
    scorer.force_login(factories.user(t.club, role="scorer"))
    assert scorer.post(url).status_code == 403
    draw_round(t, ACTOR, seed=1)
    client.force_login(factories.user(t.club, role="organiser"))
    desk = reverse("tournament", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    assert "/cancel/" not in client.get(desk).content.decode()
    refused = client.post(url)
    assert refused.status_code == 400
    assert DRAWN_DE.format(n=4) in refused.content.decode()
    assert Card.objects.filter(pk=card.pk).exists()
