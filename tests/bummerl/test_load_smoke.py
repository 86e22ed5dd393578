"""A short smoke of the load run: phones at once over real HTTP, nothing lost or doubled."""

import pytest

from scoring.models import Deal
from tests import factories, load
from tournaments.models import Pairing, Result
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db(transaction=True)


def test_eight_phones_for_three_seconds_lose_and_double_nothing(live_server):
    club = factories.club()
    sheets = [factories.sheet(club, names=(f"A{i}", f"B{i}", f"C{i}")) for i in range(6)]
    t = simulate(club, cards=32, players=32, max_cards=1, seed=2, stop_after=1)
    tokens = list(
        Pairing.objects.filter(tournament=t, kind="match", results__isnull=True).values_list(
            "token", flat=True
        )
    )
    tally = load.run(
        live_server.url, [s.entry_token for s in sheets], tokens, seconds=3, result_phones=2
    )
    assert tally.errors == []
    assert Deal.objects.filter(sheet__in=sheets).count() == len(tally.deal_keys) > 0
    assert (
        set(map(str, Deal.objects.filter(sheet__in=sheets).values_list("key", flat=True)))
        == tally.deal_keys
    )
    assert (
        set(
            map(
                str,
                Result.objects.filter(
                    pairing__tournament=t, key__in=list(tally.result_keys)
                ).values_list("key", flat=True),
            )
        )
        == tally.result_keys
    )
