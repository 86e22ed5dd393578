"""Every QuerySet filter of the tournament models has an instance twin with the same rule:
``Pairing.objects.live()`` holds exactly the pairings whose ``is_live`` is true, and so on."""

import uuid

import pytest
from django.utils import timezone

from scoring.services import Actor
from tests import factories
from tournaments.models import Card, Pairing, Pull, Report, Result, Round, Side, TieBreak
from tournaments.services.draws import draw_round

pytestmark = pytest.mark.django_db


def _night():
    """A drawn first round of 8 cards (its pulls), with a result, a report and a tie-break."""
    t = factories.tournament(factories.club(), cards=8, sold=8)
    round_ = draw_round(t, Actor(), seed=1)
    pairing = round_.pairings.filter(kind="match").first()
    card = pairing.left
    if not round_.pulls.exists():
        Pull.objects.create(
            round=round_, index=0, player=card.player, card=card, pot="left", number=1
        )
    Result.objects.create(pairing=pairing, winner=card, score="2:0", key=uuid.uuid4())
    Report.objects.create(
        pairing=pairing, side=Side.LEFT, winner=card, score="2:0", key=uuid.uuid4()
    )
    TieBreak.objects.create(tournament=t, first=3, kind="lot", order=[])
    return t


# (model, the QuerySet method, the instance twin, the field that decides, a value for "no")
TWINS = [
    (Card, "withdrawn", "is_withdrawn", "withdrawn_round", 2),
    (Round, "live", "is_live", "undone_at", "now"),
    (Pull, "live", "is_live", "undone_at", "now"),
    (Pairing, "live", "is_live", "voided_at", "now"),
    (Result, "live", "is_live", "voided_at", "now"),
    (Report, "open", "is_open", "closed_at", "now"),
    (TieBreak, "live", "is_live", "voided_at", "now"),
]


@pytest.mark.parametrize(("model", "method", "twin", "field", "other"), TWINS)
def test_every_queryset_filter_agrees_with_its_instance_twin(model, method, twin, field, other):
    _night()
    instance = model.objects.order_by("pk").first()
    other = timezone.now() if other == "now" else other
    before = getattr(instance, field)
    for value in (before, other):
        model.objects.filter(pk=instance.pk).update(**{field: value})
        instance.refresh_from_db()
        in_filter = getattr(model.objects, method)().filter(pk=instance.pk).exists()
        assert getattr(instance, twin) is in_filter, (model, value)
        assert {c.pk for c in model.objects.all() if getattr(c, twin)} == set(
            getattr(model.objects, method)().values_list("pk", flat=True)
        )


def test_a_card_in_play_is_not_withdrawn_both_ways():
    _night()
    card = Card.objects.order_by("pk").first()
    assert not card.is_withdrawn
    assert Card.objects.not_withdrawn().filter(pk=card.pk).exists()
