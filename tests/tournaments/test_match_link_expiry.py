"""Match links end a set time after the night's last event, whatever the start date.

``tournaments.links``: a match link works from the draw until ``MATCH_LINK_HOURS``
after the latest draw, result or voided result of its tournament.
"""

import datetime
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tournaments import links
from tournaments.models import Pairing, Result, Tournament
from tournaments.rows import rows
from tournaments.services.reading import load_state
from tournaments.services.results import record_result, void_result
from tournaments.services.sheets import Actor
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db


def running(starts_at=None):
    """A night with round 1 drawn and three matches open; its start moved to ``starts_at``."""
    factories.presets()
    club = factories.club()
    t = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    if starts_at is not None:
        Tournament.objects.filter(pk=t.pk).update(starts_at=starts_at)
        t.refresh_from_db()
    return t


def open_matches(t) -> list[Pairing]:
    state = load_state(t)
    found = rows(state, state.pairings[state.current.pk])
    return [r.pairing for r in found if r.kind == "match" and r.result is None]


def age(t, delta: datetime.timedelta) -> None:
    """Every event of the night ``delta`` earlier (the draw, results, voids)."""
    from django.db.models import F

    Pairing.objects.filter(tournament=t).update(created_at=F("created_at") - delta)
    results = Result.objects.filter(pairing__tournament=t)
    results.update(recorded_at=F("recorded_at") - delta)
    results.filter(voided_at__isnull=False).update(voided_at=F("voided_at") - delta)


def status(client, pairing) -> int:
    return client.get(reverse("match_link", kwargs={"token": pairing.token})).status_code


@pytest.mark.parametrize(
    "starts_at",
    [
        datetime.datetime(2100, 1, 1, 19, tzinfo=datetime.UTC),
        datetime.datetime(2001, 1, 1, 19, tzinfo=datetime.UTC),
    ],
    ids=["start-in-2100", "start-in-2001"],
)
def test_a_match_link_ends_hours_after_the_night_whatever_its_start_date(
    client, settings, starts_at
):
    t = running(starts_at)
    pairing = open_matches(t)[0]
    hours = datetime.timedelta(hours=settings.MATCH_LINK_HOURS)
    assert status(client, pairing) == 200
    age(t, hours - datetime.timedelta(minutes=1))
    assert status(client, pairing) == 200
    age(t, datetime.timedelta(minutes=2))
    assert status(client, pairing) == 404
    # The score sheet behind the link is refused too.
    sheet = reverse("match_sheet", kwargs={"token": pairing.token})
    assert client.post(sheet).status_code == 404


def test_a_late_result_keeps_the_other_open_matches_links_alive(client, settings):
    t = running(timezone.now() - datetime.timedelta(days=30))
    first, second = open_matches(t)[:2]
    age(t, datetime.timedelta(hours=settings.MATCH_LINK_HOURS, minutes=1))
    assert status(client, second) == 404
    record_result(first, first.left_id, "2:0", uuid.uuid4(), Actor())
    assert status(client, second) == 200
    ends = links.match_links_end(t)
    latest = Result.objects.get(pairing=first, voided_at__isnull=True).recorded_at
    assert ends == latest + datetime.timedelta(hours=settings.MATCH_LINK_HOURS)


def test_a_finished_night_closes_every_match_link(client, settings):
    factories.presets()
    t = simulate(factories.club(), cards=8, players=6, max_cards=2, seed=3)
    final = Pairing.objects.filter(tournament=t, kind="match").order_by("-created_at").first()
    assert status(client, final) == 200
    age(t, datetime.timedelta(hours=settings.MATCH_LINK_HOURS, minutes=1))
    assert [status(client, p) for p in Pairing.objects.filter(tournament=t)] == [404] * (
        Pairing.objects.filter(tournament=t).count()
    )


def test_the_hours_are_a_setting(client, settings):
    settings.MATCH_LINK_HOURS = 1
    t = running(datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC))
    pairing = open_matches(t)[0]
    age(t, datetime.timedelta(minutes=50))
    assert status(client, pairing) == 200
    age(t, datetime.timedelta(minutes=11))
    assert status(client, pairing) == 404


def test_the_last_event_is_one_query(django_assert_num_queries):
    t = running()
    drawn = Pairing.objects.filter(tournament=t).order_by("-created_at").first().created_at
    with django_assert_num_queries(1):
        assert links.last_event(t) == drawn
    pairing = open_matches(t)[0]
    result = record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), Actor())
    void_result(pairing, Actor())
    voided = Result.objects.get(pk=result.pk).voided_at
    assert voided > result.recorded_at > drawn
    with django_assert_num_queries(1):
        assert links.last_event(t) == voided
    empty = factories.tournament(factories.club())
    assert links.last_event(empty) is None
    assert links.match_link_open(empty) is False


def test_a_match_sheets_link_closes_with_the_nights_match_links(client, settings):
    """The score sheet opened from a match link has a private link of its own: it takes
    deals while the match links work, and answers 404 as they do once the night is over,
    so no deal comes in and no result it would make opens the links again."""
    from scoring.models import Deal

    t = running(timezone.now() - datetime.timedelta(days=30))
    pairing = open_matches(t)[0]
    opened = client.post(reverse("match_sheet", kwargs={"token": pairing.token}))
    token = opened["Location"].split("/e/")[1].split("/")[0]
    page = reverse("entry:page", kwargs={"token": token})
    record = reverse("entry:record", kwargs={"token": token})
    version = reverse("entry:version", kwargs={"token": token})

    def deal():
        return client.post(
            record, {"key": factories.key(), "kind": "quick", "winner": 0, "points": 3}
        )

    assert client.get(page).status_code == 200
    assert deal().status_code in (200, 302)
    assert Deal.objects.filter(sheet__entry_token=token).count() == 1
    age(t, datetime.timedelta(hours=settings.MATCH_LINK_HOURS, minutes=1))
    assert [client.get(page).status_code, client.get(version).status_code] == [404, 404]
    for _ in range(2):  # two more deals of 3 would win the Partie and make a result
        assert deal().status_code == 404
    assert Deal.objects.filter(sheet__entry_token=token).count() == 1
    assert Result.objects.live_for(pairing) is None
    assert links.match_link_open(t) is False
